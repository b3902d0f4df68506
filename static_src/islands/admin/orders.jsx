// Orders section: search, status filter, select-all and bulk status, per-row status, detail.
import { useEffect, useState } from "react";
import {
  api,
  at,
  Badge,
  can,
  Dialog,
  userMessage,
  formatDateTime,
  Section,
  sectionStrings,
  StatusSelect,
  toast,
  DataTable,
  statusFilter,
  statusOptions,
  useServerList,
} from "./components/index.js";
import { formatEgp } from "../../lib/money.js";
import { currentLanguage } from "../../lib/i18n.js";
import en from "../../i18n/en/admin-orders.json";
import ar from "../../i18n/ar/admin-orders.json";

const st = sectionStrings("admin-orders", en, ar);
const STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"];
const BULK_STATUSES = ["processing", "shipped", "delivered", "cancelled"];
const PAYMENT_TONE = { paid: "success", cod: "info", awaiting: "warning", failed: "danger", refunded: "neutral" };
const STATUS_TONE = { pending: "warning", processing: "info", shipped: "info", delivered: "success", cancelled: "danger" };

const money = (amount) => formatEgp(amount, currentLanguage());

// Test orders (not money) and money captured on a cancelled order (refund or restore) stand out.
function OrderFlags({ order }) {
  return (
    <>
      {order.isTest && (
        <>
          {" "}
          <Badge kind="neutral" title={st("testHint")} data-flag="test">{st("testBadge")}</Badge>
        </>
      )}
      {order.needsAttention && (
        <>
          {" "}
          <Badge kind="danger" title={st(`attention.${order.attentionReason}`, { defaultValue: "" })} data-flag="attention">
            {st("attentionBadge")}
          </Badge>
        </>
      )}
    </>
  );
}

