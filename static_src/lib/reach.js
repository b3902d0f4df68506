// Load what a part needs the first time the shopper reaches for it (pointer over, touch or keyboard
// focus) rather than with the page (page budget); a click that comes before it is ready is held and
// replayed on the same control once `load()` has resolved. `isReady()` says when clicks may pass.
export function onFirstReach(el, load, isReady) {
  let loading = null;
  const start = () => (loading ??= load());
  for (const type of ["pointerover", "touchstart", "focusin"]) el.addEventListener(type, start, { once: true, passive: true });
  el.addEventListener("click", (event) => {
    if (isReady()) return;
    const index = [...el.querySelectorAll("a, button")].indexOf(event.target.closest("a, button"));
    if (index < 0) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    start().then(() => el.querySelectorAll("a, button")[index]?.click());
  }, true);
}
