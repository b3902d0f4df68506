// Arabic as good as English (issue 13): the small text rules the dashboard's islands share.
// Kept out of i18n.js so the storefront's shared chunk does not carry them.
import { currentLanguage } from "./i18n.js";

// Words joined for the page's language: "a, b" in English, "أ، ب" with the Arabic comma.
export const joinList = (items, lang = currentLanguage()) => items.filter(Boolean).join(lang === "ar" ? "، " : ", ");

// Typed text inside an attribute or a translated sentence (no <bdi> there): Unicode isolates keep
// its direction from pulling the punctuation around it ("?Do you sell…"). Isolates inside the text (an
// old row's) go, so it cannot close ours early and let an override inside it run on past it.
export const isolate = (text) => (text ? `\u2068${String(text).replace(/[\u2066-\u2069]/g, "")}\u2069` : "");

// An arrow that points "onwards" in the reading direction (arrows are not mirrored by bidi).
export const forwardArrow = () => (currentLanguage() === "ar" ? "←" : "→");

// The locale for dates and times: Arabic month names with Latin digits (the one digit rule).
export { dateLocale } from "./digits.js";
