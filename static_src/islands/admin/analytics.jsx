// Analytics section: a period's revenue, orders, average order value, status breakdown,
// top sellers, categories and the last 7 days of sales as inline SVG bars.
import { useState } from "react";
import { at, Section, sectionStrings, StatCard, useAdminData } from "./components/index.js";
import { formatEgp } from "../../lib/money.js";
import { currentLanguage } from "../../lib/i18n.js";
import { formatNumber } from "../../lib/digits.js";
import { formatDate } from "../../lib/store-day.js";
import en from "../../i18n/en/admin-analytics.json";
import ar from "../../i18n/ar/admin-analytics.json";

const st = sectionStrings("admin-analytics", en, ar);
const PERIODS = ["7d", "30d", "90d", "1y"];
const STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"];

const money = (amount) => formatEgp(amount, currentLanguage());
// Latin digits in both languages, like the money format (DECISIONS: "1,234.50 ج.م").
const count = (n) => formatNumber(n);

function dayParts(isoDate) {
  // a calendar day of the store's zone from the server; noon UTC is the same day there (UTC-11 to +11)
  const date = new Date(`${isoDate}T12:00:00Z`);
  return {
    weekday: formatDate(date, currentLanguage(), { weekday: "short" }),
    day: formatDate(date, currentLanguage(), { day: "numeric", month: "numeric" }),
  };
}

