// Mount React islands into server-rendered pages.
import { startTransition } from "react";
import { initI18n } from "./i18n.js";
import { onFirstReach } from "./reach.js";

// react-dom (about 200 KB, some 40 ms of a phone's main thread to start) is fetched and run when the
// page first renders an island, not with every page: a page whose islands all wait (the home page's cart
// count, its footer form) never pays for it (Lighthouse's Total Blocking Time, issue 14)
let reactDom;
const loadReactDom = () => (reactDom ??= import("./react-root.js"));

export function readProps(el) {
  if (el.dataset.propsId) {
    const script = document.getElementById(el.dataset.propsId);
    return script ? JSON.parse(script.textContent) : {};
  }
  return el.dataset.props ? JSON.parse(el.dataset.props) : {};
}

// the island's component, once its code and what it first fetches (e.g. its strings in this page's
// language only) are here
async function load(registry, el) {
  const [module] = await Promise.all([registry[el.dataset.island](), loadReactDom()]);
  await module.ready;
  return module.default;
}

async function rootFor(el, then) {
  const { createRoot } = await loadReactDom();
  const swapped = keepFocus(el);
  // data-mounted (and `then`) once React has put the island in (its first commit replaces the server's stand-in,
  // which has the same boxes for CLS 0 and does nothing when clicked), not when it was asked to render
  new MutationObserver(() => {
    if (el.dataset.mounted) return;
    el.dataset.mounted = "true";
    swapped();
    then?.();
  }).observe(el, { childList: true });
  return createRoot(el);
}

// The keyboard's place survives the swap: a focus given to the stand-in at any time before the island's first
// commit (Tab, a jump to the footer's e-mail box while the island renders) would go down with it to the page's
// start. The commit moves it to the island's matching control (lib/refocus.js, fetched once the stand-in has had
// the focus). What was typed in the stand-in goes over too, also when focus has moved on before the island came
// (typed, then Tab past the form on a slow connection): then focus stays where it went. Returns what the commit
// calls.
const loadRefocus = () => import("./refocus.js");
const typed = (c) => c.value !== (c.defaultValue ?? c.value); // a select, a button: none

function keepFocus(el) {
  const before = controlsIn(el);
  let held = el.contains(document.activeElement) && document.activeElement;
  if (held) loadRefocus();
  el.addEventListener("focusin", (event) => {
    if (el.dataset.mounted) return; // the island's own business
    held = event.target;
    loadRefocus();
  });
  el.addEventListener("focusout", ({ target }) => {
    // Chromium says focusout for the focused control the commit removes, too: left only if it is still in the page
    queueMicrotask(() => { if (held === target && target.isConnected && document.activeElement !== target) held = null; });
  });
  // (`held` is gone with the stand-in by then: the first commit empties the root's element)
  return () => (held || before.some(typed)) && loadRefocus().then(({ refocus }) => refocus(held, before, controlsIn(el)));
}

// as a transition, React renders in slices and gives the main thread back between them: a phone stays
// responsive while the islands come in (Total Blocking Time again)
const show = (root, Island, props) => startTransition(() => root.render(<Island {...props} />));

async function render(el, Island, more = {}, then = undefined) {
  show(await rootFor(el, then), Island, { ...readProps(el), ...more });
}

const mount = async (registry, el) => render(el, await load(registry, el));

// data-island-lazy: an island below the fold or in a hidden tab whose server-rendered HTML works
// on its own (the footer's newsletter form, the review form) loads its code only when it comes
// near the viewport, so the first view does not pay for it (page budget, test_page_weight.py).
// A stand-in in use (Tab reached it as it came near, the shopper may be typing in it) is swapped once focus
// has left it: swapping under the keyboard would drop focus to the page's start.
function mountWhenNear(registry, nodes) {
  if (!nodes.length) return;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      load(registry, entry.target).then(async (Island) => {
        await focusLeft(entry.target);
        render(entry.target, Island);
      });
    }
  }, { rootMargin: "300px 0px" });
  nodes.forEach((el) => observer.observe(el));
}

const focusLeft = (el) => new Promise((resolve) => {
  if (!el.contains(document.activeElement)) return resolve();
  el.addEventListener("focusout", function left(event) {
    if (el.contains(event.relatedTarget)) return; // still inside: from the e-mail box to its button
    el.removeEventListener("focusout", left);
    resolve();
  });
});

// data-island-on-demand: an island whose server-rendered stand-in is only a button (the currency
// converter) loads its code when the shopper first reaches for it, and replaces the stand-in on the
// first tap, which is then replayed on the same control of the mounted island (lib/reach.js).
// Returns lib/reach.js's functions that load it and mount it at once.
function mountOnDemand(registry, el, stringsReady) {
  // done once the island is in (the keyboard's place is kept by the swap: keepFocus)
  const activate = (Island) => new Promise((resolve) => render(el, Island, { entered: enteredIn(el) }, resolve));
  return onFirstReach(el, () => stringsReady.then(() => load(registry, el)), () => Boolean(el.dataset.mounted), activate);
}

