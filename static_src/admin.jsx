// Dashboard entry: the storefront's design system plus the admin islands.
import "./css/main.css";
import "./css/admin.css";
import { mountIslands } from "./lib/mount.jsx";
import { adminIslands } from "./islands/admin-registry.js";

mountIslands(adminIslands);
