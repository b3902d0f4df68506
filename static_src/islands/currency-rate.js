// The KES→EGP rate shared by the badge and the converter: first from the page, then the API every 30 minutes.
import { api } from "../lib/api.js";
import { formatNumber } from "../lib/digits.js";
import { announceRate } from "../lib/events.js";

export const REFRESH_MS = 30 * 60 * 1000;

export async function fetchRate() {
  const body = await api("/api/exchange-rate/kes-to-egp");
  const rate = Number(body.rate);
  if (!(rate > 0)) throw new Error("bad rate");
  return rate;
}

// a new rate for every rate widget on the page (null: the service could not say)
export async function refreshRate() {
  const rate = await fetchRate().catch(() => null);
  announceRate(rate);
  return rate;
}

// The page's rate clock, without React: a new rate every 30 minutes, and one at once when the page came
// without a rate. The badge mounts at the first (data-island-on-event), the converter follows them all.
export function startRateClock(pageRate) {
  if (!(Number(pageRate) > 0)) refreshRate();
  setInterval(refreshRate, REFRESH_MS);
}

export function formatRate(value, places = 4) {
  return formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: places });
}
