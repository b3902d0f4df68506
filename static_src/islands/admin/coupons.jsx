// Coupons section: list, create, generate codes in bulk, deactivate / reactivate, and each
// coupon's usage (the orders that used it).
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
import { formatNumber } from "../../lib/digits.js";
import { currentLanguage } from "../../lib/i18n.js";
import en from "../../i18n/en/admin-coupons.json";
import ar from "../../i18n/ar/admin-coupons.json";

const st = sectionStrings("admin-coupons", en, ar);
const money = (amount) => formatEgp(amount, currentLanguage());

function valueText(c) {
  return c.type === "percentage" ? `${formatNumber(c.value)}%` : money(c.value);
}

function stateOf(c) {
  if (!c.isActive) return "inactive";
  if (c.isExpired) return "expired";
  if (c.usageLimit !== null && c.usedCount >= c.usageLimit) return "usedUp";
  return "active";
}
const STATE_TONE = { active: "success", inactive: "neutral", expired: "warning", usedUp: "warning" };

const BLANK = { code: "", type: "percentage", value: "", minimumOrder: "0", expiryDate: "", usageLimit: "0", isActive: true };

// The terms one coupon and a generated batch share: type, value, minimum order, expiry, usage limit.
function CouponTermsFields({ form, errors, input, usageLabel }) {
  return (
    <>
      <Field label={st("type")} error={errors.type}>
        {(id) => (
          <select id={id} value={form.type} onChange={input("type")}>
            <option value="percentage">{st("percentage")}</option>
            <option value="fixed">{st("fixed")}</option>
          </select>
        )}
      </Field>
      <Field label={form.type === "percentage" ? st("valuePercent") : st("valueAmount")} error={errors.value}>
        {(id) => <input id={id} type="text" inputMode="decimal" dir="ltr" value={form.value} onChange={input("value")} required />}
      </Field>
      <Field label={st("minimumOrder")} error={errors.minimumOrder}>
        {(id) => <input id={id} type="text" inputMode="decimal" dir="ltr" value={form.minimumOrder} onChange={input("minimumOrder")} />}
      </Field>
      <Field label={st("expiry")} error={errors.expiryDate} hint={st("expiryHint")}>
        {(id) => <input id={id} type="date" value={form.expiryDate} onChange={input("expiryDate")} />}
      </Field>
      <Field label={usageLabel} error={errors.usageLimit} hint={st("usageLimitHint")}>
        {(id) => <input id={id} type="text" inputMode="decimal" dir="ltr" value={form.usageLimit} onChange={input("usageLimit")} />}
      </Field>
    </>
  );
}

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
        <CouponTermsFields form={form} errors={errors} input={input} usageLabel={st("usageLimit")} />
        <div className="field field--wide">
          <Toggle label={st("active")} checked={form.isActive} onChange={set("isActive")} />
        </div>
      </form>
    </Dialog>
  );
}

const GENERATE_BLANK = { prefix: "", count: "20", type: "percentage", value: "", minimumOrder: "0", expiryDate: "", usageLimit: "1" };

