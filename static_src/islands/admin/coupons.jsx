// Coupons section: list, create, deactivate / reactivate.
import { useState } from "react";
import {
  api,
  at,
  Badge,
  can,
  DataTable,
  Dialog,
  DialogFooter,
  Field,
  formatDateTime,
  Section,
  sectionStrings,
  toast,
  Toggle,
  useAdminData,
  useSubmit,
} from "./components/index.js";
import { formatEgp } from "../../lib/money.js";
import { currentLanguage } from "../../lib/i18n.js";
import en from "../../i18n/en/admin-coupons.json";
import ar from "../../i18n/ar/admin-coupons.json";

const st = sectionStrings("admin-coupons", en, ar);
const money = (amount) => formatEgp(amount, currentLanguage());

function valueText(c) {
  return c.type === "percentage" ? `${Number(c.value).toLocaleString("en-US")}%` : money(c.value);
}

function stateOf(c) {
  if (!c.isActive) return "inactive";
  if (c.isExpired) return "expired";
  if (c.usageLimit !== null && c.usedCount >= c.usageLimit) return "usedUp";
  return "active";
}
const STATE_TONE = { active: "success", inactive: "neutral", expired: "warning", usedUp: "warning" };

const BLANK = { code: "", type: "percentage", value: "", minimumOrder: "0", expiryDate: "", usageLimit: "0", isActive: true };

function CouponForm({ onClose, onSaved }) {
  const [form, setForm] = useState(BLANK);
  const [errors, setErrors] = useState({});
  const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
  const set = (key) => (value) => setForm((prev) => ({ ...prev, [key]: value }));
  const input = (key) => (e) => set(key)(e.target.value);

  const send = async (event) => {
    event.preventDefault();
    const missing = {};
    if (!form.code.trim()) missing.code = st("required");
    if (!String(form.value).trim()) missing.value = st("required");
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const limit = parseInt(form.usageLimit, 10);
    const body = {
      code: form.code.trim().toUpperCase(),
      type: form.type,
      value: String(form.value).trim(),
      minimumOrder: String(form.minimumOrder || "0").trim(),
      expiryDate: form.expiryDate || null,
      usageLimit: Number.isNaN(limit) || limit <= 0 ? null : limit, // 0 means unlimited
      isActive: form.isActive,
    };
    await submit(() => api("/api/admin/coupons", { method: "POST", body }), {
      done: (coupon) => {
        toast(st("created", { code: coupon.code }), "success");
        onSaved(coupon);
      },
      failText: () => st("createFailed"),
    });
  };

  return (
    <Dialog
      open
      title={st("addTitle")}
      onClose={onClose}
      footer={<DialogFooter formId="coupon-form" onCancel={onClose} busy={busy} submitLabel={st("create")} />}
    >
      <form id="coupon-form" className="admin-form-grid" onSubmit={send} noValidate>
        <Field label={st("code")} error={errors.code}>
          {(id) => (
            <input id={id} value={form.code} dir="ltr" onChange={(e) => set("code")(e.target.value.toUpperCase())} maxLength={40} required />
          )}
        </Field>
        <Field label={st("type")} error={errors.type}>
          {(id) => (
            <select id={id} value={form.type} onChange={input("type")}>
              <option value="percentage">{st("percentage")}</option>
              <option value="fixed">{st("fixed")}</option>
            </select>
          )}
        </Field>
        <Field label={form.type === "percentage" ? st("valuePercent") : st("valueAmount")} error={errors.value}>
          {(id) => <input id={id} type="number" min="0.01" step="0.01" value={form.value} onChange={input("value")} required />}
        </Field>
        <Field label={st("minimumOrder")} error={errors.minimumOrder}>
          {(id) => <input id={id} type="number" min="0" step="0.01" value={form.minimumOrder} onChange={input("minimumOrder")} />}
        </Field>
        <Field label={st("expiry")} error={errors.expiryDate} hint={st("expiryHint")}>
          {(id) => <input id={id} type="date" value={form.expiryDate} onChange={input("expiryDate")} />}
        </Field>
        <Field label={st("usageLimit")} error={errors.usageLimit} hint={st("usageLimitHint")}>
          {(id) => <input id={id} type="number" min="0" step="1" value={form.usageLimit} onChange={input("usageLimit")} />}
        </Field>
        <div className="field field--wide">
          <Toggle label={st("active")} checked={form.isActive} onChange={set("isActive")} />
        </div>
      </form>
    </Dialog>
  );
}

export default function AdminCoupons({ permissions }) {
  const { data, setData, loading } = useAdminData("/api/admin/coupons", { fallback: [] });
  const [creating, setCreating] = useState(false);
  const mayCreate = can(permissions, "coupons", "create");
  const mayEdit = can(permissions, "coupons", "edit");

  const setActive = async (coupon, isActive) => {
    try {
      const saved = await api(`/api/admin/coupons/${coupon.id}`, { method: "PUT", body: { isActive } });
      setData((prev) => prev.map((c) => (c.id === saved.id ? saved : c)));
      toast(isActive ? st("activated", { code: saved.code }) : st("deactivated", { code: saved.code }), "success");
    } catch (err) {
      console.error(err);
      toast(st("updateFailed"), "error");
    }
  };

  const columns = [
    { key: "code", label: st("code"), sortable: true, render: (c) => <strong dir="ltr">{c.code}</strong> },
    { key: "value", label: st("discount"), sortable: true, render: valueText },
    { key: "minimumOrder", label: st("minimumOrder"), sortable: true, render: (c) => money(c.minimumOrder) },
    {
      key: "expiryDate",
      label: st("expiry"),
      sortable: true,
      render: (c) => (c.expiryDate ? formatDateTime(c.expiryDate) : st("noExpiry")),
    },
    {
      key: "usedCount",
      label: st("usage"),
      sortable: true,
      render: (c) => st("usedOf", { used: c.usedCount, limit: c.usageLimit === null ? "∞" : c.usageLimit }),
    },
    {
      key: "state",
      label: st("state"),
      value: stateOf,
      render: (c) => <Badge kind={STATE_TONE[stateOf(c)]}>{st(`states.${stateOf(c)}`)}</Badge>,
    },
  ];
  if (mayEdit) {
    columns.push({
      key: "actions",
      label: at("actions"),
      render: (c) =>
        c.isActive ? (
          <button type="button" className="button button--small button--ghost" onClick={() => setActive(c, false)}>
            {st("deactivate")}
          </button>
        ) : (
          <button type="button" className="button button--small button--ghost" onClick={() => setActive(c, true)}>
            {st("activate")}
          </button>
        ),
    });
  }

  return (
    <Section>
      <DataTable
        rows={data || []}
        columns={columns}
        label={st("tableLabel")}
        loading={loading}
        searchText={(c) => c.code}
        filters={[
          {
            key: "state",
            label: st("state"),
            allLabel: st("allStates"),
            options: ["active", "inactive", "expired", "usedUp"].map((s) => ({ value: s, label: st(`states.${s}`) })),
            match: (c, v) => stateOf(c) === v,
          },
        ]}
        emptyText={st("empty")}
        toolbar={
          mayCreate && (
            <button type="button" className="button button--small" onClick={() => setCreating(true)}>
              {st("add")}
            </button>
          )
        }
      />
      {creating && (
        <CouponForm
          onClose={() => setCreating(false)}
          onSaved={(coupon) => {
            setData((prev) => [coupon, ...(prev || [])]);
            setCreating(false);
          }}
        />
      )}
    </Section>
  );
}
