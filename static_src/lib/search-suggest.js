// Header search suggestions (loaded on the first focus of the search box): products and
// categories from /api/search/suggest as the shopper types, from the second character.
// A combobox: arrows move through the options, Enter opens one, Escape closes the list.
const DEBOUNCE_MS = 120;
const MIN_CHARS = 2;

export function attach(form) {
  const input = form.querySelector("input[type=search]");
  const list = form.querySelector("[role=listbox]");
  if (!input || !list || form.dataset.suggestReady) return;
  form.dataset.suggestReady = "true";
  const text = form.dataset;
  if (text.listStyles) {
    const sheet = document.createElement("link");
    sheet.rel = "stylesheet";
    sheet.href = text.listStyles;
    document.head.append(sheet);
  }
  const lang = document.documentElement.lang === "ar" ? "ar" : "en";
  let timer = 0;
  let controller = null;
  let options = [];
  let active = -1;
  let shown = "";

  const setActive = (index) => {
    options.forEach((el, i) => el.setAttribute("aria-selected", String(i === index)));
    active = index;
    if (index >= 0) {
      input.setAttribute("aria-activedescendant", options[index].id);
      options[index].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    setActive(-1);
  };
  const open = () => {
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };

  function option(href, label, detail, kind) {
    const link = document.createElement("a");
    link.id = `site-search-option-${options.length}`;
    link.href = href;
    link.setAttribute("role", "option");
    link.setAttribute("aria-selected", "false");
    link.tabIndex = -1;
    link.className = `site-search__option site-search__option--${kind}`;
    const name = document.createElement("span");
    name.className = "site-search__name";
    name.textContent = label;
    link.append(name);
    if (detail) {
      const extra = document.createElement("bdi");
      extra.className = "site-search__detail";
      extra.textContent = detail;
      link.append(extra);
    }
    options.push(link);
    return link;
  }

  function group(label, items) {
    const box = document.createElement("div");
    box.setAttribute("role", "group");
    const heading = document.createElement("div");
    heading.className = "site-search__heading";
    heading.id = `site-search-${label.length}-${options.length}`;
    heading.textContent = label;
    box.setAttribute("aria-labelledby", heading.id);
    box.append(heading, ...items);
    return box;
  }

  function render(body, query) {
    options = [];
    const parts = [];
    if (body.products.length) {
      parts.push(group(text.labelProducts, body.products.map((p) => option(p.url, p.title, p.price, "product"))));
    }
    if (body.categories.length) {
      parts.push(group(text.labelCategories, body.categories.map((c) => option(c.url, c.title, "", "category"))));
    }
    if (!parts.length) {
      const none = document.createElement("p");
      none.className = "site-search__none";
      none.textContent = text.labelNone;
      parts.push(none);
    }
    parts.push(option(body.allUrl, text.labelAll.replace("{query}", query), "", "all"));
    list.replaceChildren(...parts);
    shown = query;
    setActive(-1);
    open();
  }

  async function update() {
    const query = input.value.trim();
    if (query.replace(/\s/g, "").length < MIN_CHARS) {
      controller?.abort();
      close();
      return;
    }
    if (query === shown && options.length) {
      open();
      return;
    }
    controller?.abort();
    controller = new AbortController();
    try {
      const url = `${text.suggestUrl}?q=${encodeURIComponent(query)}&lang=${lang}`;
      const answer = await fetch(url, { signal: controller.signal, headers: { Accept: "application/json" } });
      if (!answer.ok) return;
      const body = await answer.json();
      if (input.value.trim() === query) render(body, query);
    } catch {
      // aborted by newer typing, or offline: the form still submits to the shop search
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(update, DEBOUNCE_MS);
  });
  input.addEventListener("focus", update);
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (list.hidden) {
        update();
        return;
      }
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      let next = active + step; // -1 is the text box itself
      if (next >= options.length) next = -1;
      if (next < -1) next = options.length - 1;
      setActive(next);
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      window.location.assign(options[active].href);
    } else if (event.key === "Escape" && !list.hidden) {
      event.preventDefault();
      close();
    }
  });
  document.addEventListener("click", (event) => {
    if (!form.contains(event.target)) close();
  });
  update();
}
