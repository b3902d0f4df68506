// The dashboard's shared strings (namespace "admin"), loaded once by any component.
import { addStrings, t } from "../../../lib/i18n.js";
import en from "../../../i18n/en/admin.json";
import ar from "../../../i18n/ar/admin.json";

addStrings("admin", { en, ar });

export const at = (key, options) => t(`admin:${key}`, options);

// Read a namespace's strings for one island: const st = sectionStrings("admin-products", en, ar).
export function sectionStrings(ns, enStrings, arStrings) {
  addStrings(ns, { en: enStrings, ar: arStrings });
  return (key, options) => t(`${ns}:${key}`, options);
}
