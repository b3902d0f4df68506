// Mount React islands into server-rendered pages.
import { createRoot } from "react-dom/client";
import { initI18n } from "./i18n.js";
import { onFirstReach } from "./reach.js";

function readProps(el) {
  if (el.dataset.propsId) {
    const script = document.getElementById(el.dataset.propsId);
    return script ? JSON.parse(script.textContent) : {};
  }
  return el.dataset.props ? JSON.parse(el.dataset.props) : {};
}

// the island's component, once its code and what it first fetches (e.g. its strings in this page's
// language only) are here
async function load(registry, el) {
  const module = await registry[el.dataset.island]();
  await module.ready;
  return module.default;
}

function render(el, Island) {
  // data-mounted once React has put the island in (its first commit replaces the server's stand-in, which has
  // the same boxes for CLS 0 and does nothing when clicked), not when it was asked to render
  new MutationObserver(() => { el.dataset.mounted = "true"; }).observe(el, { childList: true });
  createRoot(el).render(<Island {...readProps(el)} />);
}

const mount = async (registry, el) => render(el, await load(registry, el));

// data-island-lazy: an island below the fold or in a hidden tab whose server-rendered HTML works
// on its own (the footer's newsletter form, the review form) loads its code only when it comes
// near the viewport, so the first view does not pay for it (page budget, test_page_weight.py).
function mountWhenNear(registry, nodes) {
  if (!nodes.length) return;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      mount(registry, entry.target);
    }
  }, { rootMargin: "300px 0px" });
  nodes.forEach((el) => observer.observe(el));
}

// data-island-on-demand: an island whose server-rendered stand-in is only a button (the currency
// converter) loads its code when the shopper first reaches for it, and replaces the stand-in on the
// first tap, which is then replayed on the same control of the mounted island (lib/reach.js).
function mountOnDemand(registry, el, stringsReady) {
  const mounted = () => new Promise((resolve) => {
    if (el.dataset.mounted) resolve();
    else new MutationObserver((_, observer) => { observer.disconnect(); resolve(); }).observe(el, { attributeFilter: ["data-mounted"] });
  });
  const activate = (Island) => { render(el, Island); return mounted(); };
  onFirstReach(el, () => stringsReady.then(() => load(registry, el)), () => Boolean(el.dataset.mounted), activate);
}

export async function mountIslands(registry, root = document) {
  const nodes = [...root.querySelectorAll("[data-island]")].filter((el) => registry[el.dataset.island]);
  if (!nodes.length) return;
  const stringsReady = initI18n(document.documentElement.lang || "en");
  // before the strings are ready (i18next resolves a task later): a tap in between must not be lost
  nodes.filter((el) => "islandOnDemand" in el.dataset).forEach((el) => mountOnDemand(registry, el, stringsReady));
  await stringsReady;
  const now = nodes.filter((el) => !("islandLazy" in el.dataset) && !("islandOnDemand" in el.dataset));
  await Promise.all(now.map((el) => mount(registry, el)));
  // after the eager islands have painted (the product tabs hide the panels they do not show)
  requestAnimationFrame(() => setTimeout(() => mountWhenNear(registry, nodes.filter((el) => "islandLazy" in el.dataset))));
}
