// react-dom's createRoot as an ES module of its own, for lib/mount.jsx to import when a page first renders an
// island: react-dom is CommonJS, and esbuild gives a dynamic import of it only a default export.
export { createRoot } from "react-dom/client";
