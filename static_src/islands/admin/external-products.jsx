// The importer panel: configuration, start/cancel a crawl with live progress,
// the diff before an import (new, repriced, gone; only the ticked ones applied),
// the first 10 products found with import one, clear the cache.
// A thin view over /api/admin/scrape…: every price shown here is the server's.
import { useCallback, useEffect, useRef, useState } from "react";
import { api, userMessage } from "../../lib/api.js";
import { addStrings, currentLanguage, t } from "../../lib/i18n.js";
import { toast } from "../../lib/events.js";
import { formatEgp, formatKes } from "../../lib/money.js";
import { formatDate } from "../../lib/store-day.js";
import { safeUrl } from "../../lib/safe-url.js";
import { isolate } from "../../lib/bidi.js";
import en from "../../i18n/en/importer.json";
import ar from "../../i18n/ar/importer.json";

addStrings("importer", { en, ar });
const tr = (key, options) => t(key, { ns: "importer", ...options });

const POLL_MS = 1000;
const PREVIEW = 10;
const DESCRIPTION_CUT = 100;

function errorText(err, fallbackKey) {
  if (err?.status === 401) return tr("authRequired");
  if (err?.status === 403) return tr("permissionRequired");
  if (err?.kind === "network" || err?.kind === "timeout") return tr("networkError");
  return userMessage(err, tr(fallbackKey));
}

function cut(text) {
  return text.length > DESCRIPTION_CUT ? `${text.slice(0, DESCRIPTION_CUT)}…` : text;
}

function elapsed(seconds) {
  const s = Math.round(seconds || 0);
  return s < 60 ? tr("seconds", { count: s }) : tr("minutes", { m: Math.floor(s / 60), s: s % 60 });
}

function Progress({ job }) {
  const running = !job.finished;
  return (
    <section className="importer-progress" aria-live="polite" data-status={job.status}>
      <div className="importer-progress__head">
        <strong>{tr(`status.${job.status}`)}</strong>
        <span>{job.percent}%</span>
      </div>
      <div className="importer-bar" role="progressbar" aria-label={tr("progressLabel")}
           aria-valuemin="0" aria-valuemax="100" aria-valuenow={job.percent}>
        <div className={`importer-bar__fill${running ? " is-running" : ""}`} style={{ inlineSize: `${job.percent}%` }} />
      </div>
      <dl className="importer-stats">
        <div><dt>{tr("pages")}</dt><dd data-testid="pages">{tr("pagesOf", { fetched: job.pagesFetched, planned: job.pagesPlanned })}</dd></div>
        <div><dt>{tr("productsFound")}</dt><dd data-testid="found">{job.productsFound}</dd></div>
        <div><dt>{tr("errors")}</dt><dd>{job.errorCount}</dd></div>
        <div><dt>{tr("elapsed")}</dt><dd>{elapsed(job.elapsedSeconds)}</dd></div>
      </dl>
    </section>
  );
}

