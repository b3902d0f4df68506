// The store's clock, for the dashboard: its dates, times and calendar days. A module of its own, so the
// storefront's shared chunk (lib/digits.js, on every page), which shows no date, does not carry it
// (tests/browser/test_page_weight.py).
import { dateLocale, LATIN } from "./digits.js";

export const asDate = (value) => (value instanceof Date ? value : new Date(value));

// Every date and time an island shows or starts a form from is in the store's zone, whatever zone the
// browser is in, so staff abroad see the same day as analytics, exports and e-mails. The dashboard names
// the store's `timezone` setting on <html data-store-zone> (shop.store_time, which names only a zone it
// knows); a page that names none keeps the server's, Africa/Cairo. Egypt keeps summer time again since
// 2023: Intl knows it.
export const STORE_TIME_ZONE = globalThis.document?.documentElement.dataset.storeZone || "Africa/Cairo";
const STORE_ZONE = { timeZone: STORE_TIME_ZONE };

export const formatDate = (value, lang, options = {}) =>
  new Intl.DateTimeFormat(dateLocale(lang), { ...options, ...STORE_ZONE, ...LATIN }).format(asDate(value));

// A time alone; without options, hours, minutes and seconds like toLocaleTimeString.
export const formatTime = (value, lang, options = { hour: "numeric", minute: "2-digit", second: "2-digit" }) =>
  formatDate(value, lang, options);

// "YYYY-MM-DD": the day `value` (default now) falls on in the store's zone, as a date input wants it.
export const storeDay = (value = new Date()) => {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit",
    day: "2-digit", ...STORE_ZONE, ...LATIN }).formatToParts(asDate(value)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
};

// A calendar day `days` after the "YYYY-MM-DD" `day` (counted in UTC: a day has no zone, no DST gap).
export const addDays = (day, days) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};
