// Dashboard islands by name: <div data-island="admin-<section>">. Each loads only where placed.
export const adminIslands = {
  "admin-login": () => import("./admin/login.jsx"),
  // part B: orders, analytics, announcements, coupons, newsletter, messages, reviews
  "admin-external-products": () => import("./admin/external-products.jsx"),
};
