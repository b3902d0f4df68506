// Load what a part needs the first time the shopper reaches for it (pointer over, touch or keyboard
// focus) rather than with the page (page budget); a click that comes before it is ready is held and
// replayed on the same control once `load()` and then `activate(loaded)` have resolved. `isReady()` says
// when clicks may pass.
//
// `activate` runs on that first click, never on reach: a part that swaps its server-rendered controls
// for new ones (a React island) must not do it between a press and its click, or the click lands on
// neither control and is lost (a tap whose touchstart loaded the code from the cache). The caller may
// load it and activate it earlier with the functions returned, at a moment it knows no press is under way.
export function onFirstReach(el, load, isReady, activate = () => undefined) {
  let loading = null;
  let activating = null;
  let replaying = false;
  const start = () => (loading ??= load());
  const activateOnce = () => (activating ??= start().then(activate));
  for (const type of ["pointerover", "touchstart", "focusin"]) el.addEventListener(type, start, { once: true, passive: true });
  el.addEventListener("click", (event) => {
    if (isReady()) return;
    const index = [...el.querySelectorAll("a,button")].indexOf(event.target.closest("a,button"));
    if (index < 0) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (replaying) return; // a second tap while the first waits: that one is replayed, once
    replaying = true;
    activateOnce().then(() => el.querySelectorAll("a,button")[index]?.click());
  }, true);
  return { load: start, activate: activateOnce };
}
