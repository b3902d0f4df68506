// Storefront islands by name. Each loads only on pages that place it:
// <div data-island="name" data-props='{…}'> or data-props-id="json_script id".
export const storefrontIslands = {
  "cart-badge": () => import("./cart-badge.jsx"),
  cart: () => import("./cart.jsx"),
  checkout: () => import("./checkout.jsx"),
  "payment-return": () => import("./payment-return.jsx"),
};
