// One i18next instance for every island. Catalogues live in static_src/i18n/<lang>/<ns>.json;
// an island adds its namespace with addStrings(ns, {en, ar}) at import time.
import i18next from "i18next";
import commonEn from "../i18n/en/common.json";
import commonAr from "../i18n/ar/common.json";

let ready;

export function initI18n(lang) {
  ready ??= i18next.init({
    lng: lang === "ar" ? "ar" : "en",
    fallbackLng: "en",
    defaultNS: "common",
    ns: ["common"],
    resources: { en: { common: commonEn }, ar: { common: commonAr } },
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  return ready;
}

export function addStrings(ns, { en, ar }) {
  i18next.addResourceBundle("en", ns, en, true, true);
  i18next.addResourceBundle("ar", ns, ar, true, true);
}

// One language's catalogue, fetched by an island that loads only the page's language (checkout).
export function addLanguageStrings(ns, lang, strings) {
  i18next.addResourceBundle(lang, ns, strings, true, true);
}

export const t = (...args) => i18next.t(...args);
export const currentLanguage = () => i18next.language || document.documentElement.lang || "en";

