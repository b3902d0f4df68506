// Settings: every store setting. Maintenance mode and search-discovery toggles save at once.
import { useEffect, useState } from "react";
import { Field, Section, Toggle, api, at, can, sectionStrings, toast, useAdminData } from "./components/index.js";
import en from "../../i18n/en/admin-settings.json";
import ar from "../../i18n/ar/admin-settings.json";

const st = sectionStrings("admin-settings", en, ar);

export default function Settings({ permissions }) {
  const { data, setData, loading } = useAdminData("/api/admin/settings");
  const [form, setForm] = useState(null);
  const [errors, setErrors] = useState({});
  const [busy, setBusy] = useState(false);
  const canEdit = can(permissions, "settings", "edit");

  // Take the server's values unless the form has unsaved edits.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (data && !dirty) setForm({ ...data, seo: { ...data.seo, keywords: (data.seo.keywords || []).join(", ") } });
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

  // Spec 2/4: these two save immediately.
  const saveToggle = async (key, value) => {
    const before = form[key];
    setForm((f) => ({ ...f, [key]: value }));
    try {
      const saved = await api("/api/admin/settings", { method: "PUT", body: { [key]: value } });
      setData(saved);
      toast(st(value ? `${key}On` : `${key}Off`), "success");
    } catch {
      setForm((f) => ({ ...f, [key]: before }));
      toast(st("saveFailed"), "error");
    }
  };

  const save = async (e) => {
    e.preventDefault();
    setBusy(true);
    const body = {
      ...form,
      codMaxTotal: form.codMaxTotal === "" ? null : form.codMaxTotal,
      seo: { ...form.seo, keywords: String(form.seo.keywords).split(",").map((k) => k.trim()).filter(Boolean) },
    };
    try {
      const saved = await api("/api/admin/settings", { method: "PUT", body });
      setDirty(false);
      setData(saved);
      setForm({ ...saved, seo: { ...saved.seo, keywords: saved.seo.keywords.join(", ") } });
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
            <Toggle label={st("maintenanceMode")} name="maintenanceMode" checked={form.maintenanceMode} disabled={!canEdit} onChange={(v) => saveToggle("maintenanceMode", v)} />
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
          <Field label={st("storeName")} error={err("storeName")}>{bind("storeName")}</Field>
          <Field label={st("storeEmail")} error={err("storeEmail")}>{bind("storeEmail", { type: "email", dir: "ltr" })}</Field>
          <Field label={st("storePhone")} error={err("storePhone")}>{bind("storePhone", { dir: "ltr" })}</Field>
          <Field label={st("currency")} error={err("currency")}>{bind("currency", { maxLength: 3 })}</Field>
          <Field label={st("timezone")} error={err("timezone")}>{bind("timezone", { dir: "ltr" })}</Field>
          <Field className="field--wide" label={st("storeDescription")} error={err("storeDescription")}>
            {(id) => <textarea id={id} className="input" rows={2} value={form.storeDescription} disabled={!canEdit} onChange={(e) => setPath("storeDescription", e.target.value)} />}
          </Field>
        </div>
      </Section>

      <Section title={st("shippingTax")}>
        <div className="admin-form-grid">
          <Field label={st("shippingRate")} error={err("shippingRate")}>{bind("shippingRate", { type: "number", step: "0.01", min: "0" })}</Field>
          <Field label={st("freeShippingThreshold")} error={err("freeShippingThreshold")}>{bind("freeShippingThreshold", { type: "number", step: "0.01", min: "0" })}</Field>
          <Field label={st("taxRate")} hint={st("taxRateHint")} error={err("taxRate")}>{bind("taxRate", { type: "number", step: "0.01", min: "0", max: "1" })}</Field>
          <div className="field">{flag("pricesIncludeTax", st("pricesIncludeTax"))}</div>
          <div className="field">{flag("codEnabled", st("codEnabled"))}</div>
          <Field label={st("codFee")} error={err("codFee")}>{bind("codFee", { type: "number", step: "0.01", min: "0" })}</Field>
          <Field label={st("codMaxTotal")} hint={st("codMaxTotalHint")} error={err("codMaxTotal")}>{bind("codMaxTotal", { type: "number", step: "0.01", min: "0" })}</Field>
          <div className="field">{flag("orderNotifications", st("orderNotifications"))}</div>
        </div>
      </Section>

      <Section title={st("orderLimits")}>
        <div className="admin-form-grid">
          <Field label={st("maxQuantityPerLine")} error={err("maxQuantityPerLine")}>{bind("maxQuantityPerLine", { type: "number", step: "1", min: "1" })}</Field>
          <Field label={st("maxQuantityPerOrder")} error={err("maxQuantityPerOrder")}>{bind("maxQuantityPerOrder", { type: "number", step: "1", min: "1" })}</Field>
          <Field label={st("maxUnpaidOrders")} hint={st("maxUnpaidOrdersHint")} error={err("maxUnpaidOrders")}>{bind("maxUnpaidOrders", { type: "number", step: "1", min: "1" })}</Field>
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
          <Field label={st("metaTitle")} error={err("seo.metaTitle")}>{bind("seo.metaTitle")}</Field>
          <Field label={st("keywords")} hint={st("commaHint")} error={err("seo.keywords")}>{bind("seo.keywords")}</Field>
          <Field className="field--wide" label={st("metaDescription")} error={err("seo.metaDescription")}>{bind("seo.metaDescription")}</Field>
        </div>
      </Section>

      <Section title={st("external")}>
        <div className="admin-form-grid">
          <div className="field">{flag("externalProducts.enabled", st("externalEnabled"))}</div>
          <div className="field">{flag("externalProducts.autoImport", st("autoImport"))}</div>
          <div className="field">{flag("externalProducts.showKesConversion", st("showKes"))}</div>
          <Field label={st("baseUrl")} error={err("externalProducts.baseUrl")}>{bind("externalProducts.baseUrl", { type: "url", dir: "ltr" })}</Field>
          <Field label={st("refreshInterval")} error={err("externalProducts.refreshInterval")}>{bind("externalProducts.refreshInterval", { type: "number", min: "1", step: "1" })}</Field>
          <Field label={st("markup")} error={err("importerMarkup")}>{bind("importerMarkup", { type: "number", min: "0", step: "1" })}</Field>
        </div>
      </Section>

      {canEdit && (
        <div className="admin-settings__actions">
          <button type="submit" className="button" disabled={busy}>{busy ? at("saving") : st("save")}</button>
        </div>
      )}
    </form>
  );
}
