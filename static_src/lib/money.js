import { formatNumber } from "./digits.js";

// Display only: the server computes every amount; this writes it like shop/money.py.
export function formatEgp(amount, lang) {
  const n = Number(amount);
  const text = formatNumber(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return lang === "ar" ? `${text}\u00a0ج.م` : `E£${text}`;
}

export function formatKes(amount, lang) {
  const text = formatNumber(Math.round(Number(amount)));
  return lang === "ar" ? `${text}\u00a0شلن` : `KSh\u00a0${text}`;
}
