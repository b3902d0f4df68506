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

// `about`: what the message is about (data-about, e.g. a cart line), so that it can go when that thing goes.
// `echo`: the page already says it where the focus goes (a form's banner or field): the toast shows it to the eye
// (the spec's error toast) and is hidden from screen readers, which would hear it twice
export function toast(message, kind = "info", { about, echo } = {}) {
  const host = document.getElementById("toasts");
  if (!host) return;
  // on a phone the toast shows at the screen's top, as tall as the sticky header (main.css), which it covers once
  // the page is scrolled: at the bottom it hid the buttons under the thumb (Proceed to Checkout, Place order, the
  // Add to cart bar), below the header the page's top. The header's own height: an announcement above it scrolls away
  const header = document.querySelector(".site-header,.admin-header")?.offsetHeight;
  host.style.setProperty("--toasts-bar", `${header | 0}px`); // none: 0
  const el = document.createElement("div");
  el.className = `toast toast--${kind}`;
  el.textContent = message;
  if (about) el.dataset.about = about;
  const close = document.createElement("button"); // its × is drawn by CSS: the toast's text is the message
  close.className = "icon-button toast__close";
  close.ariaLabel = host.dataset.closeLabel;
  el.append(close);
  if (echo) { el.ariaHidden = "true"; close.tabIndex = -1; }
  host.replaceChildren(el); // one toast at a time
  // closed, or gone after 4.5 s but not while it is being read (main.css's animation)
  el.onanimationend = close.onclick = () => el.remove();
}
