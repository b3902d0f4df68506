// Storefront entry: site-wide behaviour plus the islands a page asks for.
import "./css/main.css";
import { mountIslands } from "./lib/mount.jsx";
import { initChrome } from "./lib/chrome.js";
import { storefrontIslands } from "./islands/registry.js";

initChrome();
mountIslands(storefrontIslands);
// the account forms' enhancements load only on pages that have one
if (document.querySelector("form[data-account-form]")) {
  import("./accounts/forms.js").then((module) => module.initAccountForms());
}
