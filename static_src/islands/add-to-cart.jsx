// Quantity stepper (1..stock) and Add to cart. Line totals come from the server, one per quantity.
import { useRef, useState } from "react";
import { api, userMessage } from "../lib/api.js";
import { announceCart, toast } from "../lib/events.js";
import { addStrings, t } from "../lib/i18n.js";
import en from "../i18n/en/addtocart.json";
import ar from "../i18n/ar/addtocart.json";

addStrings("addtocart", { en, ar });
const tr = (key, opts) => t(key, { ns: "addtocart", ...opts });

export default function AddToCart({ productId, stock = 0, lineTotals = [] }) {
  const max = Math.max(0, Math.min(stock, lineTotals.length));
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  // the mini-cart sheet, fetched on the first add so the product page does not carry it
  const [sheet, setSheet] = useState(null);
  const button = useRef(null);
  const clamp = (n) => Math.min(Math.max(1, Number.isFinite(n) ? Math.trunc(n) : 1), Math.max(1, max));

  if (max < 1) {
    return <button type="button" className="button" disabled>{tr("outOfStock")}</button>;
  }

  const add = async () => {
    setBusy(true);
    try {
      const cart = await api("/api/cart/items", { method: "POST", body: { productId, quantity } });
      announceCart(cart);
      if (cart.notice) toast(cart.notice, "info");
      try {
        const { default: MiniCart } = await import("./mini-cart.jsx");
        setSheet({ MiniCart, cart });
      } catch {
        toast(tr("added"), "success"); // the sheet's chunk did not load: at least say it worked
      }
    } catch (error) {
      toast(userMessage(error, tr("failed")), "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="add-to-cart__row">
      <div className="stepper" role="group" aria-label={tr("quantity")}>
        <button type="button" aria-label={tr("decrease")} disabled={quantity <= 1} onClick={() => setQuantity(clamp(quantity - 1))}>−</button>
        <input type="number" inputMode="numeric" min={1} max={max} value={quantity} aria-label={tr("quantity")}
          onChange={(e) => setQuantity(clamp(parseInt(e.target.value, 10)))} />
        <button type="button" aria-label={tr("increase")} disabled={quantity >= max} onClick={() => setQuantity(clamp(quantity + 1))}>+</button>
      </div>
      <button ref={button} type="button" className="button add-to-cart__button" disabled={busy} onClick={add}>
        {busy ? tr("adding") : tr("addToCart")} · <span className="line-total">{lineTotals[quantity - 1]}</span>
      </button>
      {sheet && <sheet.MiniCart cart={sheet.cart} onClose={() => { setSheet(null); button.current?.focus(); }} />}
    </div>
  );
}
