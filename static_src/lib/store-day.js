// The store's calendar days (lib/digits.js STORE_TIME_ZONE) for the dashboard's date inputs: a module of its own, so the storefront's shared
// chunk (lib/digits.js, on every page) does not carry them (tests/browser/test_page_weight.py).
import { asDate, STORE_ZONE, LATIN } from "./digits.js";

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
