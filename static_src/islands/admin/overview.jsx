// Overview: stat cards, paid-cancelled-order, low-stock, unread-message, failed e-mail and failed job alerts,
// system status, recent activity, and the staff member's own daily summary switch.
import { useState } from "react";
import { Section, StatCard, Toggle, api, at, userMessage, formatDateTime, sectionStrings, toast, useAdminData } from "./components/index.js";
import { formatEgp } from "../../lib/money.js";
import { forwardArrow } from "../../lib/bidi.js";
import en from "../../i18n/en/admin-overview.json";
import ar from "../../i18n/ar/admin-overview.json";

const st = sectionStrings("admin-overview", en, ar);

function Status({ ok, children }) {
  return <span className={`admin-status${ok === null ? " admin-status--unknown" : ok ? "" : " admin-status--down"}`}>{children}</span>;
}

// An error in a program's or a server's own words, behind a "technical detail" the reader may open.
function ErrorDetail({ text }) {
  return (
    <details className="admin-detail">
      <summary>{st("errorDetail")}</summary>
      <code dir="ltr">{text}</code>
    </details>
  );
}

// One audit change in words: "VAT: 14% → 15%", "Cash on delivery: on → off".
function changeValue(field, value) {
  if (value === true) return st("value.on");
  if (value === false) return st("value.off");
  if (value === null || value === "") return st("value.empty");
  if (field === "tax_rate") return `${Number((Number(value) * 100).toFixed(2))}%`;
  return String(value);
}

// A key of a setting that holds several ("shipping_zones.Giza") without a label of its own is named
// after the setting: "Delivery by governorate (Giza)".
function changeLabel(field) {
  const [name, key] = field.split(".");
  const label = st(`fields.${field.replace(".", "__")}`, { defaultValue: "" });
  if (label || !key) return label || st(`fields.${name}`, { defaultValue: field });
  return `${st(`fields.${name}`, { defaultValue: name })} (${key})`;
}

function changeText(c) {
  const label = changeLabel(c.field);
  // a password, or a long text: that it changed, without the values (backoffice.audit)
  if (c.old === "" && c.new === "") return st("value.fieldChanged", { field: label });
  return `${label}: ${changeValue(c.field, c.old)} ${forwardArrow()} ${changeValue(c.field, c.new)}`;
}

