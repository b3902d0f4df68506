// Reviews section: status filter, search, approve / reject, respond, delete.
import { useState } from "react";
import {
  api,
  at,
  Badge,
  can,
  ConfirmDialog,
  Dialog,
  DialogFooter,
  userMessage,
  Field,
  formatDateTime,
  Section,
  sectionStrings,
  toast,
  useConfirmedDelete,
  useSubmit,
  DataTable,
  statusFilter,
  useServerList,
} from "./components/index.js";
import en from "../../i18n/en/admin-reviews.json";
import ar from "../../i18n/ar/admin-reviews.json";

const st = sectionStrings("admin-reviews", en, ar);

function Stars({ rating }) {
  return (
    <span className="admin-b-stars" role="img" aria-label={st("stars", { count: rating })}>
      {"★".repeat(rating)}
      <span className="admin-b-stars__off">{"★".repeat(5 - rating)}</span>
    </span>
  );
}

function ResponseDialog({ review, onClose, onSaved }) {
  const [text, setText] = useState(review.adminResponse || "");
  const [error, setError] = useState("");
  const [busy, submit] = useSubmit((_field, message) => setError(message));

  const save = async (event) => {
    event.preventDefault();
    if (!text.trim()) {
      setError(st("responseRequired"));
      return;
    }
    await submit(
      () => api(`/api/reviews/admin/${review.id}/response`, { method: "PUT", body: { adminResponse: text.trim() } }),
      {
        done: (saved) => {
          toast(st("responseSaved"), "success");
          onSaved(saved);
        },
        failText: (err) => userMessage(err, st("responseFailed")),
      },
    );
  };

  return (
    <Dialog
      open
      title={st("respondTitle", { title: review.title })}
      onClose={onClose}
      footer={<DialogFooter formId="response-form" onCancel={onClose} busy={busy} submitLabel={st("saveResponse")} />}
    >
      <blockquote className="admin-b-quote">
        <Stars rating={review.rating} /> <strong>{review.title}</strong>
        <br />
        {review.comment}
      </blockquote>
      <form id="response-form" onSubmit={save} noValidate>
        <Field label={st("responseLabel")} error={error} hint={st("responseHint")}>
          {(id) => (
            <textarea
              id={id}
              value={text}
              rows={5}
              onChange={(e) => {
                setText(e.target.value);
                setError("");
              }}
            />
          )}
        </Field>
      </form>
    </Dialog>
  );
}

export default function AdminReviews({ permissions }) {
  const table = useServerList("/api/reviews/admin", { status: "pending" }, {
    onError: () => toast(st("fetchFailed"), "error"),
  });
  const [responding, setResponding] = useState(null);
  const mayModerate = can(permissions, "messages", "edit");
  const mayRespond = can(permissions, "messages", "reply");
  const mayDelete = can(permissions, "messages", "delete");
  const counts = table.data.statusCounts || {};

  const setApproved = async (review, isApproved) => {
    try {
      await api(`/api/reviews/admin/${review.id}/approve`, { method: "PUT", body: { isApproved } });
      toast(isApproved ? st("approved") : st("rejected"), "success");
      table.reload(); // it may leave the filtered list
    } catch (err) {
      console.error(err);
      toast(st("updateFailed"), "error");
    }
  };

  const { deleting, ask: setDeleting, cancel, remove } = useConfirmedDelete({
    path: (r) => `/api/reviews/admin/${r.id}`,
    removed: () => {
      toast(st("deleted"), "success");
      table.reload();
    },
    failed: (err) => {
      console.error(err);
      toast(st("deleteFailed"), "error");
    },
  });

  const columns = [
    {
      key: "product",
      label: st("product"),
      render: (r) => (
        <>
          <strong>{r.productTitle}</strong>
          <div className="admin-muted">
            {r.userName} · {r.userEmail}
          </div>
        </>
      ),
    },
    {
      key: "review",
      label: st("review"),
      render: (r) => (
        <div className="admin-b-review">
          <Stars rating={r.rating} /> <strong>{r.title}</strong>
          <p>{r.comment}</p>
          {r.adminResponse && (
            <p className="admin-b-review__response">
              <span className="admin-muted">{st("ourResponse")}:</span> {r.adminResponse}
            </p>
          )}
        </div>
      ),
    },
    {
      key: "status",
      label: st("statusLabel"),
      render: (r) => (
        <span className="admin-row-actions">
          <Badge kind={r.isApproved ? "success" : "warning"}>{r.isApproved ? st("status.approved") : st("status.pending")}</Badge>
          {r.isVerified && <Badge kind="info">{st("verified")}</Badge>}
        </span>
      ),
    },
    { key: "createdAt", label: st("date"), render: (r) => formatDateTime(r.createdAt) },
  ];
  if (mayModerate || mayRespond || mayDelete) {
    columns.push({
      key: "actions",
      label: at("actions"),
      render: (r) => (
        <span className="admin-row-actions">
          {mayModerate &&
            (r.isApproved ? (
              <button type="button" className="button button--small button--ghost" onClick={() => setApproved(r, false)}>
                {st("reject")}
              </button>
            ) : (
              <button type="button" className="button button--small" onClick={() => setApproved(r, true)}>
                {st("approve")}
              </button>
            ))}
          {mayRespond && (
            <button type="button" className="button button--small button--ghost" onClick={() => setResponding(r)}>
              {r.adminResponse ? st("editResponse") : st("respond")}
            </button>
          )}
          {mayDelete && (
            <button type="button" className="button button--small button--danger" onClick={() => setDeleting(r)}>
              {at("delete")}
            </button>
          )}
        </span>
      ),
    });
  }

  return (
    <Section>
      <p className="admin-b-counts">
        <Badge kind="warning">
          {st("status.pending")}: {counts.pending ?? 0}
        </Badge>
        <Badge kind="success">
          {st("status.approved")}: {counts.approved ?? 0}
        </Badge>
      </p>
      <DataTable
        table={table}
        label={st("tableLabel")}
        searchPlaceholder={st("searchPlaceholder")}
        columns={columns}
        filters={[statusFilter(st, ["pending", "approved"])]}
        emptyText={st("empty")}
      />
      {responding && (
        <ResponseDialog
          review={responding}
          onClose={() => setResponding(null)}
          onSaved={(saved) => {
            table.updateRow(saved);
            setResponding(null);
          }}
        />
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        message={deleting ? st("confirmDelete", { title: deleting.title, name: deleting.userName }) : ""}
        confirmLabel={at("delete")}
        onConfirm={remove}
        onCancel={cancel}
      />
    </Section>
  );
}
