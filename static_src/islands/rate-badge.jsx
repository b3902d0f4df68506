// '1 KES = x EGP' and '1 EGP = y KES'. The server writes the page's rate; the island mounts at the
// first new rate from the page's clock (currency-rate.js, every 30 minutes) and shows each one.
import { addStrings, t } from "../lib/i18n.js";
import { formatRate } from "./currency-rate.js";
import en from "../i18n/en/currency.json";
import ar from "../i18n/ar/currency.json";

addStrings("currency", { en, ar });
const tr = (key, opts) => t(key, { ns: "currency", ...opts });

// each rate leads with its separator; the one of a rate that starts a line is clipped away (storefront.css),
// so no "·" is ever left alone at a line's end or start. The same markup as catalog/_currency_tools.html.
const separator = <span className="rate-badge__sep" aria-hidden="true">·</span>;

export default function RateBadge({ rate }) {
  if (!(Number(rate) > 0)) return <span className="rate-badge rate-badge--error">{tr("unavailable")}</span>;
  return (
    <span className="rate-badge">
      <span className="rate-badge__rates">
        <span className="rate-badge__rate">{separator}{tr("kesToEgp", { rate: formatRate(Number(rate)) })}</span>
        <span className="rate-badge__rate rate-badge__rate--back">{separator}{tr("egpToKes", { rate: formatRate(1 / Number(rate), 2) })}</span>
      </span>
    </span>
  );
}
