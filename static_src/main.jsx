// Storefront entry: site-wide behaviour plus the islands a page asks for.
import "./css/main.css";
import { mountIslands, readProps } from "./lib/mount.jsx";
import { initChrome } from "./lib/chrome.js";
import { storefrontIslands } from "./islands/registry.js";
import { onFirstReach } from "./lib/reach.js";

initChrome();
mountIslands(storefrontIslands);
// the rate widgets' clock runs without React; the rate badge mounts at its first new rate
const rateBadge = document.querySelector('[data-island="rate-badge"]');
if (rateBadge) import("./islands/currency-rate.js").then((m) => m.startRateClock(readProps(rateBadge).rate));
// the product gallery's thumbnails and lightbox load when the shopper reaches for the pictures
// (lib/reach.js), not with the page
const gallery = document.querySelector("[data-gallery]");
if (gallery) {
  let loaded = false;
  const load = () => import("./lib/gallery.js").then((m) => m.initGalleries()).then(() => { loaded = true; });
  onFirstReach(gallery, load, () => loaded);
}
// the header search's suggestions load on its first focus, not with every page (none on checkout)
const search = document.querySelector("[data-site-search]");
search?.addEventListener("focusin", () => import("./lib/search-suggest.js").then((m) => m.attach(search)), { once: true });
// the account forms' enhancements load only on pages that have one
if (document.querySelector("form[data-account-form]")) {
  import("./accounts/forms.js").then((module) => module.initAccountForms());
}
