// Storage management (Owner): cache status per table, refresh, clear, enable/disable, interval.
import { useState } from "react";
import { Badge, Section, Toggle, api, at, formatAge, sectionStrings, toast, useAdminData } from "./components/index.js";
import en from "../../i18n/en/admin-storage.json";
import ar from "../../i18n/ar/admin-storage.json";

const st = sectionStrings("admin-storage", en, ar);

export default function Storage() {
  const { data, setData, loading } = useAdminData("/api/admin/storage/status", {
    onError: () => toast(st("fetchFailed"), "error"),
  });
  const [busy, setBusy] = useState("");

  const run = async (kind, request, failure, success) => {
    setBusy(kind);
    try {
      setData(await request());
      if (success) toast(success, "success");
    } catch {
      toast(failure, "error");
    } finally {
      setBusy("");
    }
  };
  const configure = (enabled, refreshInterval) =>
    run("config", () => api("/api/admin/storage/config", { method: "PUT", body: { enabled, refreshInterval } }), st("configFailed"), st("configSaved"));

  if (!data) return <p className="admin-loading">{loading ? at("loading") : st("fetchFailed")}</p>;
  return (
    <div className="admin-content__stack">
      <Section title={st("configuration")}>
        <div className="admin-inline admin-storage__config">
          <Toggle label={st("enabled")} checked={data.enabled} disabled={!!busy} onChange={(v) => configure(v, data.refreshInterval)} />
          <label className="admin-inline">
            {st("interval")}
            <select className="input" value={data.refreshInterval} disabled={!!busy} onChange={(e) => configure(data.enabled, Number(e.target.value))} name="refreshInterval">
              {data.intervals.map((n) => <option key={n} value={n}>{st("minutes", { count: n })}</option>)}
            </select>
          </label>
          <span className="admin-muted">{st("database")}: {data.databaseAvailable ? st("available") : st("unavailable")}</span>
        </div>
      </Section>
      <Section
        title={st("cacheStatus")}
        actions={
          <>
            <button type="button" className="button button--small" disabled={!!busy || !data.enabled}
              onClick={() => run("refresh", () => api("/api/admin/storage/refresh", { method: "POST", body: {} }), st("refreshFailed"), st("refreshed"))}>
              {busy === "refresh" ? at("loading") : st("refresh")}
            </button>
            <button type="button" className="button button--small button--ghost" disabled={!!busy}
              onClick={() => run("clear", () => api("/api/admin/storage/clear", { method: "POST", body: {} }), st("clearFailed"), st("cleared"))}>
              {st("clear")}
            </button>
          </>
        }
      >
        <div className="admin-table__scroll admin-table">
          <table>
            <thead>
              <tr><th>{st("table")}</th><th>{st("cached")}</th><th>{st("items")}</th><th>{st("age")}</th></tr>
            </thead>
            <tbody>
              {data.cacheStatus.map((row) => (
                <tr key={row.table} data-table={row.table}>
                  <td>{st(`table_${row.table}`, { defaultValue: row.table })}</td>
                  <td><Badge kind={row.cached ? (row.stale ? "warning" : "success") : "neutral"}>{row.cached ? (row.stale ? st("stale") : at("yes")) : at("no")}</Badge></td>
                  <td>{row.itemCount}</td>
                  <td>{row.cached ? formatAge(row.age) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
    </div>
  );
}
