// '1 KES = x EGP' and '1 EGP = y KES', refreshed every 30 minutes.
import { useEffect, useState } from "react";
import { addStrings, t } from "../lib/i18n.js";
import { fetchRate, formatRate, REFRESH_MS } from "./currency-rate.js";
import en from "../i18n/en/currency.json";
import ar from "../i18n/ar/currency.json";

addStrings("currency", { en, ar });
const tr = (key, opts) => t(key, { ns: "currency", ...opts });

export default function RateBadge({ rate: initial }) {
  const [rate, setRate] = useState(Number(initial) > 0 ? Number(initial) : null);
  useEffect(() => {
    const refresh = () => fetchRate().then(setRate, () => setRate(null));
    if (!rate) refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  if (!rate) return <span className="rate-badge rate-badge--error">{tr("unavailable")}</span>;
  return (
    <span className="rate-badge">
      <span>{tr("kesToEgp", { rate: formatRate(rate) })}</span>
      <span className="rate-badge__sep" aria-hidden="true">·</span>
      <span>{tr("egpToKes", { rate: formatRate(1 / rate, 2) })}</span>
    </span>
  );
}
