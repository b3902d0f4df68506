// Overview: stat cards, paid-cancelled-order, low-stock, unread-message and failed e-mail alerts, system status,
// recent activity.
import { useState } from "react";
import { Section, StatCard, api, userMessage, formatDateTime, sectionStrings, toast, useAdminData } from "./components/index.js";
import { formatEgp } from "../../lib/money.js";
import en from "../../i18n/en/admin-overview.json";
import ar from "../../i18n/ar/admin-overview.json";

const st = sectionStrings("admin-overview", en, ar);

function Status({ ok, children }) {
  return <span className={`admin-status${ok === null ? " admin-status--unknown" : ok ? "" : " admin-status--down"}`}>{children}</span>;
}

function link(path, language) {
  return language === "ar" ? `/ar${path}` : path;
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
                {[st("emailAttempts", { count: e.attempts }), e.lastAttemptAt && formatDateTime(e.lastAttemptAt), e.lastError]
                  .filter(Boolean).join(" · ")}
              </span>
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

export default function Overview({ language }) {
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
        <StatCard label={st("lowStock")} value={data.lowStockProducts} tone={data.lowStockProducts ? "danger" : "neutral"} />
        <StatCard label={st("unreadMessages")} value={data.unreadMessages} tone={data.unreadMessages ? "warning" : "neutral"} />
        {data.failedEmails !== undefined && (
          <StatCard label={st("failedEmails")} value={data.failedEmails} tone={data.failedEmails ? "danger" : "neutral"} />
        )}
      </div>

      {(data.attentionOrders > 0 || data.lowStockProducts > 0 || data.unreadMessages > 0 || data.failedEmails > 0) && (
        <div className="admin-alerts">
          {data.attentionOrders > 0 && (
            <div className="alert alert--error" role="alert" data-alert="attention">
              <strong>{st("attentionAlert", { count: data.attentionOrders })}</strong>{" "}
              <a href={link("/admindash/orders", language)}>{st("openOrders")}</a>
            </div>
          )}
          {data.lowStockProducts > 0 && (
            <div className="alert alert--error" role="alert" data-alert="low-stock">
              <strong>{st("lowStockAlert", { count: data.lowStockProducts })}</strong>{" "}
              {data.lowStockList.map((p) => `${p.title} (${p.stock})`).join(", ")}{" "}
              <a href={link("/admindash/inventory", language)}>{st("openInventory")}</a>
            </div>
          )}
          {data.unreadMessages > 0 && (
            <div className="alert alert--info" role="status" data-alert="unread">
              <strong>{st("unreadAlert", { count: data.unreadMessages })}</strong>{" "}
              <a href={link("/admindash/messages", language)}>{st("openMessages")}</a>
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

      <div className="admin-grid-2">
        <Section title={st("systemStatus")}>
          <ul className="admin-list">
            <li><span>{st("database")}</span><Status ok={sys.database?.ok}>{sys.database?.ok ? st("ok") : st("down")}</Status></li>
            <li><span>{st("broker")}</span><Status ok={sys.broker?.ok}>{sys.broker?.ok ? st("ok") : st("down")} · {sys.broker?.kind}</Status></li>
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
                {`1 KES = ${sys.exchangeRate?.rate} EGP · `}
                {sys.exchangeRate?.isFallback ? st("rateFallback") : formatDateTime(sys.exchangeRate?.lastUpdated)}
                {sys.exchangeRate?.lastError ? ` · ${sys.exchangeRate.lastError}` : ""}
              </Status>
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
                    {a.details && <span className="admin-muted"> · {a.details}</span>}
                    <br />
                    <span className="admin-muted">{a.actor}</span>
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
    </div>
  );
}
