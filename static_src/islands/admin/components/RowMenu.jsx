// A row's "more actions" menu (destructive and rarer actions live here, not as a row of buttons).
// children(close) renders the menu items; a click outside or Escape closes it.
import { useEffect, useRef, useState } from "react";

export function RowMenu({ label, children }) {
  const ref = useRef(null);
  const [open, setOpen] = useState(false);
  const close = () => {
    if (ref.current) ref.current.open = false;
  };

  useEffect(() => {
    if (!open) return undefined;
    const outside = (event) => {
      if (ref.current && !ref.current.contains(event.target)) close();
    };
    const escape = (event) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("click", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("click", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);

  return (
    <details className="admin-row-menu" ref={ref} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="button button--small button--ghost" aria-label={label} title={label}>
        <svg className="admin-icon" aria-hidden="true" focusable="false"><use href="#icon-more" /></svg>
      </summary>
      <div className="admin-row-menu__list" role="menu">{open && children(close)}</div>
    </details>
  );
}
