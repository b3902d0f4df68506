// A stylesheet for a part most visits never open (the lightbox, the mini-cart sheet), loaded the
// first time it is needed so the page's first view does not pay for it (test_page_weight.py).
// The server names the hashed file (Django's manifest storage); resolves once its rules apply.
const loading = new Map();

export function loadStylesheet(href) {
  if (!href) return Promise.resolve();
  if (!loading.has(href)) {
    loading.set(href, new Promise((resolve) => {
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve); // unstyled beats never opening
      document.head.append(link);
    }));
  }
  return loading.get(href);
}
