// Storefront entry: site-wide behaviour plus the islands a page asks for.
import "./css/main.css";
import "./css/search.css"; // the header search (one stylesheet per page: the page budget)
import { mountIslands } from "./lib/mount.jsx";
import { initChrome } from "./lib/chrome.js";
import { storefrontIslands } from "./islands/registry.js";

initChrome();
mountIslands(storefrontIslands);
// the product gallery's thumbnails and lightbox load when the shopper reaches for the pictures
// (pointer, touch or keyboard), not with the page; a click that comes first is replayed
const gallery = document.querySelector("[data-gallery]");
if (gallery) {
  let loading = null;
  let loaded = false;
  const load = () => (loading ??= import("./lib/gallery.js").then((m) => m.initGalleries()).then(() => { loaded = true; }));
  for (const type of ["pointerover", "touchstart", "focusin"]) gallery.addEventListener(type, load, { once: true, passive: true });
  gallery.addEventListener("click", (event) => {
    const target = !loaded && event.target.closest("a, button");
    if (!target) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    load().then(() => target.click());
  }, true);
}
// the header search's suggestions load on its first focus, not with every page (none on checkout)
const search = document.querySelector("[data-site-search]");
search?.addEventListener("focusin", () => import("./lib/search-suggest.js").then((m) => m.attach(search)), { once: true });
// the account forms' enhancements load only on pages that have one
if (document.querySelector("form[data-account-form]")) {
  import("./accounts/forms.js").then((module) => module.initAccountForms());
}
