// Storefront entry: site-wide behaviour plus the islands a page asks for.
import "./css/main.css";
import { mountIslands } from "./lib/mount.jsx";
import { initChrome } from "./lib/chrome.js";
import { storefrontIslands } from "./islands/registry.js";

initChrome();
mountIslands(storefrontIslands);
