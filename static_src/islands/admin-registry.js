// Dashboard islands by name: <div data-island="admin-<section>">. Each loads only where placed.
export const adminIslands = {
  "admin-login": () => import("./admin/login.jsx"),
  "admin-overview": () => import("./admin/overview.jsx"),
  "admin-products": () => import("./admin/products.jsx"),
  "admin-inventory": () => import("./admin/inventory.jsx"),
  "admin-users": () => import("./admin/customers.jsx"),
  "admin-settings": () => import("./admin/settings.jsx"),
  "admin-roles": () => import("./admin/roles.jsx"),
  "admin-storage": () => import("./admin/storage.jsx"),
  "admin-database": () => import("./admin/database.jsx"),
  // part B: orders, analytics, announcements, coupons, newsletter, messages, reviews (one line each)
  "admin-external-products": () => import("./admin/external-products.jsx"),
};
