import { formatNumber } from "./digits.js";

// Display only: the server computes every amount; this writes it like shop/money.py.
export function formatEgp(amount, lang) {
  const n = Number(amount);
  const text = formatNumber(Math.abs(n), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // below zero (a discount) the minus stays left of its digits in Arabic too: a left-to-right mark holds it
  const minus = n < 0 ? "\u200e-" : "";
  return lang === "ar" ? `${minus}${text}\u00a0ج.م` : `${minus}E£${text}`;
}

export function formatKes(amount, lang) {
  const text = formatNumber(Math.round(Number(amount)));
  return lang === "ar" ? `${text}\u00a0شلن` : `KSh\u00a0${text}`;
}
