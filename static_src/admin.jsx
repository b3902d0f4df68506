// Dashboard entry: the storefront's design system, the dashboard shell and the admin islands.
import "./css/main.css";
import "./css/storefront.css";
import "./css/admin.css";
import { mountIslands } from "./lib/mount.jsx";
import { adminIslands } from "./islands/admin-registry.js";
import { initShell } from "./islands/admin/shell.js";
import { initDigitInputs } from "./lib/digits.js";

initShell();
initDigitInputs();
mountIslands(adminIslands);
