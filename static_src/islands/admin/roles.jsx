// Roles: the permission matrix for everyone; staff users (create/edit/delete) and sign-in lockouts
// for the Owner only.
import { useState } from "react";
import {
  Badge, ConfirmDialog, DataTable, Dialog, DialogFooter, Field, Section, Toggle, api, at, camel, userMessage, formatDateTime,
  sectionStrings, toast, useConfirmedDelete, useSubmit, useAdminData,
} from "./components/index.js";
import en from "../../i18n/en/admin-roles.json";
import ar from "../../i18n/ar/admin-roles.json";

const st = sectionStrings("admin-roles", en, ar);
const ALL_ACTIONS = 7; // view, create, edit, delete, status, reply, export
const ROLE_ORDER = ["owner", "manager", "head_support", "support"];

function Matrix({ roles }) {
  if (!roles) return <p className="admin-loading">{at("loading")}</p>;
  return (
    // on a phone each area is a card naming every role's rights (admin-table--cards): four roles side by side ran
    // past a 360 px screen
    <div className="admin-table admin-table--cards"><div className="admin-table__scroll">
      <table className="admin-matrix">
        <thead>
          <tr>
            <th>{st("area")}</th>
            {roles.roles.map((r) => <th key={r.value}>{r.label}</th>)}
          </tr>
        </thead>
        <tbody>
          {roles.areas.map((area) => (
            <tr key={area.key}>
              <td className="admin-cell-wide">{area.label}</td>
              {roles.roles.map((r) => {
                const actions = (roles.permissions[camel(r.value)] || {})[camel(area.key)] || [];
                return (
                  <td key={r.value} data-label={r.label}>
                    {actions.length === ALL_ACTIONS ? st("action_all") : actions.length ? actions.map((a) => st(`action_${a}`)).join(st("listSeparator")) : "—"}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div></div>
  );
}

function StaffDialog({ user, roles, onClose, onSaved }) {
  const [form, setForm] = useState({
    username: user?.username || "", email: user?.email || "", password: "",
    role: user?.role || "support", isActive: user ? user.isActive : true,
  });
  const [errors, setErrors] = useState({});
  const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
  const set = (key, value) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const save = async (e) => {
    e.preventDefault();
    const found = {};
    if (!form.username.trim()) found.username = st("usernameRequired");
    if (!form.email.trim()) found.email = st("emailRequired");
    if (!user && !form.password) found.password = st("passwordRequired");
    if (Object.keys(found).length) {
      setErrors(found);
      return;
    }
    const body = { ...form, username: form.username.trim(), email: form.email.trim() };
    await submit(
      () =>
        user
          ? api(`/api/admin/users/admin/${user.id}`, { method: "PUT", body })
          : api("/api/admin/users/admin", { method: "POST", body }),
      {
        done: (saved) => {
          toast(user ? st("updated") : st("created_toast"), "success");
          onSaved(saved);
        },
        failText: (err) => userMessage(err, st("saveFailed")),
      },
    );
  };
  return (
    <Dialog
      open
      title={user ? st("editUser") : st("addUser")}
      onClose={onClose}
      footer={<DialogFooter formId="staff-form" onCancel={onClose} busy={busy} />}
    >
      <form id="staff-form" onSubmit={save} noValidate>
        <Field label={st("username")} error={errors.username}>
          {(id) => <input id={id} name="username" className="input" dir="ltr" autoComplete="off" value={form.username} onChange={(e) => set("username", e.target.value)} />}
        </Field>
        <Field label={st("email")} error={errors.email}>
          {(id) => <input id={id} name="email" type="email" className="input" dir="ltr" value={form.email} onChange={(e) => set("email", e.target.value)} />}
        </Field>
        <Field label={st("password")} hint={user ? st("passwordKeep") : null} error={errors.password}>
          {(id) => <input id={id} name="password" type="password" className="input" autoComplete="new-password" value={form.password} onChange={(e) => set("password", e.target.value)} />}
        </Field>
        <Field label={st("role")} error={errors.role}>
          {(id) => (
            <select id={id} name="role" className="input" value={form.role} onChange={(e) => set("role", e.target.value)}>
              {/* the Owner role cannot be chosen */}
              {roles.roles.filter((r) => r.value !== "owner").map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
            </select>
          )}
        </Field>
        <Toggle label={at("active")} checked={form.isActive} onChange={(v) => set("isActive", v)} />
      </form>
    </Dialog>
  );
}

function StaffUsers({ roles }) {
  const { data, setData, loading } = useAdminData("/api/admin/users/admin", { fallback: [] });
  const [editing, setEditing] = useState(null);
  const [resetting, setResetting] = useState(null);
  const resetTwoStep = async () => {
    const user = resetting;
    setResetting(null);
    try {
      await api(`/api/admin/users/admin/${user.id}/two-step/reset`, { method: "POST" });
      setData((rows) => rows.map((r) => (r.id === user.id ? { ...r, twoStep: false } : r)));
      toast(st("twoStepResetDone", { username: user.username }), "success");
    } catch (err) {
      toast(userMessage(err, st("twoStepFailed")), "error");
    }
  };
  const label = (value) => roles.roles.find((r) => r.value === value)?.label || value;

  const { deleting, ask: setDeleting, cancel, remove } = useConfirmedDelete({
    path: (u) => `/api/admin/users/admin/${u.id}`,
    removed: (gone) => {
      setData((rows) => rows.filter((r) => r.id !== gone.id));
      toast(st("deleted"), "success");
    },
    failed: (err) => toast(userMessage(err, st("deleteFailed")), "error"),
  });

  const columns = [
    { key: "username", label: st("username"), sortable: true, render: (u) => <strong><bdi dir="ltr">{u.username}</bdi></strong> },
    { key: "email", label: st("email"), sortable: true, render: (u) => <span dir="ltr">{u.email}</span> },
    { key: "role", label: st("role"), sortable: true, value: (u) => ROLE_ORDER.indexOf(u.role), render: (u) => <Badge kind={u.isOwner ? "warning" : "info"}>{label(u.role)}</Badge> },
    { key: "isActive", label: st("status"), render: (u) => <Badge kind={u.isActive ? "success" : "neutral"}>{u.isActive ? at("active") : at("inactive")}</Badge> },
    { key: "twoStep", label: st("twoStep"), render: (u) => <Badge kind={u.twoStep ? "success" : "neutral"}>{u.twoStep ? st("twoStepOn") : st("twoStepOff")}</Badge> },
    { key: "createdAt", label: st("created"), sortable: true, render: (u) => formatDateTime(u.createdAt) },
    {
      key: "actions", label: at("actions"), className: "admin-cell-wide",
      render: (u) => u.isOwner ? <span className="admin-muted">{st("ownerLocked")}</span> : (
        <div className="admin-row-actions">
          <button type="button" className="button button--small button--ghost" onClick={() => setEditing(u)}>{at("edit")}</button>
          {u.twoStep && <button type="button" className="button button--small button--ghost" onClick={() => setResetting(u)}>{st("twoStepReset")}</button>}
          <button type="button" className="button button--small button--danger" onClick={() => setDeleting(u)}>{at("delete")}</button>
        </div>
      ),
    },
  ];
  return (
    <Section title={st("staffUsers")}>
      <DataTable
        label={st("staffUsers")}
        rows={data}
        loading={loading}
        columns={columns}
        searchText={(u) => `${u.username} ${u.email}`}
        filters={[{ key: "role", label: st("allRoles"), options: roles.roles.map((r) => ({ value: r.value, label: r.label })), match: (u, v) => u.role === v }]}
        toolbar={<button type="button" className="button button--small" onClick={() => setEditing("new")}>{st("addUser")}</button>}
      />
      {editing && (
        <StaffDialog
          user={editing === "new" ? null : editing}
          roles={roles}
          onClose={() => setEditing(null)}
          onSaved={(u) => {
            setData((rows) => (editing === "new" ? [...rows, u] : rows.map((r) => (r.id === u.id ? u : r))));
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog open={!!deleting} message={st("confirmDelete", { username: deleting?.username })} onConfirm={remove} onCancel={cancel} />
      <ConfirmDialog open={!!resetting} message={st("twoStepResetConfirm", { username: resetting?.username })} confirmLabel={st("twoStepReset")} onConfirm={resetTwoStep} onCancel={() => setResetting(null)} />
    </Section>
  );
}

// Accounts locked out of signing in from one address (django-axes); the Owner lets them in again.
function Lockouts() {
  const { data, setData, loading } = useAdminData("/api/admin/lockouts", { fallback: [] });
  const [busy, setBusy] = useState(null);
  const unlock = async (row) => {
    setBusy(row.username);
    try {
      await api("/api/admin/lockouts/unlock", { method: "POST", body: { username: row.username } });
      setData((rows) => rows.filter((r) => r.username.toLowerCase() !== row.username.toLowerCase()));
      toast(st("unlocked", { username: row.username }), "success");
    } catch (err) {
      toast(userMessage(err, st("unlockFailed")), "error");
    } finally {
      setBusy(null);
    }
  };
  const columns = [
    { key: "username", label: st("lockedAccount"), sortable: true, render: (r) => <strong dir="ltr">{r.username}</strong> },
    { key: "ipAddress", label: st("address"), render: (r) => <span dir="ltr">{r.ipAddress || "—"}</span> },
    { key: "failures", label: st("failures"), sortable: true },
    { key: "lastAttemptAt", label: st("lastAttempt"), sortable: true, render: (r) => formatDateTime(r.lastAttemptAt) },
    {
      key: "actions", label: at("actions"),
      render: (r) => (
        <button type="button" className="button button--small" disabled={busy === r.username} onClick={() => unlock(r)}>
          {st("unlock")}
        </button>
      ),
    },
  ];
  return (
    <Section title={st("lockouts")}>
      <p className="admin-muted">{st("lockoutsHelp")}</p>
      <DataTable label={st("lockouts")} rows={data} loading={loading} columns={columns} searchText={(r) => `${r.username} ${r.ipAddress || ""}`} />
    </Section>
  );
}

// Two-step sign-in of one's own account (any staff member): the app's QR code and secret, one code to
// confirm with the password (a session alone may not turn it on), the recovery codes shown once; off with
// the password and a code.
function TwoStep() {
  const { data, setData, loading } = useAdminData("/api/admin/two-step");
  const [setup, setSetup] = useState(null);
  const [codes, setCodes] = useState(null);
  const [turningOff, setTurningOff] = useState(false);
  const [form, setForm] = useState({ code: "", password: "" });
  const [errors, setErrors] = useState({});
  const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
  const set = (key, value) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const reset = () => {
    setForm({ code: "", password: "" });
    setErrors({});
  };
  const start = () => submit(() => api("/api/admin/two-step/setup", { method: "POST" }), {
    done: (answer) => {
      reset();
      setSetup(answer);
    },
    failText: (err) => userMessage(err, st("twoStepFailed")),
  });
  const confirm = (e) => {
    e.preventDefault();
    const found = {};
    if (!form.code.trim()) found.code = st("twoStepCodeRequired");
    if (!form.password) found.password = st("passwordRequired");
    if (Object.keys(found).length) return setErrors(found);
    return submit(() => api("/api/admin/two-step/confirm", { method: "POST", body: { code: form.code.trim(), password: form.password } }), {
      done: (answer) => {
        setSetup(null);
        setCodes(answer.recoveryCodes);
        setData({ enabled: true, recoveryCodesLeft: answer.recoveryCodes.length });
        reset();
        toast(st("twoStepOnToast"), "success");
      },
      failText: (err) => userMessage(err, st("twoStepFailed")),
    });
  };
  const turnOff = (e) => {
    e.preventDefault();
    const found = {};
    if (!form.password) found.password = st("passwordRequired");
    if (!form.code.trim()) found.code = st("twoStepCodeRequired");
    if (Object.keys(found).length) return setErrors(found);
    return submit(
      () => api("/api/admin/two-step/disable", { method: "POST", body: { password: form.password, code: form.code.trim() } }),
      {
        done: (answer) => {
          setData(answer);
          setTurningOff(false);
          setCodes(null);
          reset();
          toast(st("twoStepOffToast"), "success");
        },
        failText: (err) => userMessage(err, st("twoStepFailed")),
      },
    );
  };
  const passwordField = (hint) => (
    <Field label={st("password")} hint={hint} error={errors.password}>
      {(id) => <input id={id} name="password" type="password" className="input" autoComplete="current-password" value={form.password} onChange={(e) => set("password", e.target.value)} />}
    </Field>
  );
  const codeInput = (id) => (
    <input id={id} name="code" className="input admin-two-step__code" dir="ltr" inputMode="numeric" autoComplete="one-time-code"
      value={form.code} onChange={(e) => set("code", e.target.value)} />
  );

  let body;
  if (loading && !data) body = <p className="admin-loading">{at("loading")}</p>;
  else if (codes) {
    body = (
      <div className="admin-two-step">
        <p className="alert alert--info" role="status">{st("twoStepCodesOnce")}</p>
        <ol className="admin-two-step__codes">
          {codes.map((c) => <li key={c}><code dir="ltr">{c}</code></li>)}
        </ol>
        <button type="button" className="button button--small" onClick={() => setCodes(null)}>{st("twoStepCodesSaved")}</button>
      </div>
    );
  } else if (setup) {
    body = (
      <form className="admin-two-step" onSubmit={confirm} noValidate>
        <p>{st("twoStepScan")}</p>
        {/* segno's SVG, made on the server from the otpauth address: no script, no outside reference */}
        <div className="admin-two-step__qr" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
        <p className="admin-muted">{st("twoStepSecret")}</p>
        <p className="admin-two-step__secret"><code dir="ltr">{setup.secret.match(/.{1,4}/g).join(" ")}</code></p>
        <Field label={st("twoStepCode")} hint={st("twoStepConfirmHint")} error={errors.code}>{codeInput}</Field>
        {passwordField(st("twoStepPasswordHint"))}
        <div className="admin-row-actions">
          <button type="submit" className="button button--small" disabled={busy}>{st("twoStepConfirm")}</button>
          <button type="button" className="button button--small button--ghost" onClick={() => setSetup(null)}>{at("cancel")}</button>
        </div>
      </form>
    );
  } else if (data?.enabled) {
    body = (
      <div className="admin-two-step">
        <p><Badge kind="success">{st("twoStepOn")}</Badge> {st("twoStepCodesLeft", { count: data.recoveryCodesLeft })}</p>
        {turningOff ? (
          <form onSubmit={turnOff} noValidate>
            {passwordField(null)}
            <Field label={st("twoStepCode")} hint={st("twoStepOffHint")} error={errors.code}>{codeInput}</Field>
            <div className="admin-row-actions">
              <button type="submit" className="button button--small button--danger" disabled={busy}>{st("twoStepTurnOff")}</button>
              <button type="button" className="button button--small button--ghost" onClick={() => { setTurningOff(false); reset(); }}>{at("cancel")}</button>
            </div>
          </form>
        ) : (
          <button type="button" className="button button--small button--ghost" onClick={() => setTurningOff(true)}>{st("twoStepTurnOff")}</button>
        )}
      </div>
    );
  } else {
    body = (
      <div className="admin-two-step">
        <p><Badge kind="neutral">{st("twoStepOff")}</Badge> {st("twoStepWhy")}</p>
        <button type="button" className="button button--small" disabled={busy} onClick={start}>{st("twoStepTurnOn")}</button>
      </div>
    );
  }
  return (
    <div id="two-step">
      <Section title={st("twoStep")}>{body}</Section>
    </div>
  );
}

export default function Roles({ role }) {
  const { data: roles } = useAdminData("/api/admin/roles");
  return (
    <div className="admin-content__stack">
      <TwoStep />
      {role === "owner" ? (
        <>
          {roles && <StaffUsers roles={roles} />}
          <Lockouts />
        </>
      ) : (
        <p className="alert alert--info" role="status">{st("ownerOnly")}</p>
      )}
      <Section title={st("matrix")}>
        <Matrix roles={roles} />
      </Section>
    </div>
  );
}
