// Dashboard islands by name: <div data-island="admin-<section>">. Each loads only where placed.
export const adminIslands = {
  "admin-login": () => import("./admin/login.jsx"),
  "admin-orders": () => import("./admin/orders.jsx"),
  "admin-analytics": () => import("./admin/analytics.jsx"),
  "admin-announcements": () => import("./admin/announcements.jsx"),
  "admin-coupons": () => import("./admin/coupons.jsx"),
  "admin-newsletter": () => import("./admin/newsletter.jsx"),
  "admin-messages": () => import("./admin/messages.jsx"),
  "admin-reviews": () => import("./admin/reviews.jsx"),
  "admin-external-products": () => import("./admin/external-products.jsx"),
};
