// Small layout pieces shared by sections: stat cards, panels, the no-permission note, dates.
import { at } from "./strings.js";
import { currentLanguage } from "../../../lib/i18n.js";
import { formatDate } from "../../../lib/store-day.js";

export function StatCard({ label, value, hint, tone = "neutral" }) {
  return (
    <div className={`admin-stat admin-stat--${tone}`}>
      <p className="admin-stat__label">{label}</p>
      {/* its length sizes it (admin.css): a six-figure amount fits a phone's card */}
      <p className="admin-stat__value" style={{ "--chars": String(value ?? "").length }}>{value}</p>
      {hint && <p className="admin-stat__hint">{hint}</p>}
    </div>
  );
}

export function Section({ title, actions, children, className = "" }) {
  return (
    <section className={`admin-panel ${className}`}>
      {(title || actions) && (
        <div className="admin-panel__head">
          {title && <h2>{title}</h2>}
          {actions && <div className="admin-panel__actions">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function Forbidden({ message }) {
  return (
    <p className="alert alert--error" role="alert">
      {message || at("forbidden")}
    </p>
  );
}

export function formatDateTime(value) {
  if (!value) return "";
  return formatDate(value, currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
}

// Spec 9: seconds under 60, minutes under an hour, else hours.
export function formatAge(seconds) {
  if (seconds == null) return at("never");
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return at("ageSeconds", { count: s });
  if (s < 3600) return at("ageMinutes", { count: Math.floor(s / 60) });
  return at("ageHours", { count: Math.floor(s / 3600) });
}
