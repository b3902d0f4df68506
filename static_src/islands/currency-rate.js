// The KES→EGP rate shared by the badge and the converter: first from the page, then the API every 30 minutes.
import { api } from "../lib/api.js";
import { formatNumber } from "../lib/digits.js";

export const REFRESH_MS = 30 * 60 * 1000;

export async function fetchRate() {
  const body = await api("/api/exchange-rate/kes-to-egp");
  const rate = Number(body.rate);
  if (!(rate > 0)) throw new Error("bad rate");
  return rate;
}

export function formatRate(value, places = 4) {
  return formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: places });
}
