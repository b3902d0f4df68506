// Customers: search, add/edit dialog (first, last, email, phone), active toggle, totals from real orders.
import { useState } from "react";
import { DataTable, Dialog, DialogFooter, Field, Toggle, api, at, can, userMessage, formatDateTime, sectionStrings, toast, useSubmit, useAdminData } from "./components/index.js";
import { formatEgp } from "../../lib/money.js";
import en from "../../i18n/en/admin-customers.json";
import ar from "../../i18n/ar/admin-customers.json";

const st = sectionStrings("admin-customers", en, ar);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function CustomerDialog({ customer, onClose, onSaved }) {
  const [form, setForm] = useState({
    firstName: customer?.firstName || "", lastName: customer?.lastName || "",
    email: customer?.email || "", phone: customer?.phone || "",
  });
  const [errors, setErrors] = useState({});
  const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
  const set = (key) => (e) => {
    setForm((f) => ({ ...f, [key]: e.target.value }));
    setErrors((er) => ({ ...er, [key]: undefined }));
  };
  const validate = () => {
    const found = {};
    if (!form.firstName.trim()) found.firstName = st("firstNameRequired");
    if (!form.lastName.trim()) found.lastName = st("lastNameRequired");
    if (!form.email.trim()) found.email = st("emailRequired");
    else if (!EMAIL.test(form.email.trim())) found.email = st("emailInvalid");
    setErrors(found);
    return !Object.keys(found).length;
  };
  const save = async (e) => {
    e.preventDefault();
    if (!validate()) return;
    await submit(
      () =>
        customer
          ? api(`/api/admin/users/${customer.id}`, { method: "PUT", body: form })
          : api("/api/admin/users", { method: "POST", body: form }),
      {
        done: (saved) => {
          toast(customer ? st("updated") : st("created"), "success");
          onSaved(saved);
        },
        failText: (err) => userMessage(err, st("saveFailed")),
      },
    );
  };
  const input = (key, props = {}) => (id) => <input id={id} name={key} className="input" value={form[key]} onChange={set(key)} {...props} />;
  return (
    <Dialog
      open
      title={customer ? st("editCustomer") : st("addCustomer")}
      onClose={onClose}
      footer={<DialogFooter formId="customer-form" onCancel={onClose} busy={busy} />}
    >
      <form id="customer-form" onSubmit={save} noValidate className="admin-form-grid">
        <Field label={st("firstName")} error={errors.firstName}>{input("firstName", { autoComplete: "off" })}</Field>
        <Field label={st("lastName")} error={errors.lastName}>{input("lastName", { autoComplete: "off" })}</Field>
        <Field label={st("email")} error={errors.email}>{input("email", { type: "email", dir: "ltr" })}</Field>
        <Field label={st("phone")} error={errors.phone}>{input("phone", { type: "tel", dir: "ltr" })}</Field>
      </form>
    </Dialog>
  );
}

export default function Customers({ permissions, language }) {
  const { data, setData, loading } = useAdminData("/api/admin/users", { fallback: [] });
  const [editing, setEditing] = useState(null);
  const canEdit = can(permissions, "customers", "edit");
  const canCreate = can(permissions, "customers", "create");
  const replace = (c) => setData((rows) => rows.map((r) => (r.id === c.id ? c : r)));

  const toggleActive = async (customer, isActive) => {
    replace({ ...customer, isActive });
    try {
      replace(await api(`/api/admin/users/${customer.id}`, { method: "PUT", body: { isActive } }));
    } catch {
      replace(customer);
      toast(st("statusFailed"), "error");
    }
  };

  const columns = [
    { key: "name", label: st("name"), sortable: true, value: (c) => `${c.firstName} ${c.lastName}`, render: (c) => <strong>{`${c.firstName} ${c.lastName}`.trim() || "—"}</strong> },
    { key: "email", label: st("email"), sortable: true, render: (c) => <span dir="ltr">{c.email}</span> },
    { key: "phone", label: st("phone"), render: (c) => <span dir="ltr">{c.phone}</span> },
    { key: "totalOrders", label: st("orders"), sortable: true },
    { key: "totalSpent", label: st("spent"), sortable: true, value: (c) => Number(c.totalSpent), render: (c) => formatEgp(c.totalSpent, language) },
    { key: "createdAt", label: st("joined"), sortable: true, render: (c) => formatDateTime(c.createdAt) },
    {
      key: "isActive", label: st("active"),
      render: (c) => <Toggle label={<span className="visually-hidden">{st("active")}</span>} checked={c.isActive} disabled={!canEdit} onChange={(v) => toggleActive(c, v)} />,
    },
    {
      key: "actions", label: at("actions"), className: "admin-cell-wide",
      render: (c) => canEdit && <button type="button" className="button button--small button--ghost" onClick={() => setEditing(c)}>{at("edit")}</button>,
    },
  ];

  return (
    <div className="admin-panel">
      <DataTable
        label={st("customers")}
        rows={data}
        loading={loading}
        columns={columns}
        searchText={(c) => `${c.firstName} ${c.lastName} ${c.email} ${c.phone}`}
        searchPlaceholder={st("search")}
        filters={[{ key: "active", label: st("allCustomers"), options: [{ value: "1", label: at("active") }, { value: "0", label: at("inactive") }], match: (c, v) => c.isActive === (v === "1") }]}
        toolbar={canCreate && <button type="button" className="button button--small" onClick={() => setEditing("new")}>{st("addCustomer")}</button>}
        emptyText={st("empty")}
      />
      {editing && (
        <CustomerDialog
          customer={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(c) => {
            if (editing === "new") setData((rows) => [c, ...rows]);
            else replace(c);
            setEditing(null);
          }}
        />
      )}
    </div>
  );
}
