// An order number (NHT-261130-3A2311) is one word: it never breaks at its hyphens, and reads left to right
// inside an Arabic sentence.
export function OrderNumber({ number }) {
  return <bdi dir="ltr" className="admin-order-number">{number}</bdi>;
}

// A translated sentence naming an order, the number in it kept whole: withOrderNumber(st, "detailTitle", { number })
export function withOrderNumber(strings, key, { number, ...options }) {
  const [before, after = ""] = strings(key, { ...options, number: "\u0000" }).split("\u0000");
  return <>{before}<OrderNumber number={number} />{after}</>;
}
