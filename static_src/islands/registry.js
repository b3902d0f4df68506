// Storefront islands by name. Each loads only on pages that place it:
// <div data-island="name" data-props='{…}'> or data-props-id="json_script id".
export const storefrontIslands = {
  "cart-badge": () => import("./cart-badge.jsx"),
  "shop-filters": () => import("./shop-filters.jsx"),
  "add-to-cart": () => import("./add-to-cart.jsx"),
  "review-form": () => import("./review-form.jsx"),
  "rate-badge": () => import("./rate-badge.jsx"),
  "currency-converter": () => import("./currency-converter.jsx"),
  "newsletter-form": () => import("./newsletter-form.jsx"),
  "product-tabs": () => import("./product-tabs.jsx"),
  cart: () => import("./cart.jsx"),
  checkout: () => import("./checkout.jsx"),
  "payment-return": () => import("./payment-return.jsx"),
};
