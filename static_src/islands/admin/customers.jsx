// Customers: search, add/edit dialog (first, last, email, phone), active toggle, totals from real orders.
import { useState } from "react";
import { Badge, DataTable, Dialog, DialogFooter, Field, Toggle, api, at, can, userMessage, formatDateTime, sectionStrings, toast, useServerList, useSubmit } from "./components/index.js";
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

// One row per e-mail across guest and registered orders, paged on the server; accounts can be
// edited and switched off, guests only listed.
export default function Customers({ permissions, language }) {
  const table = useServerList("/api/admin/customers", { kind: "" });
  const [editing, setEditing] = useState(null);
  const canEdit = can(permissions, "customers", "edit");
  const canCreate = can(permissions, "customers", "create");
  const rows = table.data.results.map((c) => ({ ...c, id: c.email }));

  const toggleActive = async (customer, isActive) => {
    try {
      await api(`/api/admin/users/${customer.userId}`, { method: "PUT", body: { isActive } });
      table.setData((prev) => ({ ...prev, results: prev.results.map((r) => (r.email === customer.email ? { ...r, isActive } : r)) }));
      toast(st(isActive ? "switchedOn" : "switchedOff", { email: customer.email }), "success");
    } catch (err) {
      toast(userMessage(err, st("statusFailed")), "error");
    }
  };

  const columns = [
    { key: "name", label: st("name"), render: (c) => <strong><bdi>{`${c.firstName} ${c.lastName}`.trim() || "—"}</bdi></strong> },
    { key: "email", label: st("email"), render: (c) => <span dir="ltr">{c.email}</span> },
    { key: "kind", label: st("kind"), render: (c) => <Badge kind={c.isGuest ? "neutral" : "info"}>{c.isGuest ? st("guest") : st("account")}</Badge> },
    { key: "phone", label: st("phone"), render: (c) => <span dir="ltr">{c.phone}</span> },
    { key: "totalOrders", label: st("orders") },
    { key: "totalSpent", label: st("spent"), render: (c) => formatEgp(c.totalSpent, language) },
    { key: "lastActivity", label: st("lastActivity"), render: (c) => formatDateTime(c.lastActivity) },
    {
      key: "isActive", label: st("active"),
      render: (c) => !c.isGuest && <Toggle label={<span className="visually-hidden">{st("active")}</span>} checked={Boolean(c.isActive)} disabled={!canEdit} onChange={(v) => toggleActive(c, v)} />,
    },
    {
      key: "actions", label: at("actions"), className: "admin-cell-wide",
      render: (c) => canEdit && !c.isGuest && <button type="button" className="button button--small button--ghost" onClick={() => setEditing({ ...c, id: c.userId })}>{at("edit")}</button>,
    },
  ];

  return (
    <div className="admin-panel">
      <DataTable
        table={{ ...table, data: { ...table.data, results: rows } }}
        label={st("customers")}
        columns={columns}
        searchPlaceholder={st("search")}
        filters={[{ key: "kind", label: st("kindLabel"), allLabel: st("allCustomers"), options: [{ value: "registered", label: st("accounts") }, { value: "guest", label: st("guests") }] }]}
        toolbar={canCreate && <button type="button" className="button button--small" onClick={() => setEditing("new")}>{st("addCustomer")}</button>}
        emptyText={st("empty")}
      />
      {editing && (
        <CustomerDialog
          customer={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            table.reload();
            setEditing(null);
          }}
        />
      )}
    </div>
  );
}
