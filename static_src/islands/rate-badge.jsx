// '1 KES = x EGP' and '1 EGP = y KES'. The server writes the page's rate; the island mounts at the
// first new rate from the page's clock (currency-rate.js, every 30 minutes) and shows each one.
import { addStrings, t } from "../lib/i18n.js";
import { formatRate } from "./currency-rate.js";
import en from "../i18n/en/currency.json";
import ar from "../i18n/ar/currency.json";

addStrings("currency", { en, ar });
const tr = (key, opts) => t(key, { ns: "currency", ...opts });

export default function RateBadge({ rate }) {
  if (!(Number(rate) > 0)) return <span className="rate-badge rate-badge--error">{tr("unavailable")}</span>;
  return (
    <span className="rate-badge">
      <span>{tr("kesToEgp", { rate: formatRate(Number(rate)) })}</span>
      <span className="rate-badge__sep" aria-hidden="true">·</span>
      <span>{tr("egpToKes", { rate: formatRate(1 / Number(rate), 2) })}</span>
    </span>
  );
}
