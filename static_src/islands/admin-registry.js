// Dashboard islands by name (see registry.js).
export const adminIslands = {
  "admin-external-products": () => import("./admin/external-products.jsx"),
};
