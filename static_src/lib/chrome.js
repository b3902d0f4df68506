// Site-wide behaviour without React: the mobile drawer and dismissible announcements.
const DISMISSED_KEY = "dismissedAnnouncements";

function dismissed() {
  try {
    return JSON.parse(localStorage.getItem(DISMISSED_KEY) || "[]");
  } catch {
    return [];
  }
}

function initAnnouncements() {
  for (const bar of document.querySelectorAll("[data-announcement-id]")) {
    const id = bar.dataset.announcementId;
    if (dismissed().includes(id)) bar.remove();
    bar.querySelector("[data-dismiss-announcement]")?.addEventListener("click", () => {
      localStorage.setItem(DISMISSED_KEY, JSON.stringify([...dismissed(), id]));
      bar.remove();
    });
  }
}

function initDrawer() {
  const drawer = document.getElementById("drawer");
  const opener = document.querySelector("[data-drawer-open]");
  if (!drawer || !opener) return;
  const setOpen = (open) => {
    drawer.hidden = !open;
    opener.setAttribute("aria-expanded", String(open));
    document.body.classList.toggle("no-scroll", open);
    if (open) drawer.querySelector("a, button")?.focus();
    else opener.focus(); // back where the shopper opened it, not the page's start
  };
  opener.addEventListener("click", () => setOpen(true));
  drawer.querySelectorAll("[data-drawer-close]").forEach((el) => el.addEventListener("click", () => setOpen(false)));
  document.addEventListener("keydown", (e) => {
    if (drawer.hidden) return;
    if (e.key === "Escape") setOpen(false);
    if (e.key !== "Tab") return;
    // Tab cycles inside the open menu: the page behind it is covered
    const items = [...drawer.querySelectorAll("a[href], button, input, select")].filter((el) => el.offsetParent);
    const [first, last] = [items[0], items[items.length - 1]];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });
}

// Product colour dots: the colour comes as data-swatch and is set through the
// CSSOM, because the Content-Security-Policy refuses inline style attributes.
export function paintSwatches(root = document) {
  for (const dot of root.querySelectorAll("[data-swatch]")) dot.style.setProperty("--swatch", dot.dataset.swatch);
}

export function initChrome() {
  paintSwatches();
  initAnnouncements();
  initDrawer();
}
