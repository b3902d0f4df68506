// A popover that converts KES↔EGP with the shop's current rate (display only, not a price).
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { addStrings, currentLanguage, t } from "../lib/i18n.js";
import { formatEgp, formatKes } from "../lib/money.js";
import { RATE_UPDATED } from "../lib/events.js";
import { formatRate, refreshRate } from "./currency-rate.js";
import en from "../i18n/en/currency.json";
import ar from "../i18n/ar/currency.json";

addStrings("currency", { en, ar });
const tr = (key, opts) => t(key, { ns: "currency", ...opts });

export default function CurrencyConverter({ rate: initial }) {
  const [open, setOpen] = useState(false);
  const [rate, setRate] = useState(Number(initial) > 0 ? Number(initial) : null);
  const [fromKes, setFromKes] = useState(true);
  const [amount, setAmount] = useState("100");
  const [busy, setBusy] = useState(false);
  const lang = currentLanguage();
  const panel = useRef(null);

  // the page's rate clock, and this panel's own Refresh, announce each new rate to every rate widget
  const refresh = async () => {
    setBusy(true);
    await refreshRate();
    setBusy(false);
  };
  useEffect(() => {
    const onRate = (event) => setRate(event.detail.rate);
    window.addEventListener(RATE_UPDATED, onRate);
    return () => window.removeEventListener(RATE_UPDATED, onRate);
  }, []);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e) => e.key === "Escape" && setOpen(false);
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  // Anchored to its button, the panel can overhang a narrow screen (left in English, right in
  // Arabic): slide it back inside the viewport, then scroll it into view.
  useLayoutEffect(() => {
    if (!open || !panel.current) return;
    const el = panel.current;
    el.style.setProperty("--shift", "0px");
    const box = el.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const gap = 8;
    const shift = box.left < gap ? gap - box.left : box.right > width - gap ? width - gap - box.right : 0;
    el.style.setProperty("--shift", `${shift}px`);
    el.scrollIntoView({ block: "nearest" });
  }, [open]);

  // the spec's rules: a missing, non-numeric or non-positive amount converts to 0
  const value = Number(String(amount).replace(/[٠-٩]/g, (d) => "٠١٢٣٤٥٦٧٨٩".indexOf(d)).replace(/,/g, ""));
  const valid = Number.isFinite(value) && value > 0;
  const result = !rate || !valid ? 0 : fromKes ? value * rate : value / rate;

  return (
    <div className="converter">
      {/* a phone shows the icon only (storefront.css); the name stays for screen readers */}
      <button type="button" className="button button--ghost button--small converter__toggle" aria-expanded={open}
        onClick={() => setOpen(!open)}>
        <span className="converter__icon" aria-hidden="true">⇄</span><span className="converter__label">{tr("converter")}</span>
      </button>
      {open && (
        <div ref={panel} className="converter__panel" role="dialog" aria-label={tr("converter")}>
          <div className="converter__head">
            <strong>{tr("converter")}</strong>
            <button type="button" className="icon-button" aria-label={tr("close")} onClick={() => setOpen(false)}>×</button>
          </div>
          <div className="field">
            <label htmlFor="converter-amount">{tr("from", { currency: tr(fromKes ? "kes" : "egp") })}</label>
            <input id="converter-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} dir="ltr" />
          </div>
          <div className="converter__actions">
            <button type="button" className="button button--small button--ghost" onClick={() => setFromKes(!fromKes)}>⇄ {tr("swap")}</button>
            <button type="button" className="button button--small button--ghost" disabled={busy} onClick={refresh}>{busy ? tr("refreshing") : tr("refresh")}</button>
          </div>
          <p className="converter__quick" aria-label={tr("quickAmounts")}>
            {[100, 500, 1000].map((n) => (
              <button type="button" key={n} className="chip" onClick={() => { setFromKes(true); setAmount(String(n)); }}>{formatKes(n, lang)}</button>
            ))}
          </p>
          <p className="converter__result" aria-live="polite">
            {tr("to", { currency: tr(fromKes ? "egp" : "kes") })}: <output>{fromKes ? formatEgp(result, lang) : formatKes(result, lang)}</output>
          </p>
          <p className="muted converter__rate">{rate ? tr("kesToEgp", { rate: formatRate(rate) }) : tr("unavailable")}</p>
        </div>
      )}
    </div>
  );
}