// Vertical bars, one per day, oldest at the reading start (left in English, right in Arabic).
export function SalesBars({ days }) {
  const rtl = currentLanguage() === "ar";
  // a narrow drawing, so its text stays readable when a phone scales it down
  const width = 420;
  const height = 240;
  const top = 26;
  const bottom = 52;
  const slot = width / days.length;
  const barWidth = Math.min(40, slot * 0.62);
  const max = Math.max(...days.map((d) => Number(d.revenue)), 0);
  const plot = height - top - bottom;
  return (
    <svg
      className="admin-b-bars"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={st("dailyChartLabel")}
      preserveAspectRatio="xMidYMid meet"
    >
      <line x1="0" x2={width} y1={height - bottom} y2={height - bottom} className="admin-b-bars__axis" />
      {days.map((day, i) => {
        const value = Number(day.revenue);
        const h = max > 0 ? Math.max(value > 0 ? 2 : 0, (value / max) * plot) : 0;
        const index = rtl ? days.length - 1 - i : i;
        const cx = slot * index + slot / 2;
        const label = dayParts(day.date);
        return (
          <g key={day.date} data-date={day.date}>
            <title>{`${label.weekday} ${label.day}: ${money(day.revenue)} · ${st("ordersCount", { count: day.orders })}`}</title>
            <rect
              x={cx - barWidth / 2}
              y={height - bottom - h}
              width={barWidth}
              height={h}
              rx="4"
              className="admin-b-bars__bar"
            />
            <text x={cx} y={height - bottom - h - 6} textAnchor="middle" className="admin-b-bars__value">
              {value > 0 ? count(Math.round(value)) : ""}
            </text>
            <text x={cx} y={height - bottom + 20} textAnchor="middle" className="admin-b-bars__label">
              {label.weekday}
            </text>
            <text x={cx} y={height - bottom + 40} textAnchor="middle" className="admin-b-bars__label">
              {label.day}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function StatusBreakdown({ breakdown }) {
  const total = STATUSES.reduce((sum, s) => sum + (breakdown[s] || 0), 0);
  return (
    <ul className="admin-b-breakdown">
      {STATUSES.map((status) => {
        const n = breakdown[status] || 0;
        const share = total ? (n / total) * 100 : 0;
        return (
          <li key={status}>
            <span className="admin-b-breakdown__label">{st(`status.${status}`)}</span>
            <span className="admin-b-breakdown__track" aria-hidden="true">
              <span className={`admin-b-breakdown__fill admin-b-breakdown__fill--${status}`} style={{ inlineSize: `${share}%` }} />
            </span>
            <span className="admin-b-breakdown__count">{count(n)}</span>
          </li>
        );
      })}
    </ul>
  );
}

// "Previous period: E£300.00 (+50.0%)"; no percentage when the previous period had nothing.
function comparison(previousValue, change) {
  if (change === null || change === undefined) return st("previousNoChange", { value: previousValue });
  const sign = Number(change) > 0 ? "+" : "";
  return st("previousHint", { value: previousValue, change: `${sign}${change}%` });
}

export default function AdminAnalytics() {
  const [period, setPeriod] = useState("30d");
  const { data, loading, error, reload } = useAdminData(`/api/admin/analytics?period=${period}`);
  const analytics = data?.data;

  const periodSelect = (
    <div className="admin-b-period-bar">
      <label className="admin-b-period">
        {st("period")}
        <select className="input" value={period} onChange={(e) => setPeriod(e.target.value)}>
          {PERIODS.map((p) => (
            <option key={p} value={p}>
              {st(`periods.${p}`)}
            </option>
          ))}
        </select>
      </label>
      <a className="button button--small button--ghost" href={`/api/admin/analytics/export?period=${period}`} download>
        {st("export")}
      </a>
    </div>
  );

  if (error && !analytics) {
    return (
      <Section actions={periodSelect}>
        <div className="alert alert--error" role="alert">
          <p>{st("loadFailed")}</p>
          <button type="button" className="button button--small" onClick={reload}>
            {st("retry")}
          </button>
        </div>
      </Section>
    );
  }
  if (!analytics) return <p className="admin-loading">{at("loading")}</p>;

  const { orders, products, previous, change } = analytics;
  return (
    <div className="admin-b-analytics" aria-busy={loading}>
      <Section title={st(`periodTitle.${period}`)} actions={periodSelect}>
        {error && <p className="alert alert--error">{st("loadFailed")}</p>}
        <div className="admin-stats">
          <StatCard
            label={st("revenue")}
            value={money(orders.revenueThisMonth)}
            hint={comparison(money(previous.revenue), change.revenue)}
          />
          <StatCard
            label={st("orders")}
            value={count(orders.ordersThisMonth)}
            hint={comparison(count(previous.orders), change.orders)}
          />
          <StatCard
            label={st("averageOrderValue")}
            value={money(orders.averageOrderValue)}
            hint={comparison(money(previous.averageOrderValue), change.averageOrderValue)}
          />
          <StatCard label={st("activeProducts")} value={count(products.totalProducts)} />
        </div>
        <p className="admin-muted">{st("countedNote")}</p>
      </Section>
      <Section title={st("last7Days")}>
        <SalesBars days={orders.dailyOrders} />
      </Section>
      <div className="admin-grid-2">
        <Section title={st("statusBreakdown")}>
          <StatusBreakdown breakdown={orders.statusBreakdown} />
        </Section>
        <Section title={st("topSellers")}>
          {products.topSellingProducts.length ? (
            <ol className="admin-b-top">
              {products.topSellingProducts.map((p) => (
                <li key={p.id}>
                  <strong>{p.title}</strong> <span className="admin-muted">· {p.categoryName}</span>
                  <div className="admin-b-top__figures">
                    {st("sold", { count: p.totalSold })} · {money(p.revenue)}
                  </div>
                </li>
              ))}
            </ol>
          ) : (
            <p className="admin-muted">{st("noSales")}</p>
          )}
          <p className="admin-muted" data-note="product-sales">{st("productSalesNote")}</p>
        </Section>
      </div>
      <Section title={st("categories")}>
        <div className="admin-table admin-table--cards">
          <div className="admin-table__scroll">
            <table aria-label={st("categories")}>
              <thead>
                <tr>
                  <th>{st("category")}</th>
                  <th>{st("products")}</th>
                  <th>{st("unitsSold")}</th>
                  <th>{st("salesAfterDiscounts")}</th>
                </tr>
              </thead>
              <tbody>
                {products.categoryBreakdown.map((c) => (
                  <tr key={c.slug}>
                    <td data-label={st("category")}>{c.name}</td>
                    <td data-label={st("products")}>{count(c.productCount)}</td>
                    <td data-label={st("unitsSold")}>{count(c.unitsSold)}</td>
                    <td data-label={st("salesAfterDiscounts")}>{money(c.revenue)}</td>
                  </tr>
                ))}
                {!products.categoryBreakdown.length && (
                  <tr>
                    <td colSpan={4} className="admin-table__empty">
                      {at("noResults")}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        </div>
        <p className="admin-muted">{st("productSalesNote")}</p>
      </Section>
    </div>
  );
}
