// The mini-cart after Add to cart: a modal side sheet with the cart's lines, subtotal, the
// free-shipping nudge, View cart and Checkout. Loaded on the first add (not on page load), a
// native <dialog> keeps focus inside, closes with Escape and gives focus back to the button.
import { useEffect, useRef } from "react";
import { addStrings, currentLanguage, t } from "../lib/i18n.js";
import { formatEgp } from "../lib/money.js";
import { keepUnits } from "../lib/units.js";
// its own strings, so the cart and checkout pages do not carry them
import en from "../i18n/en/minicart.json";
import ar from "../i18n/ar/minicart.json";

addStrings("minicart", { en, ar });

export default function MiniCart({ cart, onClose, urls = {} }) {
  const dialog = useRef(null);
  const lang = currentLanguage();
  const money = (value) => formatEgp(value, lang);
  useEffect(() => {
    const sheet = dialog.current;
    if (!sheet.open) sheet.showModal();
    sheet.querySelector("h2").focus();
  }, [cart]);
  const close = () => dialog.current.close();
  const free = Number(cart.freeShippingRemaining) === 0;

  return (
    <dialog ref={dialog} className="mini-cart" aria-labelledby="mini-cart-title" onClose={onClose}
      onClick={(e) => e.target === dialog.current && close()}>
      <div className="mini-cart__head">
        <h2 id="mini-cart-title" tabIndex={-1}>{t("minicart:added")}</h2>
        <button type="button" className="icon-button" aria-label={t("minicart:close")} onClick={close}>×</button>
      </div>
      <ul className="mini-cart__lines">
        {cart.items.map((item) => (
          <li key={item.productId}>
            <span><bdi>{keepUnits(item.title)}</bdi> ×&nbsp;{item.quantity}</span><span className="price">{money(item.lineTotal)}</span>
          </li>
        ))}
      </ul>
      <p className="mini-cart__subtotal"><span>{t("minicart:subtotal")}</span><strong>{money(cart.subtotal)}</strong></p>
      <p className={`mini-cart__nudge${free ? " mini-cart__nudge--done" : ""}`}>
        {free ? t("minicart:freeShippingReached") : t("minicart:freeShippingHint", { amount: money(cart.freeShippingRemaining) })}
      </p>
      <a className="button button--gold button--block" href={urls.checkout}>{t("minicart:checkout")}</a>
      <a className="button button--ghost button--block" href={urls.cart}>{t("minicart:viewCart")}</a>
    </dialog>
  );
}
