// Details / Care Guide / Reviews as tabs. Until it mounts (at the first interaction: lib/mount.jsx), and
// without JavaScript, the links show the panel they name (product.css, :target).
import { useEffect, useLayoutEffect, useState } from "react";

function panelFromHash(tabs) {
  const id = decodeURIComponent(location.hash.slice(1));
  return tabs.some((tab) => tab.id === id) ? id : tabs[0]?.id;
}

export default function ProductTabs({ tabs = [] }) {
  const [active, setActive] = useState(() => panelFromHash(tabs));

  // before the first paint: the stylesheet's choice stops when the island is in (data-mounted)
  useLayoutEffect(() => {
    for (const panel of document.querySelectorAll("[data-tab-panel]")) {
      panel.hidden = panel.dataset.tabPanel !== active;
      if (panel.id) panel.setAttribute("role", "tabpanel");
    }
  }, [active]);

  useEffect(() => {
    const onHash = () => setActive(panelFromHash(tabs));
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [tabs]);

  const onKey = (event, index) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    const rtl = document.documentElement.dir === "rtl";
    const next = tabs[(index + (rtl ? -step : step) + tabs.length) % tabs.length];
    setActive(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };

  return (
    <div role="tablist" className="tabs__list">
      {tabs.map((tab, index) => (
        <button key={tab.id} id={`tab-${tab.id}`} type="button" role="tab" aria-selected={active === tab.id}
          aria-controls={tab.id} tabIndex={active === tab.id ? 0 : -1} className={active === tab.id ? "is-active" : ""}
          onClick={() => setActive(tab.id)} onKeyDown={(event) => onKey(event, index)}>
          {tab.label}
        </button>
      ))}
    </div>
  );
}