const controlsIn = (el) => [...el.querySelectorAll("a,button,input:not([type=hidden]),select,textarea")];

// what the shopper has entered in a stand-in's form before the island mounted ({name: value}: the
// shop's search box, a filter), for the island's `entered` prop
function enteredIn(el) {
  const form = el.querySelector("form");
  return form ? Object.fromEntries(new FormData(form)) : {};
}

const FIELD = "input:not([type=radio],[type=checkbox]),select,textarea";
const INTERACTIONS = ["pointerdown", "pointermove", "touchstart", "keydown", "wheel", "scroll"];

// data-island-on-interaction: an island whose server-rendered stand-in shows what the island first
// shows (Add to cart, the shop's filters, the product tabs) mounts at the shopper's first interaction
// with the page (a touch, a press, a key, a scroll, the pointer moving) instead of with the page: a
// phone's main thread stays free while the page loads (Lighthouse's Total Blocking Time, issue 14), and
// react-dom is usually running before the shopper reaches the island. A tap on the stand-in that comes
// first is replayed on the mounted island (mountOnDemand). Otherwise the swap waits, once the code is
// here, while a press on the stand-in is under way or one of its text fields or lists is in use: it would
// lose the click, close the list or the phone's keyboard. A list is done with once a choice is made in it
// (a phone's picker closes, and focus stays on the list): the island then mounts and applies the choice.
function mountOnInteraction(registry, el, stringsReady) {
  const island = mountOnDemand(registry, el, stringsReady);
  let pressing = false;
  // on the window, before `first`'s listener: a press on the stand-in is seen before it is tried
  window.addEventListener("pointerdown", (event) => { pressing = el.contains(event.target); }, true);
  for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, () => { pressing = false; }, true);
  const chosen = new WeakSet();
  el.addEventListener("change", (event) => { if (event.target.tagName === "SELECT") chosen.add(event.target); }, true);
  const inUse = () => {
    const field = document.activeElement;
    return pressing || (el.contains(field) && field.matches(FIELD) && !chosen.has(field));
  };
  const free = () => new Promise((resolve) => {
    const check = () => {
      if (inUse()) return;
      for (const type of ["focusout", "change"]) el.removeEventListener(type, later, true);
      window.removeEventListener("pointerup", later, true);
      resolve();
    };
    const later = () => setTimeout(check);
    for (const type of ["focusout", "change"]) el.addEventListener(type, later, true);
    window.addEventListener("pointerup", later, true);
    check();
  });
  const first = () => {
    for (const type of INTERACTIONS) window.removeEventListener(type, first, true);
    island.load().then(free).then(island.activate);
  };
  for (const type of INTERACTIONS) window.addEventListener(type, first, { capture: true, passive: true });
}

// data-island-on-event="<window event>": an island whose server-rendered HTML stays right until that
// event (the header's cart count, until the cart changes on this page) mounts at its first one, and is
// rendered again at every one with the event's detail over its props.
function mountOnEvent(registry, el, stringsReady) {
  let latest;
  let loading = false;
  let showLatest = null;
  window.addEventListener(el.dataset.islandOnEvent, async (event) => {
    latest = { ...readProps(el), ...event.detail };
    if (showLatest) return showLatest();
    if (loading) return; // it shows the newest detail once it is here
    loading = true;
    await stringsReady;
    const [Island, root] = await Promise.all([load(registry, el), rootFor(el)]);
    showLatest = () => show(root, Island, latest);
    return showLatest();
  });
}

export async function mountIslands(registry, root = document) {
  const nodes = [...root.querySelectorAll("[data-island]")].filter((el) => registry[el.dataset.island]);
  if (!nodes.length) return;
  const stringsReady = initI18n(document.documentElement.lang || "en");
  // before the strings are ready (i18next resolves a task later): a tap, a cart change or the first
  // interaction in between must not be lost
  nodes.filter((el) => "islandOnDemand" in el.dataset).forEach((el) => mountOnDemand(registry, el, stringsReady));
  nodes.filter((el) => "islandOnEvent" in el.dataset).forEach((el) => mountOnEvent(registry, el, stringsReady));
  nodes.filter((el) => "islandOnInteraction" in el.dataset).forEach((el) => mountOnInteraction(registry, el, stringsReady));
  await stringsReady;
  const waits = ["islandLazy", "islandOnDemand", "islandOnEvent", "islandOnInteraction"];
  const now = nodes.filter((el) => !waits.some((mode) => mode in el.dataset));
  await Promise.all(now.map((el) => mount(registry, el)));
  // after the eager islands have painted
  requestAnimationFrame(() => setTimeout(() => mountWhenNear(registry, nodes.filter((el) => "islandLazy" in el.dataset))));
}
