// One digit rule (DECISIONS): Latin digits everywhere, in both languages. Eastern Arabic (٠-٩)
// and Persian (۰-۹) digits typed in any input are read as 0-9 by the server, once, where input
// enters (shop.middleware.TypedTextMiddleware, the JSON parser). The dashboard also turns
// them into 0-9 as staff type (initDigitInputs); the storefront, whose every byte counts
// against the page budget, does it only where an island reads a number itself (add-to-cart).

const EASTERN = /[\u0660-\u0669\u06f0-\u06f9]/g;

export const westernDigits = (text) => String(text).replace(EASTERN, (d) => (d.charCodeAt(0) - 1632) % 144 % 10);

export function initDigitInputs() {
  // capture: before any island reads the value; the native setter, so React's value tracker
  // sees the change and its onChange gets the Western digits. Passwords stay as typed.
  document.addEventListener("input", ({ target: t }) => {
    if (t.tagName !== "INPUT" || t.type === "password") return;
    const value = westernDigits(t.value);
    if (value !== t.value) Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(t, value);
  }, true);
}

// Numbers, dates and times are written with Latin digits in both languages: every island formats
// them through these helpers (dates and times: lib/store-day.js), never with toLocale*String or Intl
// directly (tests/test_text_rules_js.py fails on any other call). Arabic keeps its month and day names:
// "23 نوفمبر 2026، 10:05 ص".
export const LATIN = { numberingSystem: "latn" };

export const dateLocale = (lang) => (lang === "ar" ? "ar-EG-u-nu-latn" : "en-GB");

export const formatNumber = (value, options = {}) =>
  new Intl.NumberFormat("en-US", { ...options, ...LATIN }).format(Number(value));
