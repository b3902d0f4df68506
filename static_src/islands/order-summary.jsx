// Shared by the cart and checkout islands: the server's totals, shown as they are.
import { t, currentLanguage } from "../lib/i18n.js";
import { formatEgp } from "../lib/money.js";

// `urls.product` (shop.paths.island_urls) with the product's slug in place of the placeholder
export const productUrl = (urls, slug) => (urls.product || "").replace("__slug__", encodeURIComponent(slug));

export function OrderSummary({ cart, showHint = true }) {
  const lang = currentLanguage();
  const money = (v) => formatEgp(v, lang);
  const isZero = (v) => Number(v) === 0;
  return (
    <>
      <dl className="summary" data-testid="summary">
        <div className="summary__row"><dt>{t("cart:subtotal")}</dt><dd>{money(cart.subtotal)}</dd></div>
        {!isZero(cart.discount) && (
          <div className="summary__row summary__row--discount">
            <dt>{t("cart:discount", { code: cart.couponCode })}</dt><dd>{money(-cart.discount)}</dd>
          </div>
        )}
        <div className="summary__row">
          <dt>{t("cart:shipping")}</dt><dd>{isZero(cart.shipping) ? t("cart:free") : money(cart.shipping)}</dd>
        </div>
        {!isZero(cart.codFee) && (
          <div className="summary__row"><dt>{t("cart:codFee")}</dt><dd>{money(cart.codFee)}</dd></div>
        )}
        {cart.pricesIncludeTax ? (
          <div className="summary__row summary__row--note"><dt>{t("cart:includesVat", { amount: money(cart.tax) })}</dt></div>
        ) : (
          <div className="summary__row"><dt>{t("cart:vat")}</dt><dd>{money(cart.tax)}</dd></div>
        )}
        <div className="summary__row summary__row--total">
          <dt>{t("cart:total")}</dt><dd data-testid="summary-total">{money(cart.total)}</dd>
        </div>
      </dl>
      {cart.delivery && <p className="summary__hint" data-testid="delivery-estimate">{cart.delivery}</p>}
      {showHint && !isZero(cart.freeShippingRemaining) && (
        <p className="summary__hint">{t("cart:freeShippingHint", { amount: money(cart.freeShippingRemaining) })}</p>
      )}
    </>
  );
}
