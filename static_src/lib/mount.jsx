// Mount React islands into server-rendered pages.
import { createRoot } from "react-dom/client";
import { initI18n } from "./i18n.js";

function readProps(el) {
  if (el.dataset.propsId) {
    const script = document.getElementById(el.dataset.propsId);
    return script ? JSON.parse(script.textContent) : {};
  }
  return el.dataset.props ? JSON.parse(el.dataset.props) : {};
}

export async function mountIslands(registry, root = document) {
  const nodes = [...root.querySelectorAll("[data-island]")].filter((el) => registry[el.dataset.island]);
  if (!nodes.length) return;
  await initI18n(document.documentElement.lang || "en");
  await Promise.all(
    nodes.map(async (el) => {
      const module = await registry[el.dataset.island]();
      await module.ready; // an island may first fetch what it needs, e.g. its strings in this page's language only
      const Island = module.default;
      createRoot(el).render(<Island {...readProps(el)} />);
      el.dataset.mounted = "true";
    }),
  );
}
