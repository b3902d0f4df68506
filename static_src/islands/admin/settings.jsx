// Settings: every store setting. Maintenance mode and search-discovery toggles save at once.
import { useEffect, useState } from "react";
import { ConfirmDialog, Field, Section, Toggle, api, at, can, sectionStrings, toast, useAdminData, userMessage } from "./components/index.js";
import en from "../../i18n/en/admin-settings.json";
import ar from "../../i18n/ar/admin-settings.json";

const st = sectionStrings("admin-settings", en, ar);
const WEEKDAYS = [6, 0, 1, 2, 3, 4, 5]; // Sunday first, as the Egyptian week; Monday is 0 on the server
const splitList = (v) => String(v).split(/[,،]/).map((k) => k.trim()).filter(Boolean);
// the server's object as the form edits it: keywords (both languages) and holidays as text
const toForm = (data) => ({
  ...data,
  seo: { ...data.seo, keywords: (data.seo.keywords || []).join(", ") },
  seoAr: { metaTitle: "", metaDescription: "", ...data.seoAr, keywords: ((data.seoAr || {}).keywords || []).join("، ") },
  deliveryHolidays: (data.deliveryHolidays || []).join("\n"),
});
// the form as the API takes it: VAT as the percentage typed (taxRatePercent), never the two
// switches, which save themselves (a value held since the page opened would undo another's change)
const toBody = (form) => {
  const { taxRate, maintenanceMode, disableDiscovery, ...fields } = form;
  return {
    ...fields,
    codMaxTotal: form.codMaxTotal === "" ? null : form.codMaxTotal,
    seo: { ...form.seo, keywords: splitList(form.seo.keywords) },
    seoAr: { ...form.seoAr, keywords: splitList(form.seoAr.keywords) },
    deliveryHolidays: String(form.deliveryHolidays).split(/[\s,]+/).filter(Boolean),
  };
};
// Only what this staff member changed since the form was filled: a setting someone else saved
// meanwhile stays theirs. A group (SEO, social links, the delivery table) goes whole.
const changedFields = (base, form) => {
  const before = toBody(base);
  return Object.fromEntries(Object.entries(toBody(form))
    .filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
};

export default function Settings({ permissions }) {
  const { data, setData, loading } = useAdminData("/api/admin/settings");
  const [form, setForm] = useState(null);
  const [base, setBase] = useState(null); // the server's values the form was filled from
  const [errors, setErrors] = useState({});
  const [busy, setBusy] = useState(false);
  const [confirmMaintenance, setConfirmMaintenance] = useState(null); // the value waiting for a yes
  const canEdit = can(permissions, "settings", "edit");

  // Take the server's values unless the form has unsaved edits.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (data && !dirty) {
      setForm(toForm(data));
      setBase(toForm(data));
    }
  }, [data]);

  if (!form) return <p className="admin-loading">{loading ? at("loading") : st("loadFailed")}</p>;

  const setPath = (path, value) => {
    setDirty(true);
    setErrors({});
    setForm((f) => {
      const [a, b] = path.split(".");
      return b ? { ...f, [a]: { ...f[a], [b]: value } } : { ...f, [a]: value };
    });
  };
  const bind = (path, props = {}) => (id) => {
    const [a, b] = path.split(".");
    const value = b ? form[a][b] : form[a];
    return <input id={id} name={path} className="input" value={value ?? ""} disabled={!canEdit} onChange={(e) => setPath(path, e.target.value)} {...props} />;
  };
  const flag = (path, label) => {
    const [a, b] = path.split(".");
    return <Toggle label={label} name={path} checked={Boolean(b ? form[a][b] : form[a])} disabled={!canEdit} onChange={(v) => setPath(path, v)} />;
  };
  const err = (path) => errors[path];
  // English and its Arabic twin side by side; the Arabic half says so when it is empty
  const valueAt = (path) => { const [a, b] = path.split("."); return String((b ? form[a][b] : form[a]) ?? ""); };
  const pair = (path, pathAr, labelKey, multiline = false) => {
    const missing = valueAt(path).trim() !== "" && valueAt(pathAr).trim() === "";
    const control = (p, dir) => (id) => multiline
      ? <textarea id={id} name={p} className="input" rows={2} dir={dir} lang={dir === "rtl" ? "ar" : "en"} value={valueAt(p)} disabled={!canEdit} onChange={(e) => setPath(p, e.target.value)} />
      : <input id={id} name={p} className="input" dir={dir} lang={dir === "rtl" ? "ar" : "en"} value={valueAt(p)} disabled={!canEdit} onChange={(e) => setPath(p, e.target.value)} />;
    return (
      <div className="admin-lang-pair" data-lang-pair={path}>
        <Field label={st(labelKey)} error={err(path)}>{control(path, "ltr")}</Field>
        <Field label={`${st(labelKey)} (${st("inArabic")})`} error={err(pathAr)} hint={missing ? st("missingArabic") : undefined}
               className={missing ? "field--missing" : ""}>{control(pathAr, "rtl")}</Field>
      </div>
    );
  };

  // Spec 2/4: these two save immediately.
  const saveToggle = async (key, value) => {
    const before = form[key];
    setForm((f) => ({ ...f, [key]: value }));
    try {
      const saved = await api("/api/admin/settings", { method: "PUT", body: { [key]: value } });
      setData(saved);
      toast(st(value ? `${key}On` : `${key}Off`), "success");
    } catch (err) {
      setForm((f) => ({ ...f, [key]: before }));
      toast(userMessage(err, st("saveFailed")), "error");
    }
  };

  const save = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      const saved = await api("/api/admin/settings", { method: "PUT", body: changedFields(base, form) });
      setDirty(false);
      setData(saved);
      setForm(toForm(saved));
      setBase(toForm(saved));
      toast(st("saved"), "success");
    } catch (error) {
      if (error.field) setErrors({ [error.field]: error.message });
      toast(st("saveFailed"), "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="admin-settings" onSubmit={save} noValidate>
      <Section title={st("siteStatus")}>
        <div className="admin-settings__toggles">
          <div>
            <Toggle label={st("maintenanceMode")} name="maintenanceMode" checked={form.maintenanceMode} disabled={!canEdit} onChange={(v) => setConfirmMaintenance(v)} />
            <p className="field__hint">{st("maintenanceHint")}</p>
          </div>
          <div>
            <Toggle label={st("disableDiscovery")} name="disableDiscovery" checked={form.disableDiscovery} disabled={!canEdit} onChange={(v) => saveToggle("disableDiscovery", v)} />
            <p className="field__hint">{st("discoveryHint")}</p>
          </div>
        </div>
      </Section>

      <Section title={st("store")}>
        <div className="admin-form-grid">
          {pair("storeName", "storeNameAr", "storeName")}
          <Field label={st("storeEmail")} error={err("storeEmail")}>{bind("storeEmail", { type: "email", dir: "ltr" })}</Field>
          <Field label={st("storePhone")} error={err("storePhone")}>{bind("storePhone", { dir: "ltr" })}</Field>
          <Field label={st("taxRegistrationNumber")} hint={st("taxRegistrationNumberHint")} error={err("taxRegistrationNumber")}>{bind("taxRegistrationNumber", { dir: "ltr", maxLength: 40 })}</Field>
          <Field label={st("currency")} error={err("currency")}>{bind("currency", { maxLength: 3 })}</Field>
          <Field label={st("timezone")} error={err("timezone")}>{bind("timezone", { dir: "ltr" })}</Field>
          <Field label={st("whatsappNumber")} hint={st("whatsappHint")} error={err("whatsappNumber")}>{bind("whatsappNumber", { dir: "ltr", type: "tel" })}</Field>
          {pair("storeDescription", "storeDescriptionAr", "storeDescription", true)}
          {pair("maintenanceMessage", "maintenanceMessageAr", "maintenanceMessage", true)}
        </div>
      </Section>

      <Section title={st("shippingTax")}>
        <div className="admin-form-grid">
          <Field label={st("shippingRate")} error={err("shippingRate")}>{bind("shippingRate", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <Field label={st("freeShippingThreshold")} error={err("freeShippingThreshold")}>{bind("freeShippingThreshold", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <Field label={st("taxRate")} hint={st("taxRateHint")} error={err("taxRatePercent") || err("taxRate")}>{bind("taxRatePercent", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <div className="field">{flag("pricesIncludeTax", st("pricesIncludeTax"))}</div>
          <div className="field">{flag("codEnabled", st("codEnabled"))}</div>
          <Field label={st("codFee")} error={err("codFee")}>{bind("codFee", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <Field label={st("codMaxTotal")} hint={st("codMaxTotalHint")} error={err("codMaxTotal")}>{bind("codMaxTotal", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <div className="field">{flag("orderNotifications", st("orderNotifications"))}</div>
        </div>
      </Section>

      <Section title={st("delivery")}>
        <p className="field__hint">{st("deliveryHint")}</p>
        <div className="admin-table"><div className="admin-table__scroll">
          <table className="admin-delivery" data-testid="delivery-table">
            <thead><tr><th>{st("governorate")}</th><th>{st("rate")}</th><th>{st("minDays")}</th><th>{st("maxDays")}</th><th>{st("cod")}</th></tr></thead>
            <tbody>
              <tr>
                <th scope="row">{st("defaultRow")}</th>
                <td><input className="input" aria-label={`${st("defaultRow")} ${st("rate")}`} type="text" inputMode="decimal" dir="ltr" value={form.shippingRate} disabled={!canEdit} onChange={(e) => setPath("shippingRate", e.target.value)} /></td>
                <td><input className="input" aria-label={`${st("defaultRow")} ${st("minDays")}`} type="text" inputMode="decimal" dir="ltr" value={form.deliveryMinDays} disabled={!canEdit} onChange={(e) => setPath("deliveryMinDays", e.target.value)} /></td>
                <td><input className="input" aria-label={`${st("defaultRow")} ${st("maxDays")}`} type="text" inputMode="decimal" dir="ltr" value={form.deliveryMaxDays} disabled={!canEdit} onChange={(e) => setPath("deliveryMaxDays", e.target.value)} /></td>
                <td><input type="checkbox" aria-label={`${st("defaultRow")} ${st("cod")}`} checked={form.codEnabled} disabled={!canEdit} onChange={(e) => setPath("codEnabled", e.target.checked)} /></td>
              </tr>
              {form.shippingZones.map((row, i) => {
                const name = document.documentElement.lang === "ar" ? row.nameAr : row.governorate;
                const edit = (key, value) => setPath("shippingZones", form.shippingZones.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
                return (
                  <tr key={row.governorate} data-governorate={row.governorate}>
                    <th scope="row">{name}</th>
                    <td><input className="input" aria-label={`${name} ${st("rate")}`} type="text" inputMode="decimal" dir="ltr" value={row.rate} disabled={!canEdit} onChange={(e) => edit("rate", e.target.value)} /></td>
                    <td><input className="input" aria-label={`${name} ${st("minDays")}`} type="text" inputMode="decimal" dir="ltr" value={row.minDays} disabled={!canEdit} onChange={(e) => edit("minDays", e.target.value)} /></td>
                    <td><input className="input" aria-label={`${name} ${st("maxDays")}`} type="text" inputMode="decimal" dir="ltr" value={row.maxDays} disabled={!canEdit} onChange={(e) => edit("maxDays", e.target.value)} /></td>
                    <td><input type="checkbox" aria-label={`${name} ${st("cod")}`} checked={row.cod} disabled={!canEdit} onChange={(e) => edit("cod", e.target.checked)} /></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div></div>
        {Object.keys(errors).filter((k) => /^(shippingZones|deliveryM)/.test(k)).map((k) => <p key={k} className="field__error" role="alert">{errors[k]}</p>)}
        <div className="admin-form-grid">
          <fieldset className="field">
            <legend>{st("daysOff")}</legend>
            {WEEKDAYS.map((day) => (
              <label key={day} className="check">
                <input type="checkbox" checked={form.deliveryDaysOff.includes(day)} disabled={!canEdit}
                  onChange={(e) => setPath("deliveryDaysOff", e.target.checked ? [...form.deliveryDaysOff, day] : form.deliveryDaysOff.filter((d) => d !== day))} />
                {" "}{st(`weekday${day}`)}
              </label>
            ))}
            {err("deliveryDaysOff") && <p className="field__error">{err("deliveryDaysOff")}</p>}
          </fieldset>
          <Field label={st("holidays")} hint={st("holidaysHint")} error={err("deliveryHolidays")}>
            {(id) => <textarea id={id} name="deliveryHolidays" className="input" rows={4} dir="ltr" value={form.deliveryHolidays} disabled={!canEdit} onChange={(e) => setPath("deliveryHolidays", e.target.value)} />}
          </Field>
        </div>
      </Section>

      <Section title={st("orderLimits")}>
        <div className="admin-form-grid">
          <Field label={st("maxQuantityPerLine")} error={err("maxQuantityPerLine")}>{bind("maxQuantityPerLine", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <Field label={st("maxQuantityPerOrder")} error={err("maxQuantityPerOrder")}>{bind("maxQuantityPerOrder", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <Field label={st("maxUnpaidOrders")} hint={st("maxUnpaidOrdersHint")} error={err("maxUnpaidOrders")}>{bind("maxUnpaidOrders", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
        </div>
      </Section>

      <Section title={st("social")}>
        <div className="admin-form-grid">
          <Field label="Facebook" error={err("socialMedia.facebook")}>{bind("socialMedia.facebook", { dir: "ltr" })}</Field>
          <Field label="Instagram" error={err("socialMedia.instagram")}>{bind("socialMedia.instagram", { dir: "ltr" })}</Field>
          <Field label="X / Twitter" error={err("socialMedia.twitter")}>{bind("socialMedia.twitter", { dir: "ltr" })}</Field>
        </div>
      </Section>

      <Section title={st("seo")}>
        <div className="admin-form-grid">
          {pair("seo.metaTitle", "seoAr.metaTitle", "metaTitle")}
          {pair("seo.keywords", "seoAr.keywords", "keywords")}
          {pair("seo.metaDescription", "seoAr.metaDescription", "metaDescription", true)}
        </div>
      </Section>

      <Section title={st("external")}>
        <div className="admin-form-grid">
          <div className="field">{flag("externalProducts.enabled", st("externalEnabled"))}</div>
          <div className="field">{flag("externalProducts.autoImport", st("autoImport"))}</div>
          <div className="field">{flag("externalProducts.showKesConversion", st("showKes"))}</div>
          <Field label={st("baseUrl")} error={err("externalProducts.baseUrl")}>{bind("externalProducts.baseUrl", { type: "url", dir: "ltr" })}</Field>
          <Field label={st("refreshInterval")} error={err("externalProducts.refreshInterval")}>{bind("externalProducts.refreshInterval", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
          <Field label={st("markup")} error={err("importerMarkup")}>{bind("importerMarkup", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
        </div>
      </Section>

      <ConfirmDialog
        open={confirmMaintenance !== null}
        title={st("maintenanceMode")}
        message={st(confirmMaintenance ? "maintenanceConfirmOn" : "maintenanceConfirmOff")}
        confirmLabel={st(confirmMaintenance ? "maintenanceTurnOn" : "maintenanceTurnOff")}
        danger={Boolean(confirmMaintenance)}
        onCancel={() => setConfirmMaintenance(null)}
        onConfirm={() => { saveToggle("maintenanceMode", confirmMaintenance); setConfirmMaintenance(null); }}
      />

      {canEdit && (
        <div className="admin-settings__actions">
          <button type="submit" className="button" disabled={busy}>{busy ? at("saving") : st("save")}</button>
        </div>
      )}
    </form>
  );
}
