// The dashboard order print view: its Print button (no inline script under the CSP).
document.querySelector("[data-print]")?.addEventListener("click", () => window.print());
