// Shop filters: keeps the URL in step (?category=&search=&price=&sort=&view=) and swaps in
// the server-rendered results for it, so a filtered URL can be shared, reloaded or crawled.
import { useCallback, useEffect, useRef, useState } from "react";
import { addStrings, t } from "../lib/i18n.js";
import { paintSwatches } from "../lib/chrome.js";
import en from "../i18n/en/shopfilters.json";
import ar from "../i18n/ar/shopfilters.json";

addStrings("shopfilters", { en, ar });
const tr = (key, opts) => t(key, { ns: "shopfilters", ...opts });

const KEYS = ["category", "search", "price", "sort", "view", "page"];
const DEFAULTS = { sort: "featured", view: "grid", page: "1" };

function toQuery(filters) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key];
    if (value && DEFAULTS[key] !== String(value)) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function fromSearch(search) {
  const params = new URLSearchParams(search);
  const filters = {};
  for (const key of KEYS) filters[key] = params.get(key) || "";
  return filters;
}

const PHONE = window.matchMedia("(max-width: 800px)");
// how many products match, as the server's results say (the fragment carries it)
const readTotal = () => Number(document.querySelector("#shop-results [data-total]")?.dataset.total || 0);

// the choices the shopper made in the server's form before the island mounted (lib/mount.jsx: `entered`),
// over the page's; the search box's text is kept but, like any unsent text, not applied
const CHOICES = ["category", "price", "sort"];
const chosenBefore = (initial, entered) => Object.fromEntries(CHOICES
  .filter((key) => key in entered && entered[key] !== (initial[key] || "")).map((key) => [key, entered[key]]));

