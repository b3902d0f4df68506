// Announcements section: the storefront's announcement bars; add, edit, delete, colours, dates.
import { useState } from "react";
import {
  api,
  at,
  Badge,
  can,
  ConfirmDialog,
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
  useConfirmedDelete,
  useSubmit,
} from "./components/index.js";
import { currentLanguage } from "../../lib/i18n.js";
import { addDays, storeDay } from "../../lib/store-day.js";
import { isolate } from "../../lib/bidi.js";
import en from "../../i18n/en/admin-announcements.json";
import ar from "../../i18n/ar/admin-announcements.json";

const st = sectionStrings("admin-announcements", en, ar);
const DEFAULT_RUN_DAYS = 30;

function blankForm() {
  // Cairo's today, not the browser's: the server reads a day as Cairo's (end of day for the end)
  const today = storeDay();
  return {
    title: "",
    content: "",
    link: "",
    linkLabel: "",
    titleAr: "",
    contentAr: "",
    linkLabelAr: "",
    arabicMissing: "hide",
    displayStartDate: today,
    displayEndDate: addDays(today, DEFAULT_RUN_DAYS),
    bannerColor: "#dc2626",
    textColor: "#ffffff",
    isActive: true,
    isMain: false,
  };
}

function formFrom(a) {
  return { ...a, displayStartDate: storeDay(a.displayStartDate), displayEndDate: storeDay(a.displayEndDate) };
}

function AnnouncementForm({ initial, onClose, onSaved }) {
  const [form, setForm] = useState(initial.id ? formFrom(initial) : blankForm());
  const [errors, setErrors] = useState({});
  const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
  const set = (key) => (value) => setForm((prev) => ({ ...prev, [key]: value }));
  const input = (key) => (e) => set(key)(e.target.value);
  // English and Arabic side by side; the Arabic half says so when it is empty
  const pair = (key, keyAr, control) => {
    const missing = String(form[key] || "").trim() !== "" && String(form[keyAr] || "").trim() === "";
    return (
      <div className="admin-lang-pair" data-lang-pair={key}>
        <Field label={st(key)} error={errors[key]}>{control(key, { dir: "ltr", lang: "en", name: key })}</Field>
        <Field label={st(keyAr)} error={errors[keyAr]} hint={missing ? st("missingArabic") : undefined}
               className={missing ? "field--missing" : ""}>{control(keyAr, { dir: "rtl", lang: "ar", name: keyAr })}</Field>
      </div>
    );
  };

  const send = async (event) => {
    event.preventDefault();
    const missing = {};
    for (const key of ["title", "content", "displayStartDate", "displayEndDate"]) {
      if (!String(form[key]).trim()) missing[key] = st("required");
    }
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const body = {
      title: form.title.trim(),
      content: form.content.trim(),
      link: form.link.trim(),
      linkLabel: (form.linkLabel || "").trim(),
      titleAr: (form.titleAr || "").trim(),
      contentAr: (form.contentAr || "").trim(),
      linkLabelAr: (form.linkLabelAr || "").trim(),
      arabicMissing: form.arabicMissing || "hide",
      displayStartDate: form.displayStartDate,
      displayEndDate: form.displayEndDate,
      bannerColor: form.bannerColor,
      textColor: form.textColor,
      isActive: form.isActive,
      isMain: form.isMain,
    };
    await submit(
      () =>
        initial.id
          ? api(`/api/admin/announcements/${initial.id}`, { method: "PUT", body })
          : api("/api/admin/announcements", { method: "POST", body }),
      {
        done: (saved) => {
          toast(st("saved"), "success");
          onSaved(saved);
        },
        failText: () => st("saveFailed"),
      },
    );
  };

  return (
    <Dialog
      open
      title={initial.id ? st("editTitle") : st("addTitle")}
      onClose={onClose}
      footer={<DialogFooter formId="announcement-form" onCancel={onClose} busy={busy} />}
    >
      <form id="announcement-form" className="admin-form-grid" onSubmit={send} noValidate>
        {pair("title", "titleAr", (key, props) => (id) => <input id={id} value={form[key] || ""} onChange={input(key)} maxLength={200} {...props} />)}
        {pair("content", "contentAr", (key, props) => (id) => <textarea id={id} value={form[key] || ""} onChange={input(key)} maxLength={2000} {...props} />)}
        <Field label={st("link")} error={errors.link} hint={st("linkHint")} className="field--wide">
          {(id) => <input id={id} value={form.link} onChange={input("link")} dir="ltr" placeholder="/shop" />}
        </Field>
        {pair("linkLabel", "linkLabelAr", (key, props) => (id) => <input id={id} value={form[key] || ""} onChange={input(key)} maxLength={80} {...props} />)}
        <Field label={st("arabicMissing")} error={errors.arabicMissing} className="field--wide">
          {(id) => (
            <select id={id} name="arabicMissing" value={form.arabicMissing || "hide"} onChange={input("arabicMissing")}>
              <option value="hide">{st("arabicMissingHide")}</option>
              <option value="english">{st("arabicMissingEnglish")}</option>
            </select>
          )}
        </Field>
        <Field label={st("start")} error={errors.displayStartDate}>
          {(id) => <input id={id} type="date" value={form.displayStartDate} onChange={input("displayStartDate")} required />}
        </Field>
        <Field label={st("end")} error={errors.displayEndDate}>
          {(id) => <input id={id} type="date" value={form.displayEndDate} onChange={input("displayEndDate")} required />}
        </Field>
        <Field label={st("bannerColor")} error={errors.bannerColor}>
          {(id) => <input id={id} type="color" value={form.bannerColor} onChange={input("bannerColor")} className="admin-b-color" />}
        </Field>
        <Field label={st("textColor")} error={errors.textColor}>
          {(id) => <input id={id} type="color" value={form.textColor} onChange={input("textColor")} className="admin-b-color" />}
        </Field>
        <div className="field field--wide admin-b-toggles">
          <Toggle label={st("active")} checked={form.isActive} onChange={set("isActive")} />
          <Toggle label={st("main")} checked={form.isMain} onChange={set("isMain")} />
        </div>
        <div className="field field--wide">
          <span className="admin-muted">{st("preview")}</span>
          <div className="admin-b-preview" style={{ background: form.bannerColor, color: form.textColor }}>
            <strong>{form.title || st("title")}</strong> {form.content}
          </div>
        </div>
      </form>
    </Dialog>
  );
}

