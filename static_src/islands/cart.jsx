// The cart page: quantity controls and remove over the server's cart; totals from the server.
import { useEffect, useRef, useState } from "react";
import { api, userMessage } from "../lib/api.js";
import { announceCart, toast } from "../lib/events.js";
import { addStrings, t, currentLanguage } from "../lib/i18n.js";
import { formatEgp } from "../lib/money.js";
import { safeUrl } from "../lib/safe-url.js";
import { keepUnits } from "../lib/units.js";
import { OrderSummary, productUrl } from "./order-summary.jsx";
import en from "../i18n/en/cart.json";
import ar from "../i18n/ar/cart.json";

addStrings("cart", { en, ar });

// what a message about one line is about (events.toast), so that it goes with the line
const lineTopic = (productId) => `cart-line:${productId}`;
// take away the messages about lines the cart no longer holds (here, not in events.js: only the cart page
// needs it, and every storefront page loads events.js)
function withdrawToastsAboutLinesNotIn(items) {
  const held = new Set(items.map((item) => lineTopic(item.productId)));
  for (const el of document.querySelectorAll('#toasts [data-about^="cart-line:"]')) {
    if (!held.has(el.dataset.about)) el.remove();
  }
}

export default function Cart({ cart: initial, governorates = [], text = {}, urls = {} }) {
  const [cart, setCart] = useState(initial);
  const [busy, setBusy] = useState(false);
  // the lines the last remove/clear took away, so one tap on Undo puts them back
  const [removed, setRemoved] = useState(null);
  // quantities tapped and not yet settled by the server, by product: a quick "+ +" adds two, as a shopper expects
  const [wanted, setWanted] = useState({});
  const quantityOf = (item) => wanted[item.productId] ?? item.quantity;
  const undoButton = useRef(null);
  const summaryHeading = useRef(null);
  const lang = currentLanguage();
  // a removed line takes its focused button with it: focus goes to Undo, not to the page's start
  useEffect(() => { if (removed) undoButton.current?.focus(); }, [removed]);
  // a message about a line ("at most 20 of one product") goes when its line does
  useEffect(() => withdrawToastsAboutLinesNotIn(cart.items), [cart]);

  // `about`: the line the change is about (its messages go with it), if one
  async function change(request, about) {
    if (busy) return false; // buttons stay focusable while a change is on its way (aria-disabled), so say no here
    setBusy(true);
    try {
      const next = await request();
      setCart(next);
      announceCart(next);
      if (next.notice) toast(next.notice, "info", { about });
      return true;
    } catch (err) {
      setWanted({}); // after a failed change nothing tapped is sent: the lines show the server's cart again
      toast(userMessage(err, err.kind === "timeout" ? t("requestTimedOut") : t("networkError")), "error", { about });
      return false;
    } finally {
      setBusy(false);
    }
  }
  // a tapped quantity shows at once; one change is sent at a time, and when it is back the line's latest tapped
  // quantity follows (the server's answer settles the line, also when it allowed fewer than asked)
  const setQuantity = (item, quantity) => setWanted((now) => ({ ...now, [item.productId]: quantity }));
  useEffect(() => {
    if (busy) return;
    const [productId, quantity] = Object.entries(wanted)[0] ?? [];
    if (productId === undefined) return;
    const line = cart.items.find((item) => String(item.productId) === productId);
    if (!line || line.quantity === quantity) {
      setWanted(({ [productId]: _settled, ...rest }) => rest);
      return;
    }
    change(async () => {
      const next = await api(`/api/cart/items/${productId}`, { method: "PATCH", body: { quantity } });
      setWanted(({ [productId]: latest, ...rest }) => (latest === quantity ? rest : { ...rest, [productId]: latest }));
      return next;
    }, lineTopic(productId));
  }, [busy, wanted, cart]);
  // each removed line keeps its place in the list (position), so Undo puts it back there, not last
  const placed = (item) => ({ ...item, position: cart.items.findIndex((each) => each.productId === item.productId) });
  const remove = async (item) => {
    const line = placed(item);
    if (await change(() => api(`/api/cart/items/${item.productId}`, { method: "DELETE" }), lineTopic(item.productId))) {
      setRemoved({ items: [line], message: t("cart:removed", { title: `\u2068${keepUnits(item.title)}\u2069` }) });
    }
  };
  const clear = async () => {
    const items = cart.items.map(placed);
    if (await change(() => api("/api/cart", { method: "DELETE" }))) setRemoved({ items, message: t("cart:cleared") });
  };
  const undo = async () => {
    const { items } = removed;
    const restored = await change(async () => {
      let next = null;
      for (const { productId, quantity, position } of items) {
        next = await api("/api/cart/items", { method: "POST", body: { productId, quantity, position } });
      }
      return next;
    });
    if (!restored) return;
    setRemoved(null);
    setTimeout(() => document.getElementById(`cart-line-${items[0].productId}`)?.focus(), 0); // back on the line
  };
  // "" takes the checkout's coupon off (as an empty code applied at checkout does); the server answers the totals
  const removeCoupon = async () => {
    if (await change(() => api("/api/cart/summary", { method: "POST", body: { couponCode: "" } }))) {
      toast(text.couponRemoved, "success");
      summaryHeading.current?.focus(); // its button is gone: focus stays in the summary
    }
  };
  const undoBar = removed && (
    <p className="cart-undo" role="status">
      <span>{removed.message}</span>
      <button type="button" className="button button--small button--ghost" ref={undoButton} aria-disabled={busy}
        onClick={undo}>{t("cart:undo")}</button>
    </p>
  );

  if (!cart.items.length) {
    return (
      <div className="empty-state">
        {undoBar}
        <p>{t("cart:empty")}</p>
        <a className="button" href={urls.shop}>{t("cart:continueShopping")}</a>
      </div>
    );
  }
  return (
    <div className="cart-layout" aria-busy={busy}>
      {undoBar}
      <ul className="cart-lines">
        {cart.items.map((item) => (
          <li className="cart-line" key={item.productId} data-testid="cart-line">
            {safeUrl(item.image) ? <img className="cart-line__image" src={safeUrl(item.image)} alt="" loading="lazy" /> : <span className="cart-line__image" />}
            <div className="cart-line__info">
              <a href={productUrl(urls, item.slug)} className="cart-line__title" dir="auto"
                id={`cart-line-${item.productId}`}>{keepUnits(item.title)}</a>
              <span className="cart-line__unit">{formatEgp(item.unitPrice, lang)}</span>
              {quantityOf(item) >= item.stock && (
                <span className="cart-line__unit" data-testid="stock-limit">{t("cart:onlyLeft", { count: item.stock })}</span>
              )}
            </div>
            {/* each control names its line (aria-describedby: the title), and stays focusable while busy */}
            <div className="qty" role="group" aria-label={t("cart:quantity")} aria-describedby={`cart-line-${item.productId}`}>
              <button type="button" className="qty__btn" aria-disabled={busy && quantityOf(item) <= 1}
                aria-label={t("cart:decrease")} aria-describedby={`cart-line-${item.productId}`}
                onClick={() => (quantityOf(item) > 1 ? setQuantity(item, quantityOf(item) - 1) : remove(item))}>−</button>
              <span className="qty__value" data-testid="qty">{quantityOf(item)}</span>
              <button type="button" className="qty__btn" aria-disabled={quantityOf(item) >= item.stock}
                aria-label={t("cart:increase")} aria-describedby={`cart-line-${item.productId}`}
                onClick={() => (quantityOf(item) < item.stock ? setQuantity(item, quantityOf(item) + 1) : null)}>+</button>
            </div>
            <span className="price cart-line__total">{formatEgp(item.lineTotal, lang)}</span>
            <button type="button" className="link-button cart-line__remove" aria-disabled={busy}
              aria-describedby={`cart-line-${item.productId}`} onClick={() => remove(item)}>
              {t("cart:remove")}
            </button>
          </li>
        ))}
        <li className="cart-lines__actions">
          <button type="button" className="link-button" aria-disabled={busy} onClick={clear}>{t("cart:clear")}</button>
        </li>
      </ul>
      <aside className="form-card cart-summary">
        <h2 ref={summaryHeading} tabIndex={-1}>{t("cart:orderSummary")}</h2>
        <div className="field">
          <label htmlFor="cart-governorate">{text.deliverTo}</label>
          <select id="cart-governorate" value={cart.governorate} disabled={busy}
            onChange={(e) => change(() => api("/api/cart/summary", { method: "POST", body: { governorate: e.target.value } }))}>
            <option value="">{text.chooseGovernorate}</option>
            {governorates.map((g) => <option key={g.value} value={g.value}>{g.name}</option>)}
          </select>
        </div>
        {/* the coupon applied at checkout shows here too (the server's totals), and can be taken off */}
        <OrderSummary cart={cart} />
        {Number(cart.discount) !== 0 && (
          <p><button type="button" className="link-button" aria-disabled={busy} onClick={removeCoupon}
            data-testid="remove-coupon">{text.removeCoupon}</button></p>
        )}
        <a className="button button--block" href={urls.checkout}>{t("cart:proceed")}</a>
        <a className="button button--ghost button--block" href={urls.shop}>{t("cart:continueShopping")}</a>
      </aside>
    </div>
  );
}
