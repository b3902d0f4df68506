// Database and e-mail configuration (Owner): read-only system info, setup steps, initialisation card.
import { useState } from "react";
import { Badge, Section, api, at, sectionStrings, toast, useAdminData } from "./components/index.js";
import en from "../../i18n/en/admin-database.json";
import ar from "../../i18n/ar/admin-database.json";

const st = sectionStrings("admin-database", en, ar);

export default function Database() {
  const { data: info, loading } = useAdminData("/api/admin/system/info");
  const [state, setState] = useState("idle"); // idle | running | success | partial | error
  const [result, setResult] = useState(null);

  const init = async () => {
    setState("running");
    try {
      const answer = await api("/api/admin/database/init", { method: "POST", body: {}, timeout: 120000 });
      setResult(answer);
      setState(answer.status);
      toast(answer.status === "success" ? st("initSuccess") : st("initPartial"), answer.status === "success" ? "success" : "error");
    } catch (err) {
      setResult(err.body || null);
      setState("error");
      toast(st("initFailed"), "error");
    }
  };

  return (
    <div className="admin-grid-2">
      <Section title={st("systemInfo")}>
        {!info ? (
          <p className="admin-loading">{loading ? at("loading") : st("loadFailed")}</p>
        ) : (
          <ul className="admin-list">
            <li><span>{st("dbType")}</span><strong>{info.database.type}</strong></li>
            <li><span>{st("persistent")}</span><Badge kind={info.database.persistent ? "success" : "danger"}>{info.database.persistent ? at("yes") : at("no")}</Badge></li>
            <li><span>{st("dbUrl")}</span><code dir="ltr">{info.database.database.url}</code></li>
            <li><span>{st("emailEnabled")}</span><Badge kind={info.email.enabled ? "success" : "warning"}>{info.email.enabled ? at("yes") : at("no")}</Badge></li>
            <li><span>{st("emailHost")}</span><code dir="ltr">{info.email.host || "—"}</code></li>
            <li><span>{st("fromName")}</span><bdi>{info.email.fromName || "—"}</bdi></li>
            <li><span>{st("fromEmail")}</span><code dir="ltr">{info.email.fromEmail}</code></li>
          </ul>
        )}
        <h3>{st("setupTitle")}</h3>
        <ol className="admin-setup">
          <li>{st("setupDb")} <code dir="ltr">DATABASE_URL=postgres://user:password@host:5432/shop</code></li>
          <li>{st("setupRedis")} <code dir="ltr">REDIS_URL=redis://host:6379/0</code></li>
          <li>{st("setupEmail")} <code dir="ltr">EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, DEFAULT_FROM_EMAIL</code></li>
          <li>{st("setupRestart")}</li>
        </ol>
      </Section>
      <Section title={st("initTitle")}>
        <p>{st("initText")}</p>
        <button type="button" className="button" onClick={init} disabled={state === "running"} data-database-init>
          {state === "running" ? st("initializing") : st("initialize")}
        </button>
        {state === "success" && <p className="alert alert--success" role="status">{st("initSuccess")}</p>}
        {state === "partial" && <p className="alert alert--error" role="alert">{st("initPartial")}</p>}
        {state === "error" && <p className="alert alert--error" role="alert">{st("initFailed")}</p>}
        {result?.steps && (
          <ul className="admin-list">
            {result.steps.map((s) => (
              <li key={s.step}>
                <span>{st(`step_${s.step}`)}</span>
                {s.ok ? (
                  <span>{st(s.step === "migrations" ? "applied" : "createdRows", { count: s.applied ?? s.created ?? 0 })}</span>
                ) : (
                  // what the Owner reads is worded here; the database's own message is only the detail
                  <span data-step-failed={s.step}>
                    {st(`failed_${s.step}`)}
                    {s.error && (
                      <details className="admin-detail">
                        <summary>{st("errorDetail")}</summary>
                        <code dir="ltr">{s.error}</code>
                      </details>
                    )}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
