// Islands talk through window events: the cart announces its new state, the rate clock each new rate.
export const CART_UPDATED = "shop:cart-updated";
export const RATE_UPDATED = "shop:rate-updated";

export function announceCart(cart) {
  window.dispatchEvent(new CustomEvent(CART_UPDATED, { detail: cart }));
}

// `rate`: KES→EGP, or null when the rate service could not say
export function announceRate(rate) {
  window.dispatchEvent(new CustomEvent(RATE_UPDATED, { detail: { rate } }));
}

// `about`: what the message is about (data-about, e.g. a cart line), so that it can go when that thing goes
export function toast(message, kind = "info", { about } = {}) {
  const host = document.getElementById("toasts");
  if (!host) return;
  host.replaceChildren(); // one toast at a time
  const el = document.createElement("div");
  el.className = `toast toast--${kind}`;
  el.textContent = message;
  if (about) el.dataset.about = about;
  host.append(el);
  setTimeout(() => el.remove(), 4500);
}