export default function AdminAnnouncements({ permissions }) {
  const { data, setData, loading } = useAdminData("/api/admin/announcements", { fallback: [] });
  const [editing, setEditing] = useState(null);
  const rows = data || [];
  const mayCreate = can(permissions, "coupons", "create");
  const mayEdit = can(permissions, "coupons", "edit");
  const mayDelete = can(permissions, "coupons", "delete");

  const saved = (announcement) => {
    setData((prev) => {
      const others = (prev || []).map((a) => (announcement.isMain && a.id !== announcement.id ? { ...a, isMain: false } : a));
      return others.some((a) => a.id === announcement.id)
        ? others.map((a) => (a.id === announcement.id ? announcement : a))
        : [announcement, ...others];
    });
    setEditing(null);
  };

  const { deleting, ask: setDeleting, cancel, remove } = useConfirmedDelete({
    path: (a) => `/api/admin/announcements/${a.id}`,
    removed: (gone) => {
      setData((prev) => prev.filter((a) => a.id !== gone.id));
      toast(st("deleted"), "success");
    },
    failed: (err) => {
      console.error(err);
      toast(st("deleteFailed"), "error");
    },
  });

  const columns = [
    {
      key: "title",
      label: st("title"),
      sortable: true,
      render: (a) => (
        <>
          <span className="admin-b-swatch" style={{ background: a.bannerColor, color: a.textColor }} aria-hidden="true">
            A
          </span>{" "}
          <strong><bdi>{currentLanguage() === "ar" && a.titleAr ? a.titleAr : a.title}</bdi></strong>
          <div className="admin-muted" dir="auto">{currentLanguage() === "ar" && a.contentAr ? a.contentAr : a.content}</div>
        </>
      ),
    },
    { key: "displayStartDate", label: st("start"), sortable: true, render: (a) => formatDateTime(a.displayStartDate) },
    { key: "displayEndDate", label: st("end"), sortable: true, render: (a) => formatDateTime(a.displayEndDate) },
    {
      key: "state",
      label: st("state"),
      render: (a) => (
        <span className="admin-row-actions">
          {a.isLive ? <Badge kind="success">{st("live")}</Badge> : <Badge>{a.isActive ? st("scheduled") : at("inactive")}</Badge>}
          {a.isMain && <Badge kind="info">{st("main")}</Badge>}
        </span>
      ),
    },
  ];
  if (mayEdit || mayDelete) {
    columns.push({
      key: "actions",
      label: at("actions"),
      render: (a) => (
        <span className="admin-row-actions">
          {mayEdit && (
            <button type="button" className="button button--small button--ghost" onClick={() => setEditing(a)}>
              {at("edit")}
            </button>
          )}
          {mayDelete && (
            <button type="button" className="button button--small button--danger" onClick={() => setDeleting(a)}>
              {at("delete")}
            </button>
          )}
        </span>
      ),
    });
  }

  return (
    <Section>
      <DataTable
        rows={rows}
        columns={columns}
        label={st("tableLabel")}
        loading={loading}
        searchText={(a) => `${a.title} ${a.content}`}
        filters={[
          {
            key: "state",
            label: st("state"),
            allLabel: st("allStates"),
            options: [
              { value: "live", label: st("live") },
              { value: "inactive", label: at("inactive") },
            ],
            match: (a, v) => (v === "live" ? a.isLive : !a.isActive),
          },
        ]}
        emptyText={st("empty")}
        toolbar={
          mayCreate && (
            <button type="button" className="button button--small" onClick={() => setEditing({})}>
              {st("add")}
            </button>
          )
        }
      />
      {editing && <AnnouncementForm initial={editing} onClose={() => setEditing(null)} onSaved={saved} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        message={deleting ? st("confirmDelete", { title: deleting.title }) : ""}
        confirmLabel={at("delete")}
        onConfirm={remove}
        onCancel={cancel}
      />
    </Section>
  );
}
