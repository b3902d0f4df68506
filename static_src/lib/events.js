// Islands talk through window events: the cart announces its new state.
export const CART_UPDATED = "shop:cart-updated";

export function announceCart(cart) {
  window.dispatchEvent(new CustomEvent(CART_UPDATED, { detail: cart }));
}

export function toast(message, kind = "info") {
  const host = document.getElementById("toasts");
  if (!host) return;
  host.replaceChildren(); // one toast at a time
  const el = document.createElement("div");
  el.className = `toast toast--${kind}`;
  el.textContent = message;
  host.append(el);
  setTimeout(() => el.remove(), 4500);
}