function OrderDetail({ orderId, onClose }) {
  const [order, setOrder] = useState(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!orderId) return;
    api(`/api/admin/orders/${orderId}`)
      .then(setOrder)
      .catch((err) => {
        console.error(err);
        setFailed(true);
      });
  }, [orderId]);
  const a = order?.address;
  return (
    <Dialog open={Boolean(orderId)} title={order ? st("detailTitle", { number: order.number }) : at("loading")} onClose={onClose} wide>
      {failed && <p className="alert alert--error">{st("detailFailed")}</p>}
      {!order && !failed && <p className="admin-loading">{at("loading")}</p>}
      {order && (
        <div className="admin-b-detail">
          <div className="admin-grid-2">
            <div>
              <h3>{st("customer")}</h3>
              <p>
                {order.customerName}
                <br />
                <a href={`mailto:${order.customerEmail}`}>{order.customerEmail}</a>
                <br />
                <span dir="ltr">{order.phone}</span>
              </p>
              <h3>{st("address")}</h3>
              <p>
                {[a.street, a.building && st("building", { value: a.building }), a.apartment && st("apartment", { value: a.apartment }), a.floor && st("floor", { value: a.floor })]
                  .filter(Boolean)
                  .join(", ")}
                <br />
                {[a.city, a.state, a.postalCode, a.country].filter(Boolean).join(", ")}
              </p>
            </div>
            <div>
              <h3>{st("paymentLabel")}</h3>
              {order.needsAttention && (
                <p className="alert alert--error" role="alert">{st(`attention.${order.attentionReason}`, { defaultValue: st("attentionBadge") })}</p>
              )}
              {order.isTest && <p className="alert alert--info">{st("testHint")}</p>}
              <p>
                <Badge kind={PAYMENT_TONE[order.paymentStatus]}>{st(`payment.${order.paymentStatus}`)}</Badge>{" "}
                {st(`method.${order.paymentMethod}`)}
              </p>
              <ul className="admin-list">
                {order.payments.map((p) => (
                  <li key={p.paymentId}>
                    <span dir="ltr">{p.paymentId}</span>
                    <span>
                      {money(p.amount)} · {st(`payment.${p.status}`)}
                    </span>
                  </li>
                ))}
              </ul>
              <p className="admin-muted">{st("placed", { date: formatDateTime(order.createdAt) })}</p>
            </div>
          </div>
          <h3>{st("items")}</h3>
          <div className="admin-table__scroll">
            <table className="admin-b-items">
              <thead>
                <tr>
                  <th>{st("product")}</th>
                  <th>{st("unitPrice")}</th>
                  <th>{st("quantity")}</th>
                  <th>{st("lineTotal")}</th>
                </tr>
              </thead>
              <tbody>
                {order.items.map((item) => (
                  <tr key={item.id}>
                    <td>{item.title}</td>
                    <td>{money(item.unitPrice)}</td>
                    <td>{item.quantity}</td>
                    <td>{money(item.lineTotal)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <dl className="admin-b-totals">
            <dt>{st("subtotal")}</dt>
            <dd>{money(order.subtotal)}</dd>
            {Number(order.discount) > 0 && (
              <>
                <dt>{st("discount", { code: order.couponCode })}</dt>
                <dd>−{money(order.discount)}</dd>
              </>
            )}
            <dt>{st("shipping")}</dt>
            <dd>{money(order.shipping)}</dd>
            {Number(order.codFee) > 0 && (
              <>
                <dt>{st("codFee")}</dt>
                <dd>{money(order.codFee)}</dd>
              </>
            )}
            <dt>{order.pricesIncludeTax ? st("taxIncluded") : st("tax")}</dt>
            <dd>{money(order.tax)}</dd>
            <dt className="admin-b-totals__total">{st("total")}</dt>
            <dd className="admin-b-totals__total">{money(order.total)}</dd>
          </dl>
          <h3>{st("history")}</h3>
          {order.history.length ? (
            <ol className="admin-b-history">
              {order.history.map((h, i) => (
                <li key={i}>
                  <strong>{h.fromStatus ? `${st(`status.${h.fromStatus}`)} → ` : ""}{st(`status.${h.toStatus}`)}</strong>
                  <span className="admin-muted">
                    {" "}
                    {formatDateTime(h.createdAt)}
                    {h.actor && ` · ${h.actor}`}
                  </span>
                  {h.note && <div className="admin-muted">{h.note}</div>}
                </li>
              ))}
            </ol>
          ) : (
            <p className="admin-muted">{st("noHistory")}</p>
          )}
        </div>
      )}
    </Dialog>
  );
}

export default function AdminOrders({ permissions }) {
  const table = useServerList("/api/admin/orders", { status: "" });
  const mayChange = can(permissions, "orders", "status");
  const [selected, setSelected] = useState(() => new Set());
  const [bulkStatus, setBulkStatus] = useState("processing");
  const [busy, setBusy] = useState(false);
  const [detailId, setDetailId] = useState(null);

  const changeStatus = async (order, status) => {
    try {
      const row = await api(`/api/admin/orders/${order.id}/status`, { method: "PUT", body: { status } });
      table.updateRow(row);
      toast(st("statusUpdated", { number: order.number, status: st(`status.${status}`) }), "success");
    } catch (err) {
      toast(userMessage(err, st("statusFailed")), "error");
    }
  };

  const applyBulk = async () => {
    if (!selected.size) {
      toast(st("noneSelected"), "error");
      return;
    }
    setBusy(true);
    try {
      const answer = await api("/api/admin/bulk/orders", {
        method: "PUT",
        body: { orderIds: [...selected], status: bulkStatus },
      });
      if (answer.failed.length) {
        toast(st("bulkPartial", { count: answer.updated, failed: answer.failed.map((f) => f.number).join(", ") }), "error");
      } else {
        toast(st("bulkUpdated", { count: answer.updated }), "success");
      }
      setSelected(new Set());
      table.reload();
    } catch (err) {
      toast(userMessage(err, st("bulkFailed")), "error");
    } finally {
      setBusy(false);
    }
  };

  const columns = [
    {
      key: "number",
      label: st("order"),
      render: (o) => (
        <>
          <button type="button" className="link-button" onClick={() => setDetailId(o.id)} dir="ltr">
            {o.number}
          </button>
          <OrderFlags order={o} />
        </>
      ),
    },
    {
      key: "customer",
      label: st("customer"),
      render: (o) => (
        <>
          {o.customerName}
          <div className="admin-muted">{o.customerEmail}</div>
        </>
      ),
    },
    { key: "createdAt", label: st("date"), render: (o) => formatDateTime(o.createdAt) },
    { key: "itemCount", label: st("itemCount") },
    { key: "total", label: st("total"), render: (o) => <span className="price">{money(o.total)}</span> },
    {
      key: "payment",
      label: st("paymentLabel"),
      render: (o) => <Badge kind={PAYMENT_TONE[o.paymentStatus]}>{st(`payment.${o.paymentStatus}`)}</Badge>,
    },
    {
      key: "status",
      label: st("statusLabel"),
      render: (o) =>
        mayChange ? (
          <StatusSelect
            value={o.status}
            options={statusOptions(st, STATUSES)}
            label={st("statusFor", { number: o.number })}
            onChange={(status) => changeStatus(o, status)}
          />
        ) : (
          <Badge kind={STATUS_TONE[o.status]}>{st(`status.${o.status}`)}</Badge>
        ),
    },
  ];

  const exportParams = new URLSearchParams();
  if (table.filters.status) exportParams.set("status", table.filters.status);
  if (table.search.trim()) exportParams.set("search", table.search.trim());
  const exportUrl = `/api/admin/orders/export${exportParams.size ? `?${exportParams}` : ""}`;

  return (
    <Section>
      <DataTable
        table={table}
        label={st("tableLabel")}
        searchPlaceholder={st("searchPlaceholder")}
        columns={columns}
        filters={[statusFilter(st, STATUSES)]}
        toolbar={
          <a className="button button--small button--ghost" href={exportUrl} download>
            {st("export")}
          </a>
        }
        selectable={mayChange}
        selected={selected}
        onSelectedChange={setSelected}
        emptyText={st("empty")}
        bulkBar={
          mayChange && (
            <>
              <select
                className="input admin-table__filter"
                aria-label={st("bulkStatus")}
                value={bulkStatus}
                onChange={(e) => setBulkStatus(e.target.value)}
              >
                {statusOptions(st, BULK_STATUSES).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              <button type="button" className="button button--small" onClick={applyBulk} disabled={busy}>
                {st("applyToSelected")}
              </button>
            </>
          )
        }
      />
      <OrderDetail key={detailId || "none"} orderId={detailId} onClose={() => setDetailId(null)} />
    </Section>
  );
}