// Shown only to roles the server sends the list to (Owner and Manager).
function FailedEmails({ emails, onRetried }) {
  const [busy, setBusy] = useState(null);
  async function retry(id) {
    setBusy(id);
    try {
      await api(`/api/admin/emails/${id}/retry`, { method: "POST", body: {} });
      toast(st("emailRetried"), "success");
      onRetried();
    } catch (err) {
      toast(userMessage(err, st("emailRetryFailed")), "error");
    } finally {
      setBusy(null);
    }
  }
  return (
    <Section title={st("failedEmailsTitle")}>
      <ul className="admin-list" data-list="failed-emails">
        {emails.map((e) => (
          <li key={e.id}>
            <span>
              <strong>{e.subject}</strong> · {e.to}
              <br />
              <span className="admin-muted">
                {[st("emailAttempts", { count: e.attempts }), e.lastAttemptAt && formatDateTime(e.lastAttemptAt), e.reason]
                  .filter(Boolean).join(" · ")}
              </span>
              {/* the mail server's own words: for whoever fixes it */}
              {e.lastError && !e.reason && <ErrorDetail text={e.lastError} />}
            </span>
            <button type="button" className="button button--small" disabled={busy === e.id} onClick={() => retry(e.id)}>
              {st("emailRetry")}
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

// Shown only to roles the server sends the list to (Owner and Manager): jobs that ended in an error.
function FailedJobs({ jobs }) {
  return (
    <Section title={st("failedJobsTitle")}>
      <ul className="admin-list" data-list="failed-jobs">
        {jobs.map((j) => (
          <li key={j.id}>
            <span>
              <strong>{j.label}</strong>
              {/* the job's name in the code and its error: for whoever fixes it, not worded for the reader */}
              <ErrorDetail text={`${j.task}${j.error ? `: ${j.error}` : ""}`} />
            </span>
            <time className="admin-muted" dateTime={j.failedAt}>{formatDateTime(j.failedAt)}</time>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function DailySummarySwitch({ enabled, onChanged }) {
  const [busy, setBusy] = useState(false);
  async function change(on) {
    setBusy(true);
    try {
      const answer = await api("/api/admin/me/daily-summary", { method: "PUT", body: { enabled: on } });
      toast(answer.enabled ? st("dailySummaryOn") : st("dailySummaryOff"), "success");
      onChanged();
    } catch (err) {
      toast(userMessage(err, st("dailySummaryFailed")), "error");
    } finally {
      setBusy(false);
    }
  }
  return (
    <Section title={st("myAlerts")}>
      <Toggle label={st("dailySummary")} checked={enabled} disabled={busy} onChange={change} />
      <p className="admin-muted">{st("dailySummaryHint")}</p>
    </Section>
  );
}

export default function Overview({ language, urls = {} }) {
  const { data, loading, reload } = useAdminData("/api/admin/dashboard");
  if (!data) return <p className="admin-loading">{loading ? st("loading") : st("loadFailed")}</p>;
  const sys = data.systemStatus || {};
  return (
    <div className="admin-overview">
      <div className="admin-stats">
        <StatCard label={st("totalProducts")} value={data.totalProducts} />
        <StatCard label={st("totalOrders")} value={data.totalOrders} />
        <StatCard label={st("pendingOrders")} value={data.pendingOrders} tone={data.pendingOrders ? "warning" : "neutral"} />
        <StatCard label={st("totalRevenue")} value={formatEgp(data.totalRevenue, language)} hint={st("revenueHint")} />
        <StatCard label={st("totalCustomers")} value={data.totalCustomers} />
        <StatCard label={st("lowStock")} value={data.lowStockProducts} hint={st("outOfStockHint", { count: data.outOfStockProducts })}
          tone={data.lowStockProducts || data.outOfStockProducts ? "danger" : "neutral"} />
        <StatCard label={st("unreadMessages")} value={data.unreadMessages} tone={data.unreadMessages ? "warning" : "neutral"} />
        {data.failedEmails !== undefined && (
          <StatCard label={st("failedEmails")} value={data.failedEmails} tone={data.failedEmails ? "danger" : "neutral"} />
        )}
        {data.failedJobs !== undefined && (
          <StatCard label={st("failedJobs")} value={data.failedJobs} hint={st("failedJobsHint")} tone={data.failedJobs ? "danger" : "neutral"} />
        )}
        <StatCard
          label={st("capturedOnCancelled")}
          value={formatEgp(data.capturedOnCancelled, language)}
          hint={st("capturedOnCancelledHint")}
          tone={Number(data.capturedOnCancelled) > 0 ? "danger" : "neutral"}
        />
      </div>

      {(data.attentionOrders > 0 || data.lowStockList.length > 0 || data.unreadMessages > 0 || data.failedEmails > 0) && (
        <div className="admin-alerts">
          {data.attentionOrders > 0 && (
            <div className="alert alert--error" role="alert" data-alert="attention">
              <strong>{st("attentionAlert", { count: data.attentionOrders })}</strong>{" "}
              <a href={`${urls.orders}?attention=1`}>{st("openOrders")}</a>
            </div>
          )}
          {data.lowStockList.length > 0 && (
            <div className="alert alert--error" role="alert" data-alert="low-stock">
              <strong>{st("lowStockAlert", { count: data.lowStockProducts + data.outOfStockProducts })}</strong>{" "}
              {data.lowStockList.map((p) => `${p.title} (${p.stock})`).join(", ")}{" "}
              <a href={urls.inventory}>{st("openInventory")}</a>
            </div>
          )}
          {data.unreadMessages > 0 && (
            <div className="alert alert--info" role="status" data-alert="unread">
              <strong>{st("unreadAlert", { count: data.unreadMessages })}</strong>{" "}
              <a href={urls.messages}>{st("openMessages")}</a>
            </div>
          )}
          {data.failedEmails > 0 && (
            <div className="alert alert--error" role="alert" data-alert="failed-emails">
              <strong>{st("failedEmailsAlert", { count: data.failedEmails })}</strong>
            </div>
          )}
        </div>
      )}

      {data.failedEmailList?.length > 0 && <FailedEmails emails={data.failedEmailList} onRetried={reload} />}
      {data.failedJobList?.length > 0 && <FailedJobs jobs={data.failedJobList} />}

      <div className="admin-grid-2">
        <Section title={st("systemStatus")}>
          <ul className="admin-list">
            <li><span>{st("database")}</span><Status ok={sys.database?.ok}>{sys.database?.ok ? st("ok") : st("down")}</Status></li>
            <li><span>{st("broker")}</span><Status ok={sys.broker?.ok}>{sys.broker?.ok ? st("ok") : st("down")} · {st(`brokerKind.${sys.broker?.kind}`, { defaultValue: sys.broker?.kind })}</Status></li>
            <li>
              <span>{st("worker")}</span>
              <Status ok={sys.worker?.ok}>
                {sys.worker?.ok ? st("ok") : st("notSeen")}
                {sys.worker?.lastSeen ? ` · ${formatDateTime(sys.worker.lastSeen)}` : ""}
              </Status>
            </li>
            <li>
              <span>{st("exchangeRate")}</span>
              <Status ok={sys.exchangeRate?.ok}>
                {`${at("rateKesEgp", { rate: sys.exchangeRate?.rate })} · `}
                {sys.exchangeRate?.isFallback ? st("rateFallback") : formatDateTime(sys.exchangeRate?.lastUpdated)}
                {sys.exchangeRate?.refusedRate
                  ? ` · ${st("rateRefused", { rate: sys.exchangeRate.refusedRate, percent: sys.exchangeRate.refusedPercent })}`
                  : sys.exchangeRate?.lastError ? ` · ${st("rateUpdateFailed")}` : ""}
              </Status>
              {!sys.exchangeRate?.refusedRate && sys.exchangeRate?.lastError && <ErrorDetail text={sys.exchangeRate.lastError} />}
            </li>
            <li>
              <span>{st("lastImport")}</span>
              <Status ok={sys.lastImport?.status ? sys.lastImport.status === "done" : null}>
                {sys.lastImport?.status
                  ? `${st(`runStatus.${sys.lastImport.status}`, { defaultValue: sys.lastImport.status })} · ${formatDateTime(sys.lastImport.finishedAt)}`
                  : st("never")}
              </Status>
            </li>
          </ul>
        </Section>
        <Section title={st("recentActivity")}>
          {data.recentActivity.length ? (
            <ul className="admin-list admin-activity">
              {data.recentActivity.map((a) => (
                <li key={a.id}>
                  <span>
                    <strong>{st(`actions.${a.action.replace(".", "_")}`, { defaultValue: a.action })}</strong>
                    {a.changes?.length ? (
                      <span className="admin-muted" data-changes> · {a.changes.map(changeText).join("; ")}</span>
                    ) : a.details && <span className="admin-muted"> · {a.details}</span>}
                    <br />
                    <span className="admin-muted"><bdi>{a.actor}</bdi></span>
                  </span>
                  <time className="admin-muted" dateTime={a.createdAt}>{formatDateTime(a.createdAt)}</time>
                </li>
              ))}
            </ul>
          ) : (
            <p className="admin-muted">{st("noActivity")}</p>
          )}
        </Section>
      </div>
      <DailySummarySwitch enabled={Boolean(data.dailySummary)} onChanged={reload} />
    </div>
  );
}