export default function ShopFilters({ filters: initial, entered = {}, categories = [], prices = [], sorts = [], basePath = "/shop" }) {
  const [chosen] = useState(() => chosenBefore(initial, entered)); // once, at mount
  const [filters, setFilters] = useState({ ...initial, ...chosen, page: "" });
  const [search, setSearch] = useState(entered.search ?? initial.search ?? "");
  // phone: the filters live in a sheet (issue 12: in the page flow they pushed the results
  // ~900 px down and applied out of sight); desktop: the sidebar as before
  const [phone, setPhone] = useState(() => PHONE.matches);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [total, setTotal] = useState(readTotal);
  const request = useRef(0);
  const toggle = useRef(null);
  const sheet = useRef(null);

  const load = useCallback(async (next, { push = true } = {}) => {
    const results = document.getElementById("shop-results");
    const query = toQuery(next);
    if (push) history.pushState(null, "", basePath + query);
    const id = ++request.current;
    results?.setAttribute("aria-busy", "true");
    results?.setAttribute("data-loading-text", tr("loadingProducts"));
    try {
      const response = await fetch(basePath + query, { headers: { "X-Fragment": "results", Accept: "text/html" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const html = await response.text();
      if (id !== request.current || !results) return;
      results.innerHTML = html; // server-rendered, escaped by Django
      paintSwatches(results);
      setTotal(readTotal());
    } catch (error) {
      if (id !== request.current || !results) return;
      const box = document.createElement("div");
      box.className = "alert alert--error";
      box.setAttribute("role", "alert");
      const text = document.createElement("p");
      text.textContent = tr("unableToLoad");
      const retry = document.createElement("button");
      retry.type = "button";
      retry.className = "button button--small";
      retry.textContent = t("tryAgain");
      retry.addEventListener("click", () => load(next, { push: false }));
      box.append(text, retry);
      results.replaceChildren(box);
    } finally {
      if (id === request.current) results?.removeAttribute("aria-busy");
    }
  }, [basePath]);

  useEffect(() => {
    if (Object.keys(chosen).length) load(filters);
  }, []); // once, at mount

  const change = (patch) => {
    const next = { ...filters, page: "", ...patch };
    setFilters(next);
    load(next);
  };

  useEffect(() => {
    const onPop = () => {
      const next = fromSearch(location.search);
      setFilters(next);
      setSearch(next.search);
      load(next, { push: false });
    };
    // links inside the results (chips, Clear all, view toggle, pages) go through the island
    const onClick = (event) => {
      const link = event.target.closest?.("#shop-results a[data-shop-link]");
      if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      const next = fromSearch(new URL(link.href).search);
      setFilters(next);
      setSearch(next.search);
      load(next);
    };
    window.addEventListener("popstate", onPop);
    document.addEventListener("click", onClick);
    return () => {
      window.removeEventListener("popstate", onPop);
      document.removeEventListener("click", onClick);
    };
  }, [load]);

  useEffect(() => {
    const onChange = () => setPhone(PHONE.matches);
    PHONE.addEventListener("change", onChange);
    return () => PHONE.removeEventListener("change", onChange);
  }, []);

  const modal = phone && sheetOpen;
  useEffect(() => {
    if (!modal) return undefined;
    document.documentElement.classList.add("has-sheet"); // the page behind does not scroll
    sheet.current?.focus();
    const onKey = (event) => {
      if (event.key === "Escape") closeSheet();
      if (event.key !== "Tab" || !sheet.current) return;
      // keep Tab inside the open sheet
      const items = [...sheet.current.querySelectorAll("button, input:not([disabled]), select")];
      const first = items[0];
      const last = items[items.length - 1];
      const inside = sheet.current.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && (document.activeElement === last || !inside)) { event.preventDefault(); first.focus(); }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.documentElement.classList.remove("has-sheet");
      document.removeEventListener("keydown", onKey);
    };
  }, [modal]);

  function closeSheet({ toResults = false } = {}) {
    setSheetOpen(false);
    if (toResults) document.getElementById("shop-results")?.scrollIntoView({ block: "start" });
    setTimeout(() => toggle.current?.focus({ preventScroll: toResults }), 0);
  }

  const active = (filters.category ? 1 : 0) + (filters.price ? 1 : 0);

  return (
    <div className="shop-filters">
      <form
        className="shop-filters__search"
        onSubmit={(event) => {
          event.preventDefault();
          change({ search: search.trim() });
        }}
      >
        <label htmlFor="shop-search">{tr("search")}</label>
        <div className="search-row">
          <input id="shop-search" className="input" type="search" name="search" value={search} maxLength={100}
            placeholder={tr("searchPlaceholder")} onChange={(e) => setSearch(e.target.value)} />
          <button type="submit" className="button button--small">{tr("searchButton")}</button>
        </div>
      </form>
      <div className={`shop-filters__bar${active > 0 ? " shop-filters__bar--filtered" : ""}`}>
        <button type="button" ref={toggle} className="button button--ghost shop-filters__toggle" aria-haspopup="dialog"
          aria-expanded={modal} aria-controls="shop-filter-sheet" onClick={() => setSheetOpen(true)}>
          {tr("filters")}{active > 0 && <span className="shop-filters__active"> ({active})</span>}
        </button>
        <div className="field shop-filters__sort">
          <label htmlFor="shop-sort">{tr("sortBy")}</label>
          <select id="shop-sort" value={filters.sort || "featured"} onChange={(e) => change({ sort: e.target.value })}>
            {sorts.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </div>
      </div>
      {modal && <div className="filter-sheet__backdrop" onClick={() => closeSheet()} />}
      <div id="shop-filter-sheet" ref={sheet} tabIndex={-1} className={`filter-sheet${modal ? " is-open" : ""}`}
        {...(modal ? { role: "dialog", "aria-modal": "true", "aria-labelledby": "shop-filter-title" } : {})}>
        <div className="filter-sheet__head">
          <h2 id="shop-filter-title">{tr("filters")}</h2>
          <button type="button" className="button button--ghost button--small filter-sheet__close"
            aria-label={tr("closeFilters")} onClick={() => closeSheet()}>×</button>
        </div>
        <div className="filter-sheet__body">
          <fieldset className="filter-group">
            <legend>{tr("categories")}</legend>
            <label className="radio">
              <input type="radio" name="category" checked={!filters.category} onChange={() => change({ category: "" })} /> {tr("all")}
            </label>
            {categories.map((c) => (
              <label className="radio" key={c.slug}>
                <input type="radio" name="category" value={c.slug} checked={filters.category === c.slug}
                  onChange={() => change({ category: c.slug })} /> {c.name} <span className="count">({c.count})</span>
              </label>
            ))}
          </fieldset>
          <fieldset className="filter-group">
            <legend>{tr("price")}</legend>
            <label className="radio">
              <input type="radio" name="price" checked={!filters.price} onChange={() => change({ price: "" })} /> {tr("anyPrice")}
            </label>
            {prices.map((p) => (
              <label className="radio" key={p.value}>
                <input type="radio" name="price" value={p.value} checked={filters.price === p.value}
                  onChange={() => change({ price: p.value })} /> {p.label}
              </label>
            ))}
          </fieldset>
          <fieldset className="filter-group">
            <legend>{tr("brand")}</legend>
            <label className="radio"><input type="checkbox" checked disabled readOnly /> {tr("brandKerichoGold")}</label>
          </fieldset>
        </div>
        <div className="filter-sheet__foot">
          <button type="button" className="button button--gold button--block" data-testid="show-results"
            onClick={() => closeSheet({ toResults: true })}>
            {tr("showResults", { count: total })}
          </button>
        </div>
      </div>
    </div>
  );
}
