// Messages section: contact messages by status, a status select, and a reply dialog that
// e-mails the sender and marks the message replied.
import { useState } from "react";
import {
  api,
  at,
  Badge,
  can,
  Dialog,
  DialogFooter,
  userMessage,
  Field,
  formatDateTime,
  Section,
  sectionStrings,
  StatusSelect,
  toast,
  useSubmit,
  DataTable,
  statusFilter,
  statusOptions,
  useServerList,
} from "./components/index.js";
import { currentLanguage } from "../../lib/i18n.js";
import { isolate } from "../../lib/bidi.js";
import en from "../../i18n/en/admin-messages.json";
import ar from "../../i18n/ar/admin-messages.json";

const st = sectionStrings("admin-messages", en, ar);
const STATUSES = ["new", "read", "replied", "closed"];
const TONE = { new: "warning", read: "neutral", replied: "success", closed: "info" };

function MessageDialog({ message, mayReply, onClose, onReplied }) {
  const [reply, setReply] = useState("");
  const [error, setError] = useState("");
  const [busy, submit] = useSubmit((_field, message) => setError(message));

  const send = async (event) => {
    event.preventDefault();
    if (!reply.trim()) {
      setError(st("replyRequired"));
      return;
    }
    setError("");
    await submit(
      () => api(`/api/admin/messages/${message.id}/reply`, { method: "POST", body: { replyMessage: reply.trim() } }),
      {
        done: (saved) => {
          toast(st("replySent", { email: message.email }), "success");
          onReplied(saved);
        },
        failText: (err) => userMessage(err, st("replyFailed")),
      },
    );
  };

  return (
    <Dialog
      open
      wide
      title={isolate(message.subject)}
      onClose={onClose}
      footer={
        <DialogFooter
          formId="reply-form"
          onCancel={onClose}
          cancelLabel={at("close")}
          canSubmit={mayReply}
          busy={busy}
          submitLabel={st("sendReply")}
          busyLabel={st("sending")}
        />
      }
    >
      <p className="admin-muted">
        {st("from", { name: message.name })} · <a href={`mailto:${message.email}`}>{message.email}</a> ·{" "}
        {formatDateTime(message.createdAt)}
      </p>
      <blockquote className="admin-b-quote">{message.message}</blockquote>
      {message.replyMessage && (
        <>
          <h3>{st("previousReply", { date: formatDateTime(message.repliedAt) })}</h3>
          <blockquote className="admin-b-quote admin-b-quote--reply">{message.replyMessage}</blockquote>
        </>
      )}
      {mayReply && (
        <form id="reply-form" onSubmit={send} noValidate>
          <Field label={st("replyLabel", { email: message.email })} error={error}>
            {(id) => (
              <textarea
                id={id}
                value={reply}
                onChange={(e) => {
                  setReply(e.target.value);
                  setError("");
                }}
                rows={6}
              />
            )}
          </Field>
        </form>
      )}
    </Dialog>
  );
}

export default function AdminMessages({ permissions }) {
  const table = useServerList("/api/admin/contact-messages", { status: "" });
  const [open, setOpen] = useState(null);
  const mayEdit = can(permissions, "messages", "edit");
  const mayReply = can(permissions, "messages", "reply");
  const counts = table.data.statusCounts || {};

  const changeStatus = async (message, status) => {
    try {
      const saved = await api(`/api/admin/contact-messages/${message.id}`, { method: "PUT", body: { status } });
      table.updateRow(saved);
      toast(st("statusUpdated"), "success");
    } catch (err) {
      console.error(err);
      toast(st("statusFailed"), "error");
    }
  };

  const columns = [
    {
      key: "from",
      label: st("fromLabel"),
      render: (m) => (
        <>
          <strong><bdi>{m.name}</bdi></strong>
          <div className="admin-muted"><bdi dir="ltr">{m.email}</bdi></div>
        </>
      ),
    },
    {
      key: "subject",
      label: st("subject"),
      render: (m) => (
        <>
          <button type="button" className="link-button" onClick={() => setOpen(m)}>
            <bdi>{m.subject}</bdi>
          </button>
          <div className="admin-muted admin-b-snippet" dir="auto">{m.message}</div>
        </>
      ),
    },
    { key: "createdAt", label: st("received"), render: (m) => formatDateTime(m.createdAt) },
    {
      key: "status",
      label: st("statusLabel"),
      render: (m) =>
        mayEdit ? (
          <StatusSelect value={m.status} options={statusOptions(st, STATUSES)} label={st("statusFor", { subject: isolate(m.subject) })} onChange={(s) => changeStatus(m, s)} />
        ) : (
          <Badge kind={TONE[m.status]}>{st(`status.${m.status}`)}</Badge>
        ),
    },
    {
      key: "actions",
      label: at("actions"),
      render: (m) => (
        <button type="button" className="button button--small button--ghost" onClick={() => setOpen(m)}>
          {mayReply ? st("reply") : st("view")}
        </button>
      ),
    },
  ];

  return (
    <Section>
      <p className="admin-b-counts">
        {STATUSES.map((s) => (
          <Badge key={s} kind={TONE[s]}>
            {st(`status.${s}`)}: {counts[s] ?? 0}
          </Badge>
        ))}
      </p>
      <DataTable
        table={table}
        label={st("tableLabel")}
        searchPlaceholder={st("searchPlaceholder")}
        columns={columns}
        filters={[statusFilter(st, STATUSES)]}
        emptyText={st("empty")}
      />
      {open && (
        <MessageDialog
          message={open}
          mayReply={mayReply}
          onClose={() => setOpen(null)}
          onReplied={(saved) => {
            table.updateRow(saved);
            setOpen(null);
          }}
        />
      )}
    </Section>
  );
}
