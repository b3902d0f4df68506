// Display only: the server computes every amount; this writes it like shop/money.py.
export function formatEgp(amount, lang) {
  const n = Number(amount);
  const text = n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return lang === "ar" ? `${text}\u00a0ج.م` : `E£${text}`;
}

export function formatKes(amount, lang) {
  const text = Math.round(Number(amount)).toLocaleString("en-US");
  return lang === "ar" ? `${text}\u00a0شلن` : `KSh\u00a0${text}`;
}
