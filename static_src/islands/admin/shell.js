// The dashboard header without React: auto-refresh every 60 s, Refresh Now, and the
// toast a sign-in leaves behind. Sections listen for REFRESH_EVENT and reload their data.
import { toast } from "../../lib/events.js";
import { formatTime } from "../../lib/store-day.js";

export const REFRESH_EVENT = "admin:refresh";
export const REFRESHED_EVENT = "admin:refreshed";
const AUTO_KEY = "adminAutoRefresh";
const FLASH_KEY = "adminFlash";
const INTERVAL_MS = 60000;

export function flashToast(message, kind = "success") {
  sessionStorage.setItem(FLASH_KEY, JSON.stringify({ message, kind }));
}

function showFlash() {
  const raw = sessionStorage.getItem(FLASH_KEY);
  if (!raw) return;
  sessionStorage.removeItem(FLASH_KEY);
  try {
    const { message, kind } = JSON.parse(raw);
    setTimeout(() => toast(message, kind), 50);
  } catch {
    /* a broken flash is simply dropped */
  }
}

// The phone menu: a real button (aria-expanded) opens the sidebar; the backdrop or Esc closes it.
function initNavToggle() {
  const button = document.querySelector("[data-admin-nav-toggle]");
  const layout = button?.closest(".admin-layout") || document.querySelector(".admin-layout");
  if (!button || !layout) return;
  const setOpen = (open) => {
    layout.classList.toggle("is-nav-open", open);
    button.setAttribute("aria-expanded", String(open));
    if (open) layout.querySelector(".admin-sidebar a")?.focus();
  };
  button.addEventListener("click", () => setOpen(!layout.classList.contains("is-nav-open")));
  layout.querySelector("[data-admin-nav-close]")?.addEventListener("click", () => setOpen(false));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && layout.classList.contains("is-nav-open")) {
      setOpen(false);
      button.focus();
    }
  });
}

export function initShell() {
  showFlash();
  initNavToggle();
  // Signing out ends the session on the server (which also revokes its token); drop our copy.
  document.querySelector("[data-logout-form]")?.addEventListener("submit", () => sessionStorage.removeItem("adminSession"));
  const header = document.querySelector("[data-admin-header]");
  if (!header) return;
  const state = header.querySelector("[data-refresh-state]");
  const last = header.querySelector("[data-refresh-last]");
  const toggle = header.querySelector("[data-refresh-toggle]");
  const indicator = header.querySelector("[data-refresh-indicator]");
  let timer = null;

  const stamp = () => {
    const now = new Date();
    last.dateTime = now.toISOString();
    last.textContent = formatTime(now, document.documentElement.lang);
  };
  const refresh = () => {
    window.dispatchEvent(new CustomEvent(REFRESH_EVENT));
    stamp();
  };
  const setAuto = (on) => {
    localStorage.setItem(AUTO_KEY, on ? "1" : "0");
    clearInterval(timer);
    timer = on ? setInterval(refresh, INTERVAL_MS) : null;
    state.textContent = on ? state.dataset.on : state.dataset.off;
    toggle.textContent = on ? toggle.dataset.disable : toggle.dataset.enable;
    toggle.setAttribute("aria-pressed", String(on));
    indicator.classList.toggle("is-on", on);
  };

  stamp();
  setAuto(localStorage.getItem(AUTO_KEY) === "1");
  header.querySelector("[data-refresh-now]").addEventListener("click", refresh);
  toggle.addEventListener("click", () => setAuto(localStorage.getItem(AUTO_KEY) !== "1"));
  window.addEventListener(REFRESHED_EVENT, stamp);
}
