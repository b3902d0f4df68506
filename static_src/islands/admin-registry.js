// Dashboard islands by name (see registry.js).
export const adminIslands = {};