// The preview before an import: new products, price changes and products gone from the
// producer's site, each with a checkbox; only the ticked ones are applied (gone ones are
// deactivated, never deleted). New and repriced start ticked, gone ones do not.
function DiffGroup({ kind, title, items, picked, setPicked, render, disabled }) {
  if (!items.length) return null;
  const all = items.every((i) => picked.has(i.id));
  const toggle = (id) => setPicked((old) => {
    const next = new Set(old);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });
  const toggleAll = () => setPicked(all ? new Set() : new Set(items.map((i) => i.id)));
  return (
    <fieldset className="importer-diff__group" data-testid={`diff-${kind}`} disabled={disabled}>
      <legend>{title}</legend>
      <label className="importer-diff__all">
        <input type="checkbox" checked={all} onChange={toggleAll} /> {tr("diff.all")}
      </label>
      <ul className="importer-diff__list">
        {items.map((item) => (
          <li key={item.id}>
            <label className="importer-diff__row">
              <input type="checkbox" checked={picked.has(item.id)} onChange={() => toggle(item.id)}
                     data-testid={`pick-${kind}`} />
              <span>{render(item)}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function Diff({ version, canRun, busy, lang, onApplied, onRepriced }) {
  const [diff, setDiff] = useState(null);
  const [failed, setFailed] = useState("");
  const [applying, setApplying] = useState(false);
  const [pickedNew, setPickedNew] = useState(new Set());
  const [pickedChanged, setPickedChanged] = useState(new Set());
  const [pickedGone, setPickedGone] = useState(new Set());
  // the preview read again at a new rate or markup, or from a newer crawl: staff's ticks are kept (the same
  // products; a new one is matched by its producer page, as a crawl gives it a new id), over every reading
  // until the next apply (a newer crawl reads it twice: once here, once as the panel's status changes)
  const [repriced, setRepriced] = useState(0);
  const [repricedWhy, setRepricedWhy] = useState("");
  const keepTicks = useRef(false);
  const shown = useRef(null);

  useEffect(() => {
    let live = true;
    api("/api/admin/scrape/preview").then((next) => {
      if (!live) return;
      const before = shown.current;
      shown.current = next;
      setDiff(next);
      setFailed("");
      const ids = (items) => new Set(items.map((i) => i.id));
      const kept = (picked, items) => { const now = ids(items); return new Set([...picked].filter((id) => now.has(id))); };
      const keptNew = (picked) => {
        const pages = new Set((before?.new ?? []).filter((i) => picked.has(i.id)).map((i) => i.sourceUrl));
        return new Set(next.new.filter((i) => pages.has(i.sourceUrl)).map((i) => i.id));
      };
      if (keepTicks.current) {
        setPickedNew((picked) => keptNew(picked));
        setPickedChanged((picked) => kept(picked, next.changed));
        setPickedGone((picked) => kept(picked, next.gone));
      } else {
        setPickedNew(ids(next.new));
        setPickedChanged(ids(next.changed));
        setPickedGone(new Set());
      }
    }).catch((err) => live && setFailed(errorText(err, "diff.failed")));
    return () => { live = false; };
  }, [version, repriced]);

  if (failed) return <p className="alert alert--error">{failed}</p>;
  if (!diff) return null;
  const total = pickedNew.size + pickedChanged.size + pickedGone.size;
  const nothing = !diff.new.length && !diff.changed.length && !diff.gone.length;

  async function apply() {
    setApplying(true);
    try {
      // the rate and markup the preview was priced at, and the crawl it was built from: the server applies
      // nothing when either changed since
      const result = await api("/api/admin/scrape/apply", {
        method: "POST",
        body: { new: [...pickedNew], changed: [...pickedChanged], gone: [...pickedGone], ...diff.pricing,
                runId: diff.runId },
      });
      // a ticked product left out (a price that makes 0 EGP) is named with why, in one toast
      setRepricedWhy("");
      keepTicks.current = false;
      toast([tr("diff.applied", result), ...(result.errors ?? [])].join(" "), result.errors?.length ? "info" : "success");
      onApplied(result);
    } catch (err) {
      if (err?.status === 409) { // repriced or recrawled since: show the preview again, and why, before anything is applied
        setRepricedWhy(errorText(err, "importFailed"));
        keepTicks.current = true;
        setRepriced((n) => n + 1);
        onRepriced(); // the configuration's rate and the products' prices below, read again too
      } else {
        toast(errorText(err, "importFailed"), "error");
      }
    } finally {
      setApplying(false);
    }
  }

  return (
    <section className="importer-card importer-diff" aria-labelledby="importer-diff-title" data-testid="import-diff">
      <div className="importer-preview__head">
        <h2 id="importer-diff-title">{tr("diff.title")}</h2>
        <p className="importer-muted">{nothing ? tr("diff.nothing") : tr("diff.hint")}</p>
      </div>
      {repricedWhy && <p className="alert alert--info" role="status" data-testid="diff-repriced">{repricedWhy}</p>}
      <DiffGroup kind="new" title={tr("diff.new", { count: diff.new.length })} items={diff.new}
                 picked={pickedNew} setPicked={setPickedNew} disabled={!canRun}
                 render={(i) => (<>
                   <strong><bdi>{i.name}</bdi></strong>{" "}
                   <bdi>{formatEgp(i.priceEgp, lang)}</bdi>{" "}
                   <span className="importer-muted">({formatKes(i.kes, lang)})</span>
                   {!i.inStock && <> <span className="importer-tag importer-tag--warn">{tr("diff.outOfStock")}</span></>}
                 </>)} />
      <DiffGroup kind="changed" title={tr("diff.changed", { count: diff.changed.length })} items={diff.changed}
                 picked={pickedChanged} setPicked={setPickedChanged} disabled={!canRun}
                 render={(i) => (<>
                   <strong><bdi>{i.title}</bdi></strong>{" "}
                   {i.oldEgp !== i.newEgp ? (
                     <span className="importer-diff__price">
                       <s><bdi>{formatEgp(i.oldEgp, lang)}</bdi></s>
                       <span aria-hidden="true"> {lang === "ar" ? "←" : "→"} </span>
                       <span className="visually-hidden"> {tr("diff.to")} </span>
                       <bdi>{formatEgp(i.newEgp, lang)}</bdi>
                     </span>
                   ) : <bdi>{formatEgp(i.newEgp, lang)}</bdi>}
                   {i.priceRefused && <> <span className="importer-tag importer-tag--warn">{tr("diff.priceKept")}</span></>}
                   {!i.inStock && i.stock > 0 && <> <span className="importer-tag importer-tag--warn">{tr("diff.outOfStock")}</span></>}
                   {i.inStock && i.stock === 0 && <> <span className="importer-tag">{tr("diff.backInStock")}</span></>}
                 </>)} />
      <DiffGroup kind="gone" title={tr("diff.gone", { count: diff.gone.length })} items={diff.gone}
                 picked={pickedGone} setPicked={setPickedGone} disabled={!canRun}
                 render={(i) => (<>
                   <strong><bdi>{i.title}</bdi></strong>{" "}
                   <span className="importer-muted">{tr("diff.deactivate")}</span>
                 </>)} />
      {!diff.goneChecked && diff.runStatus && <p className="importer-muted">{tr("diff.goneUnknown")}</p>}
      {/* prices no apply takes (the producer's makes 0 EGP or too much, or none could be read): named, never offered,
          as in the Owner's e-mail */}
      {diff.refused?.length > 0 && (
        <div className="importer-diff__group" data-testid="diff-refused">
          <p><strong>{tr("diff.refused", { count: diff.refused.length })}</strong></p>
          <ul className="importer-diff__list">
            {diff.refused.map((i) => (
              <li key={i.id} className="importer-diff__row">
                <span><bdi>{i.title}</bdi>{" "}
                  <span className="importer-muted">({i.kes === null ? tr("diff.noPrice") : tr("diff.kes", { kes: i.kes })})</span></span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!nothing && (
        <div className="importer-diff__foot">
          <button type="button" className="button button--gold" onClick={apply}
                  disabled={!canRun || !!busy || applying || total === 0}>
            {applying ? tr("importing") : tr("diff.apply", { count: total })}</button>
        </div>
      )}
    </section>
  );
}

export default function ExternalProducts({ initial = null, permissions = null }) {
  // the dashboard passes the role's rights; the server checks them again on every call
  const canRun = !permissions || (permissions.products || []).includes("create");
  const lang = currentLanguage();
  const [data, setData] = useState(initial);
  const [maxPages, setMaxPages] = useState(20);
  const [pagesError, setPagesError] = useState("");
  const [busy, setBusy] = useState("");
  const [notice, setNotice] = useState(null); // {kind, text}
  const [applied, setApplied] = useState(0);
  const timer = useRef(null);

  const job = data?.job;
  const running = job && !job.finished;

  const load = useCallback(async () => {
    try {
      const next = await api("/api/admin/scrape/status");
      setData(next);
      return next;
    } catch (err) {
      setNotice({ kind: "error", text: errorText(err, "fetchFailed") });
      return null;
    }
  }, []);

  useEffect(() => {
    if (!initial) load();
  }, [initial, load]);

  // poll while a crawl runs; when it ends, say how it went. A failed poll just tries again.
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!running) return undefined;
    timer.current = setTimeout(async () => {
      const next = await load();
      setTick((n) => n + 1);
      const done = next?.job;
      if (done?.finished) {
        if (done.status === "failed") {
          setNotice({ kind: "error", text: tr("serverFailed", { error: done.error || tr("scrapeFailed") }) });
        } else if (done.status === "cancelled") {
          setNotice({ kind: "info", text: tr("cancelled") });
        } else if (done.errorCount) {
          setNotice({ kind: "info", text: tr("completedWithErrors") });
        } else {
          setNotice({ kind: "success", text: tr("completed", { count: next.count }) });
        }
      } else if (next) {
        setNotice(null);
      }
    }, POLL_MS);
    return () => clearTimeout(timer.current);
  }, [running, tick, load]);

  // acceptFewer: staff confirm the producer really lists far fewer products than the last good crawl found
  // (the crawl failed "too_few"); the whole site is read, so that the crawl becomes the new last good one
  async function start(forceRefresh, acceptFewer = false) {
    const pages = acceptFewer ? 100 : Number(maxPages);
    if (!Number.isInteger(pages) || pages < 1 || pages > 100) {
      setPagesError(tr("maxPagesInvalid"));
      return;
    }
    setPagesError("");
    setBusy("start");
    setNotice(null);
    try {
      const answer = await api("/api/admin/scrape", { method: "POST", body: { forceRefresh, maxPages: pages, acceptFewer } });
      if (answer.cached) setNotice({ kind: "info", text: tr("servedFromCache", { count: answer.count }) });
      await load();
    } catch (err) {
      setNotice({ kind: "error", text: errorText(err, "scrapeFailed") });
    } finally {
      setBusy("");
    }
  }

  async function cancel() {
    setBusy("cancel");
    try {
      await api("/api/admin/scrape/cancel", { method: "POST" });
      await load();
    } catch (err) {
      toast(errorText(err, "scrapeFailed"), "error");
    } finally {
      setBusy("");
    }
  }

  async function clearCache() {
    setBusy("clear");
    try {
      await api("/api/admin/scrape/cache", { method: "DELETE" });
      toast(tr("cacheCleared"), "success");
      setNotice(null);
      await load();
    } catch (err) {
      toast(errorText(err, "clearFailed"), "error");
    } finally {
      setBusy("");
    }
  }

  async function importProducts(ids) {
    if (!data?.count) {
      setNotice({ kind: "error", text: tr("nothingToSave") });
      return;
    }
    setBusy(`import-${ids[0]}`);
    try {
      const body = { ids };
      const result = await api("/api/admin/scrape/import", { method: "POST", body });
      const text = tr("imported", { created: result.created, updated: result.updated });
      setNotice({ kind: result.errors.length ? "info" : "success", text, errors: result.errors });
      toast(text, "success");
      setApplied((n) => n + 1);
    } catch (err) {
      setNotice({ kind: "error", text: errorText(err, "importFailed") });
    } finally {
      setBusy("");
    }
  }

  if (!data) {
    return <p className="importer-loading">{notice ? <span className="alert alert--error">{notice.text}</span> : t("loading")}</p>;
  }
  const { config, products } = data;
  const preview = products.slice(0, PREVIEW);
  const diffVersion = `${job?.id}-${job?.status}-${data.timestamp}-${applied}`;

  return (
    <div className="importer" data-running={running ? "true" : "false"}>
      <section className="importer-card importer-config" aria-labelledby="importer-config-title">
        <h2 id="importer-config-title">{tr("config")}</h2>
        <dl className="importer-config__list">
          <div><dt>{tr("baseUrl")}</dt><dd><bdi dir="ltr">{config.baseUrl}</bdi></dd></div>
          <div>
            <dt>{tr("exchangeRate")}</dt>
            <dd><bdi>{tr("rateKesEgp", { rate: config.exchangeRate })}</bdi>{" "}
              <small className="importer-muted">
                {config.rateIsFallback ? tr("rateFallback")
                  : config.rateSource === "staff" ? tr("rateByHand") : tr("rateSource", { source: config.rateSource })}
                {config.rateRefused
                  ? ` · ${tr("rateRefused", { rate: config.rateRefused, percent: config.rateRefusedPercent })}`
                  : config.rateIsStale && !config.rateIsFallback && ` · ${tr("rateStale")}`}
              </small></dd>
          </div>
          <div><dt>{tr("markup")}</dt><dd><bdi dir="ltr">{Number(config.markup)}%</bdi></dd></div>
          <div><dt>{tr("refreshInterval")}</dt><dd>{tr("hours", { count: config.refreshInterval })}</dd></div>
          <div><dt>{tr("autoImport")}</dt><dd>{config.autoImport ? tr("on") : tr("off")}</dd></div>
          <div><dt>{tr("lastFetch")}</dt>
            <dd>{config.lastFetch ? formatDate(config.lastFetch, lang, { dateStyle: "short", timeStyle: "medium" }) : tr("never")}</dd></div>
        </dl>
        {!config.enabled && <p className="alert alert--info">{tr("disabled")}</p>}
        {!canRun && <p className="alert alert--info">{tr("viewOnly")}</p>}
        <div className="importer-actions">
          <div className={`field importer-pages${pagesError ? " field--error" : ""}`}>
            <label htmlFor="importer-max-pages">{tr("maxPages")}</label>
            <input id="importer-max-pages" type="text" inputMode="decimal" dir="ltr" value={maxPages}
                   onChange={(e) => setMaxPages(e.target.value)} aria-describedby="importer-max-pages-hint" />
            <p id="importer-max-pages-hint" className={pagesError ? "field__error" : "field__hint"}>
              {pagesError || tr("maxPagesHint")}</p>
          </div>
          <div className="importer-buttons">
            <button type="button" className="button" onClick={() => start(true)} disabled={!canRun || !!busy || running}>
              {busy === "start" ? tr("starting") : tr("fetchLatest")}</button>
            <button type="button" className="button button--ghost" onClick={() => start(false)} disabled={!canRun || !!busy || running}>
              {tr("loadCached")}</button>
            {running && (
              <button type="button" className="button button--danger" onClick={cancel}
                      disabled={!canRun || busy === "cancel" || job.cancelRequested}>
                {job.cancelRequested ? tr("cancelling") : tr("cancel")}</button>
            )}
            <button type="button" className="button button--ghost" onClick={clearCache} disabled={!canRun || !!busy || running}>
              {tr("clearCache")}</button>
          </div>
        </div>
      </section>

      {job && <Progress job={job} />}
      {/* a run that failed before this page opened (the scheduled one overnight): why, as a finished poll says */}
      {!notice && job?.status === "failed" && job.error && (
        <p className="alert alert--error" data-testid="run-failure">{tr("serverFailed", { error: job.error })}</p>
      )}
      {job?.failure === "too_few" && !running && canRun && (
        <p className="importer-buttons">
          <button type="button" className="button button--ghost" onClick={() => start(true, true)} disabled={!!busy}
                  data-testid="accept-fewer">{tr("acceptFewer")}</button>
        </p>
      )}
      {notice && (
        <div className={`alert alert--${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
          {notice.errors?.length > 0 && <ul>{notice.errors.map((e) => <li key={e}>{e}</li>)}</ul>}
        </div>
      )}
      {data.count > 0 && !running && (
        <Diff version={diffVersion} canRun={canRun} busy={busy} lang={lang} onRepriced={load}
              onApplied={(result) => {
                setNotice({ kind: "success", text: tr("diff.applied", result) });
                setApplied((n) => n + 1);
              }} />
      )}
      {job?.errors?.length > 0 && (
        <details className="importer-card importer-errors">
          <summary>{tr("errorList", { count: job.errors.length })}</summary>
          <ul>{job.errors.map((e, i) => <li key={i}><bdi>{e}</bdi></li>)}</ul>
        </details>
      )}

      <section className="importer-card" aria-labelledby="importer-preview-title">
        <div className="importer-preview__head">
          <h2 id="importer-preview-title">{tr("preview")}</h2>
          <p className="importer-muted">{tr("showing", { shown: preview.length, count: data.count })}</p>
        </div>
        {preview.length === 0 ? (
          <p className="importer-empty">{job?.status === "failed" ? tr("noCacheAfterFailure") : tr("empty")}</p>
        ) : (
          <ul className="importer-list">
            {preview.map((p) => (
              <li key={p.id} className="importer-item" data-testid="preview-item">
                {safeUrl(p.image, { allowRelative: false }) ? <img src={safeUrl(p.image, { allowRelative: false })} alt="" loading="lazy" referrerPolicy="no-referrer" /> : <span className="importer-noimg" />}
                <div className="importer-item__body">
                  <h3 dir="auto">{p.name}</h3>
                  <p className="importer-muted" dir="auto">{cut(p.description)}</p>
                  <p className="importer-item__meta">
                    <strong>{formatEgp(p.priceEgp, lang)}</strong>
                    {p.originalPriceEgp && <s className="importer-muted">{formatEgp(p.originalPriceEgp, lang)}</s>}
                    <span className="importer-muted">({formatKes(p.price, lang)})</span>
                    <span className="importer-tag" title={tr("shopCategory")}><bdi>{p.shopCategory}</bdi></span>
                  </p>
                </div>
                <button type="button" className="button button--small button--ghost"
                        onClick={() => importProducts([p.id])} disabled={!canRun || !!busy || running}
                        aria-label={tr("importOneLabel", { name: isolate(p.name) })}>
                  {busy === `import-${p.id}` ? tr("importing") : tr("importOne")}</button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
