// A modal dialog (Escape and the backdrop close it; focus moves in, stays in, and goes back) and a confirm.
import { useEffect, useId, useRef } from "react";
import { at } from "./strings.js";

const TABBABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), "
  + "textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

// Tab and Shift+Tab go round the topmost open dialog's own controls, never into the page behind it
function keepTabInside(e, panel) {
  const panels = document.querySelectorAll(".admin-dialog__panel");
  if (e.key !== "Tab" || !panel || panels[panels.length - 1] !== panel) return;
  const items = [...panel.querySelectorAll(TABBABLE)].filter((el) => el.getClientRects().length > 0);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  const here = document.activeElement;
  if (!panel.contains(here) || (e.shiftKey && (here === first || here === panel)) || (!e.shiftKey && here === last)) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  }
}

// `title` may hold elements (an order number kept whole: OrderNumber): the heading names the dialog
export function Dialog({ open, title, onClose, children, footer, wide = false }) {
  const panel = useRef(null);
  const heading = useId();
  useEffect(() => {
    if (!open) return undefined;
    const previous = document.activeElement;
    const first = panel.current?.querySelector("input, select, textarea, button:not(.admin-dialog__close)");
    (first || panel.current)?.focus();
    const onKey = (e) => {
      if (e.key === "Escape") onClose?.();
      keepTabInside(e, panel.current);
    };
    document.addEventListener("keydown", onKey);
    document.body.classList.add("no-scroll");
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.classList.remove("no-scroll");
      previous?.focus?.();
    };
  }, [open]);
  if (!open) return null;
  return (
    <div className="admin-dialog" role="presentation">
      <div className="admin-dialog__backdrop" onClick={onClose} />
      <div
        className={`admin-dialog__panel${wide ? " admin-dialog__panel--wide" : ""}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={heading}
        tabIndex={-1}
        ref={panel}
      >
        <div className="admin-dialog__head">
          <h2 id={heading}>{title}</h2>
          <button type="button" className="icon-button admin-dialog__close" onClick={onClose} aria-label={at("close")}>
            ×
          </button>
        </div>
        <div className="admin-dialog__body">{children}</div>
        {footer && <div className="admin-dialog__foot">{footer}</div>}
      </div>
    </div>
  );
}

export function ConfirmDialog({ open, title, message, confirmLabel, danger = true, busy = false, onConfirm, onCancel }) {
  return (
    <Dialog
      open={open}
      title={title || at("confirmTitle")}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {at("cancel")}
          </button>
          <button
            type="button"
            className={`button${danger ? " button--danger" : ""}`}
            onClick={onConfirm}
            disabled={busy}
            data-confirm
          >
            {confirmLabel || at("confirm")}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </Dialog>
  );
}

// A form dialog's footer: cancel (or close) and the submit button of the form `formId`.
export function DialogFooter({ formId, onCancel, cancelLabel, submitLabel, busyLabel, busy = false, canSubmit = true }) {
  return (
    <>
      <button type="button" className="button button--ghost" onClick={onCancel}>
        {cancelLabel || at("cancel")}
      </button>
      {canSubmit && (
        <button type="submit" form={formId} className="button" disabled={busy}>
          {busy ? busyLabel || at("saving") : submitLabel || at("save")}
        </button>
      )}
    </>
  );
}