function GenerateForm({ onClose, onSaved }) {
  const [form, setForm] = useState(GENERATE_BLANK);
  const [errors, setErrors] = useState({});
  const [codes, setCodes] = useState(null);
  const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
  const input = (key) => (e) => setForm((prev) => ({ ...prev, [key]: e.target.value }));

  const send = async (event) => {
    event.preventDefault();
    const missing = {};
    if (!String(form.value).trim()) missing.value = st("required");
    if (!String(form.count).trim()) missing.count = st("required");
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const limit = parseInt(form.usageLimit, 10);
    const body = {
      prefix: form.prefix.trim().toUpperCase(),
      count: parseInt(form.count, 10) || 0,
      type: form.type,
      value: String(form.value).trim(),
      minimumOrder: String(form.minimumOrder || "0").trim(),
      expiryDate: form.expiryDate || null,
      usageLimit: Number.isNaN(limit) || limit <= 0 ? null : limit,
    };
    await submit(() => api("/api/admin/coupons/generate", { method: "POST", body }), {
      done: (created) => {
        toast(st("generated", { count: created.length }), "success");
        setCodes(created.map((c) => c.code));
        onSaved(created);
      },
      failText: () => st("generateFailed"),
    });
  };

  if (codes) {
    return (
      <Dialog
        open
        title={st("generatedTitle", { count: codes.length })}
        onClose={onClose}
        footer={
          <button type="button" className="button" onClick={onClose}>
            {at("close")}
          </button>
        }
      >
        <p className="admin-muted">{st("generatedHint")}</p>
        <textarea className="input admin-codes" dir="ltr" readOnly rows={Math.min(12, codes.length)} value={codes.join("\n")} aria-label={st("generatedCodes")} />
      </Dialog>
    );
  }
  return (
    <Dialog
      open
      title={st("generateTitle")}
      onClose={onClose}
      footer={<DialogFooter formId="coupon-generate-form" onCancel={onClose} busy={busy} submitLabel={st("generate")} />}
    >
      <form id="coupon-generate-form" className="admin-form-grid" onSubmit={send} noValidate>
        <Field label={st("prefix")} error={errors.prefix} hint={st("prefixHint")}>
          {(id) => (
            <input id={id} value={form.prefix} dir="ltr" maxLength={20} onChange={(e) => setForm((p) => ({ ...p, prefix: e.target.value.toUpperCase() }))} />
          )}
        </Field>
        <Field label={st("count")} error={errors.count} hint={st("countHint")}>
          {(id) => <input id={id} type="text" inputMode="decimal" dir="ltr" value={form.count} onChange={input("count")} required />}
        </Field>
        <CouponTermsFields form={form} errors={errors} input={input} usageLabel={st("usesPerCode")} />
      </form>
    </Dialog>
  );
}

function UsageDialog({ coupon, onClose }) {
  const { data, loading, error } = useAdminData(`/api/admin/coupons/${coupon.id}/orders?pageSize=100`);
  const rows = data?.results || [];
  return (
    <Dialog open wide title={st("usageTitle", { code: coupon.code })} onClose={onClose}>
      {error && <p className="alert alert--error">{st("usageFailed")}</p>}
      {loading && !data && <p className="admin-loading">{at("loading")}</p>}
      {data && !rows.length && <p className="admin-muted">{st("usageEmpty")}</p>}
      {rows.length > 0 && (
        <div className="admin-table admin-table--cards">
          <div className="admin-table__scroll">
            <table aria-label={st("usageTitle", { code: coupon.code })}>
              <thead>
                <tr>
                  <th>{st("order")}</th>
                  <th>{st("date")}</th>
                  <th>{st("customer")}</th>
                  <th>{st("orderStatus")}</th>
                  <th>{st("discount")}</th>
                  <th>{st("total")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((o) => (
                  <tr key={o.id}>
                    <td data-label={st("order")} dir="ltr" className="admin-order-number">{o.number}</td>
                    <td data-label={st("date")}>{formatDateTime(o.createdAt)}</td>
                    <td data-label={st("customer")}>
                      <bdi>{o.customerName}</bdi>
                      <div className="admin-muted" dir="ltr">{o.email}</div>
                    </td>
                    <td data-label={st("orderStatus")}>{st(`orderStatuses.${o.status}`)}</td>
                    <td data-label={st("discount")}>{money(o.discount)}</td>
                    <td data-label={st("total")}>{money(o.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
      {data && data.count > rows.length && <p className="admin-muted">{st("usageMore", { shown: rows.length, count: data.count })}</p>}
    </Dialog>
  );
}

export default function AdminCoupons({ permissions }) {
  const { data, setData, loading } = useAdminData("/api/admin/coupons", { fallback: [] });
  const [creating, setCreating] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [usageOf, setUsageOf] = useState(null);
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
      render: (c) => (
        <button
          type="button"
          className="button button--small button--ghost"
          onClick={() => setUsageOf(c)}
          aria-label={st("showUsage", { code: c.code })}
        >
          {st("usedOf", { used: c.usedCount, limit: c.usageLimit === null ? "∞" : c.usageLimit })}
        </button>
      ),
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
            <>
              <button type="button" className="button button--small" onClick={() => setCreating(true)}>
                {st("add")}
              </button>
              <button type="button" className="button button--small button--ghost" onClick={() => setGenerating(true)}>
                {st("generateOpen")}
              </button>
            </>
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
      {generating && (
        <GenerateForm
          onClose={() => setGenerating(false)}
          onSaved={(coupons) => setData((prev) => [...coupons, ...(prev || [])])}
        />
      )}
      {usageOf && <UsageDialog coupon={usageOf} onClose={() => setUsageOf(null)} />}
    </Section>
  );
}
