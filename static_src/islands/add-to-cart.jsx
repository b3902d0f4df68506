// Quantity stepper (1..stock) and Add to cart. Line totals come from the server, one per quantity.
import { useEffect, useRef, useState } from "react";
import { api, userMessage } from "../lib/api.js";
import { announceCart, toast } from "../lib/events.js";
import { loadStylesheet } from "../lib/styles.js";
import { addStrings, t } from "../lib/i18n.js";
import { westernDigits } from "../lib/digits.js";
import en from "../i18n/en/addtocart.json";
import ar from "../i18n/ar/addtocart.json";

addStrings("addtocart", { en, ar });
const tr = (key, opts) => t(key, { ns: "addtocart", ...opts });

export default function AddToCart({ productId, stock = 0, lineTotals = [], title = "", price = "", urls = {}, sheetStyles = "" }) {
  const max = Math.max(0, Math.min(stock, lineTotals.length));
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  // the mini-cart sheet, fetched on the first add so the product page does not carry it
  const [sheet, setSheet] = useState(null);
  const button = useRef(null);
  const opener = useRef(null); // the button that opened the sheet gets focus back
  // phone: a sticky bar while the main button is out of view (issue 12: price and Add to cart
  // sat below the fold); CSS shows it only on narrow screens
  const [barShown, setBarShown] = useState(false);
  useEffect(() => {
    if (!button.current || !("IntersectionObserver" in window)) return undefined;
    const observer = new IntersectionObserver(([entry]) => setBarShown(!entry.isIntersecting));
    observer.observe(button.current);
    return () => observer.disconnect();
  }, [max]);
  const clamp = (n) => Math.min(Math.max(1, Number.isFinite(n) ? Math.trunc(n) : 1), Math.max(1, max));

  if (max < 1) {
    return <button type="button" className="button" disabled>{tr("outOfStock")}</button>;
  }

  const add = async (event) => {
    opener.current = event?.currentTarget || button.current;
    setBusy(true);
    try {
      const cart = await api("/api/cart/items", { method: "POST", body: { productId, quantity } });
      announceCart(cart);
      if (cart.notice) toast(cart.notice, "info");
      try {
        const [{ default: MiniCart }] = await Promise.all([import("./mini-cart.jsx"), loadStylesheet(sheetStyles)]);
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
        <input type="text" inputMode="numeric" dir="ltr" value={quantity} aria-label={tr("quantity")}
          onChange={(e) => setQuantity(clamp(parseInt(westernDigits(e.target.value), 10)))} />
        <button type="button" aria-label={tr("increase")} disabled={quantity >= max} onClick={() => setQuantity(clamp(quantity + 1))}>+</button>
      </div>
      <button ref={button} type="button" className="button add-to-cart__button" disabled={busy} onClick={add}>
        {busy ? tr("adding") : tr("addToCart")} · <span className="line-total">{lineTotals[quantity - 1]}</span>
      </button>
      <div className={`sticky-atc${barShown ? " is-shown" : ""}`} data-testid="sticky-atc" inert={!barShown}>
        <div className="sticky-atc__text">
          <span className="sticky-atc__title">{title}</span>
          <span className="sticky-atc__price">{price}</span>
        </div>
        {/* what the tap adds: the quantity chosen above, at its total (the text beside shows the unit price) */}
        <button type="button" className="button button--gold sticky-atc__button" disabled={busy} onClick={add}>
          {busy ? tr("adding") : tr("addToCart")}
          {quantity > 1 && <> · <span className="line-total">{lineTotals[quantity - 1]}</span></>}
        </button>
      </div>
      {sheet && <sheet.MiniCart cart={sheet.cart} urls={urls} onClose={() => { setSheet(null); (opener.current || button.current)?.focus(); }} />}
    </div>
  );
}
