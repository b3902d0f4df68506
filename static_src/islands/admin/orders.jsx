// Orders section: search, status filter, select-all and bulk status, per-row status, detail.
import { useEffect, useRef, useState } from "react";
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
  OrderNumber,
  withOrderNumber,
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
import { forwardArrow, isolate } from "../../lib/bidi.js";
import { westernDigits } from "../../lib/digits.js";
import { Fragment } from "react";
import en from "../../i18n/en/admin-orders.json";
import ar from "../../i18n/ar/admin-orders.json";

// typed pieces of an address, each isolated, joined with the reader's comma ("،" in Arabic)
function Isolated({ items }) {
  const sep = currentLanguage() === "ar" ? "، " : ", ";
  return items.filter(Boolean).map((item, i) => <Fragment key={i}>{i > 0 && sep}<bdi>{item}</bdi></Fragment>);
}

const st = sectionStrings("admin-orders", en, ar);
const STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"];
const BULK_STATUSES = ["processing", "shipped", "delivered", "cancelled"];
const PAYMENT_TONE = { paid: "success", cod: "info", awaiting: "warning", failed: "danger", refunded: "neutral" };
const STATUS_TONE = { pending: "warning", processing: "info", shipped: "info", delivered: "success", cancelled: "danger" };

const money = (amount) => formatEgp(amount, currentLanguage());

// an order awaiting cash at an Aman or Masary outlet says so, not just "Awaiting payment"
const paymentText = (order) => (order.awaitsKioskCash ? st("kioskBadge") : st(`payment.${order.paymentStatus}`));

// moving these on ships (or gets ready to ship) tea no money has arrived for: card payments awaited or
// declined (cash on delivery is paid at the door, so it is not among them)
const UNPAID = ["awaiting", "failed"];
const unpaidOnTheWay = (orders, status) =>
  ["processing", "shipped", "delivered"].includes(status) ? orders.filter((o) => UNPAID.includes(o.paymentStatus)) : [];
// order numbers kept left-to-right (isolated) in an Arabic sentence, joined with the reader's comma
const numbersText = (orders) => orders.map((o) => `\u2066${o.number}\u2069`).join(currentLanguage() === "ar" ? "، " : ", ");

// every reason an order is flagged for that is still open, oldest first, each in the reader's language
// (a refund due on a cash-on-delivery order is cash to give back by hand, not a payment to refund in Paymob)
const attentionKey = (order, reason) => (reason === "refund_due" && order.paymentMethod === "cod" ? "refund_due_cash" : reason);
const attentionTexts = (order) => order.attentionReasons.map((reason) => st(`attention.${attentionKey(order, reason)}`, { defaultValue: st("attentionBadge") }));

// Test orders (not money) and orders flagged for staff (money captured on a cancelled order, money
// returned to check in Paymob...) stand out; the badge names every open reason, and counts them when
// there are several.
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
          <Badge kind="danger" title={attentionTexts(order).join("\n")} data-flag="attention" data-reasons={order.attentionReasons.join(" ")}>
            {order.attentionReasons.length > 1 ? st("attentionBadgeCount", { n: order.attentionReasons.length }) : st("attentionBadge")}
          </Badge>
        </>
      )}
    </>
  );
}

// "Mark as checked" beside an alert staff settle by a check in Paymob's dashboard (the server lists them:
// attentionToCheck): clears that reason, never the others or the status
function MarkCheckedButton({ order, reason, onChecked }) {
  const [busy, setBusy] = useState(false);
  const mark = async () => {
    setBusy(true);
    try {
      const row = await api(`/api/admin/orders/${order.id}/checked`, { method: "POST", body: { reason } });
      onChecked(row);
      toast(st(`markedChecked.${reason}`, { number: order.number }), "success");
    } catch (err) {
      toast(userMessage(err, st("markCheckedFailed")), "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button button--small" onClick={mark} disabled={busy} title={st("markCheckedHint")} data-mark-checked>
      {st("markChecked")}
    </button>
  );
}

// "Record cash refund" on a paid cash-on-delivery order: staff gave money back in cash (tea returned after
// it was paid at the door). Asked again naming the amount; the server decides what may be refunded (above
// 0, at most what is left: orders.actions.order_cash_refund) and its message is shown when it refuses.
function CashRefund({ order, onRefunded }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const typed = westernDigits(amount.trim());
  // each step replaces the button just pressed: the focus moves on to the next step's control (the amount, the
  // confirmation's way back, or "Record cash refund" again), not to the page's start
  const amountRef = useRef(null);
  const backRef = useRef(null);
  const openRef = useRef(null);
  const stepped = useRef(false);
  useEffect(() => {
    if (!stepped.current) { stepped.current = true; return; }
    (asking ? backRef : open ? amountRef : openRef).current?.focus();
  }, [open, asking]);
  const close = () => {
    setOpen(false);
    setAsking(false);
    setAmount("");
    setError("");
  };
  const record = async () => {
    setBusy(true);
    try {
      await api(`/api/admin/orders/${order.id}/cash-refund`, { method: "POST", body: { amount: typed } });
      toast(st("cashRefunded", { amount: money(typed), number: `\u2066${order.number}\u2069` }), "success");
      close();
      onRefunded();
    } catch (err) {
      setAsking(false);
      setError(userMessage(err, st("cashRefundFailed")));
    } finally {
      setBusy(false);
    }
  };
  if (!open) {
    return (
      <button ref={openRef} type="button" className="button button--small" onClick={() => setOpen(true)} data-cash-refund>
        {st("cashRefund")}
      </button>
    );
  }
  return (
    <form className="admin-b-cash-refund" noValidate data-cash-refund-form onSubmit={(e) => { e.preventDefault(); if (!typed) return; setError(""); if (Number.isFinite(Number(typed))) setAsking(true); else record(); }}>
      <Field label={st("cashRefundAmount")} hint={st("cashRefundHint", { amount: money(Number(order.total) - Number(order.refunded)) })} error={error}>
        {(id) => <input ref={amountRef} id={id} className="input" type="text" inputMode="decimal" dir="ltr" value={amount} disabled={asking} onChange={(e) => { setAmount(e.target.value); setError(""); }} />}
      </Field>
      {asking ? (
        <div className="alert alert--info" role="alert" data-cash-refund-confirm>
          <p>{withOrderNumber(st, "cashRefundConfirm", { amount: money(typed), number: order.number })}</p>
          <button ref={backRef} type="button" className="button button--ghost button--small" onClick={() => setAsking(false)}>{at("cancel")}</button>{" "}
          <button type="button" className="button button--small" onClick={record} disabled={busy} data-confirm>{st("cashRefundRecord")}</button>
        </div>
      ) : (
        <p>
          <button type="button" className="button button--ghost button--small" onClick={close}>{at("cancel")}</button>{" "}
          <button type="submit" className="button button--small" disabled={!typed}>{st("cashRefundContinue")}</button>
        </p>
      )}
    </form>
  );
}

function OrderDetail({ orderId, onClose, mayChange, mayCheck, onRowChanged }) {
  const [order, setOrder] = useState(null);
  const [failed, setFailed] = useState(false);
  const [loads, setLoads] = useState(0); // read again after a cash refund: its totals, payments and flags
  useEffect(() => {
    if (!orderId) return;
    api(`/api/admin/orders/${orderId}`)
      .then((read) => {
        setOrder(read);
        if (loads) onRowChanged(read);
      })
      .catch((err) => {
        console.error(err);
        setFailed(true);
      });
  }, [orderId, loads]);
  const a = order?.address;
  return (
    <Dialog open={Boolean(orderId)} title={order ? withOrderNumber(st, "detailTitle", { number: order.number }) : at("loading")} onClose={onClose} wide>
      {failed && <p className="alert alert--error">{st("detailFailed")}</p>}
      {!order && !failed && <p className="admin-loading">{at("loading")}</p>}
      {order && (
        <div className="admin-b-detail">
          <div className="admin-grid-2">
            <div>
              <h3>{st("customer")}</h3>
              <p>
                <bdi>{order.customerName}</bdi>
                <br />
                <a href={`mailto:${order.customerEmail}`} dir="ltr">{order.customerEmail}</a>
                <br />
                <bdi dir="ltr">{order.phone}</bdi>
              </p>
              <h3>{st("address")}</h3>
              <p data-address>
                <Isolated items={[a.street, a.building && st("building", { value: a.building }), a.apartment && st("apartment", { value: a.apartment }), a.floor && st("floor", { value: a.floor })]} />
                <br />
                <Isolated items={[a.city, a.stateName || a.state, a.postalCode, a.countryName || a.country]} />
              </p>
            </div>
            <div>
              <h3>{st("paymentLabel")}</h3>
              {order.needsAttention &&
                order.attentionReasons.map((reason, i) => (
                  <div key={reason} className="alert alert--error" role="alert" data-attention={reason}>
                    <p>{attentionTexts(order)[i]}</p>
                    {mayCheck && order.attentionToCheck.includes(reason) && (
                      <MarkCheckedButton
                        order={order}
                        reason={reason}
                        onChecked={(row) => {
                          setOrder({ ...order, needsAttention: row.needsAttention, attentionReasons: row.attentionReasons, attentionReason: row.attentionReason, attentionToCheck: row.attentionToCheck });
                          onRowChanged(row);
                        }}
                      />
                    )}
                  </div>
                ))}
              {order.isTest && <p className="alert alert--info">{st("testHint")}</p>}
              <p>
                <Badge kind={PAYMENT_TONE[order.paymentStatus]} data-payment>{paymentText(order)}</Badge>{" "}
                {st(`method.${order.paymentMethod}`)}
              </p>
              {order.awaitsKioskCash && (
                <p className="alert alert--info" data-kiosk>
                  {st("kioskHint")}
                  {order.kioskReference && <><br />{st("kioskReference", { reference: `\u2066${order.kioskReference}\u2069` })}</>}
                </p>
              )}
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
              {mayCheck && order.cashRefundable && (
                <CashRefund order={order} onRefunded={() => setLoads(loads + 1)} />
              )}
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
                <dd>{money(-order.discount)}</dd>
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
            {Number(order.refunded) > 0 && (
              <>
                <dt>{st("refundedAmount")}</dt>
                <dd data-refunded>{money(-order.refunded)}</dd>
              </>
            )}
          </dl>
          <p className="admin-b-documents" data-documents>
            <a className="button button--small button--ghost" href={order.documents.invoice} target="_blank" rel="noopener">{st("invoicePdf")}</a>{" "}
            <a className="button button--small button--ghost" href={order.documents.packingSlip} target="_blank" rel="noopener">{st("packingSlip")}</a>{" "}
            <a className="button button--small button--ghost" href={order.documents.print} target="_blank" rel="noopener">{st("printView")}</a>
          </p>
          <h3>{st("history")}</h3>
          {order.history.length ? (
            <ol className="admin-b-history">
              {order.history.map((h, i) => (
                <li key={i}>
                  <strong>{h.fromStatus && h.fromStatus !== h.toStatus ? `${st(`status.${h.fromStatus}`)} ${forwardArrow()} ` : ""}{st(`status.${h.toStatus}`)}</strong>
                  <span className="admin-muted">
                    {" "}
                    {formatDateTime(h.createdAt)}
                    {h.actor && <> · <bdi>{h.actor}</bdi></>}
                  </span>
                  {h.trackingNumber && <div data-tracking>{st("trackingShown", { number: `\u2066${h.trackingNumber}\u2069` })}</div>}
                  {h.courier && <div data-courier>{st("courierShown", { courier: isolate(h.courier) })}</div>}
                  {h.customerNote && <div data-customer-note>{st("customerNoteShown", { note: isolate(h.customerNote) })}</div>}
                  {h.note && <div className="admin-muted" dir="auto">{h.note}</div>}
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

// Confirm a status change (one order from its row, or the selected ones), with room for a note
// and, when one order is marked shipped, its tracking number.
function StatusChangeDialog({ change, busy, onCancel, onConfirm }) {
  const [note, setNote] = useState("");
  const [tracking, setTracking] = useState("");
  const [courier, setCourier] = useState("");
  const [customerNote, setCustomerNote] = useState("");
  const { orders, status } = change;
  const one = orders.length === 1 && !change.bulk;
  const statusText = st(`status.${status}`);
  const unpaid = unpaidOnTheWay(orders, status);
  return (
    <Dialog
      open
      title={one ? withOrderNumber(st, "confirmOneTitle", { number: orders[0].number, status: statusText }) : st("confirmBulkTitle", { count: orders.length, status: statusText })}
      onClose={onCancel}
      footer={<DialogFooter formId="status-change-form" onCancel={onCancel} busy={busy} submitLabel={st("confirmChange", { status: statusText })} />}
    >
      <form id="status-change-form" noValidate onSubmit={(e) => { e.preventDefault(); onConfirm({ note: note.trim(), trackingNumber: tracking.trim(), courier: courier.trim(), customerNote: customerNote.trim() }); }}>
        {status === "cancelled" && <p className="alert alert--error" role="alert">{st("cancelWarning", { count: orders.length })}</p>}
        {unpaid.length > 0 && <p className="alert alert--error" role="alert" data-unpaid-warning>{st("unpaidWarning", { numbers: numbersText(unpaid) })}</p>}
        {!one && <p className="admin-muted">{orders.map((o, i) => <Fragment key={o.id}>{i > 0 && ", "}<OrderNumber number={o.number} /></Fragment>)}</p>}
        {one && status === "shipped" && (
          <Field label={st("trackingNumber")} hint={st("trackingHint")}>
            {(id) => <input id={id} className="input" dir="ltr" maxLength={100} value={tracking} onChange={(e) => setTracking(e.target.value)} />}
          </Field>
        )}
        {one && status === "shipped" && (
          <Field label={st("courier")} hint={st("courierHint")}>
            {(id) => <input id={id} className="input" maxLength={100} value={courier} onChange={(e) => setCourier(e.target.value)} />}
          </Field>
        )}
        {one && status === "shipped" && (
          <Field label={st("customerNote")} hint={st("customerNoteHint")}>
            {(id) => <textarea id={id} className="input" rows={2} maxLength={300} value={customerNote} onChange={(e) => setCustomerNote(e.target.value)} />}
          </Field>
        )}
        <Field label={st("note")} hint={st("noteHint")}>
          {(id) => <textarea id={id} className="input" rows={3} maxLength={300} value={note} onChange={(e) => setNote(e.target.value)} />}
        </Field>
      </form>
    </Dialog>
  );
}

export default function AdminOrders({ permissions, urls = {}, printMost = Infinity }) {
  // the overview's alert links here with ?attention=1: the flagged orders only
  const table = useServerList("/api/admin/orders", {
    status: "", attention: new URLSearchParams(window.location.search).get("attention") === "1" ? "1" : "",
  });
  const mayChange = can(permissions, "orders", "status");
  // saying money was refunded or matched in Paymob settles money: Owner and Manager only
  const mayCheck = can(permissions, "orders", "edit");
  const [selected, setSelected] = useState(() => new Set());
  const [bulkStatus, setBulkStatus] = useState(""); // no choice until staff make one
  const [change, setChange] = useState(null); // {orders, status, bulk} waiting for confirmation
  const [busy, setBusy] = useState(false);
  const [detailId, setDetailId] = useState(null);

  const changeStatus = async (order, status, { note, trackingNumber, courier, customerNote }) => {
    setBusy(true);
    try {
      const row = await api(`/api/admin/orders/${order.id}/status`, { method: "PUT", body: { status, note, trackingNumber, courier, customerNote } });
      table.updateRow(row);
      setChange(null);
      toast(st("statusUpdated", { number: order.number, status: st(`status.${status}`) }), "success");
    } catch (err) {
      toast(userMessage(err, st("statusFailed")), "error");
    } finally {
      setBusy(false);
    }
  };

  const askBulk = () => {
    if (!selected.size) {
      toast(st("noneSelected"), "error");
      return;
    }
    if (!bulkStatus) {
      toast(st("chooseStatusFirst"), "error");
      return;
    }
    const known = new Map(table.data.results.map((o) => [o.id, o]));
    setChange({ orders: [...selected].map((id) => known.get(id) || { id, number: `#${id}` }), status: bulkStatus, bulk: true });
  };

  const applyBulk = async ({ note }) => {
    setBusy(true);
    try {
      const answer = await api("/api/admin/bulk/orders", {
        method: "PUT",
        body: { orderIds: [...selected], status: bulkStatus, note },
      });
      if (answer.failed.length) {
        toast(st("bulkPartial", { count: answer.updated, failed: answer.failed.map((f) => f.number).join(", ") }), "error");
      } else {
        toast(st("bulkUpdated", { count: answer.updated }), "success");
      }
      setSelected(new Set());
      setBulkStatus("");
      setChange(null);
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
          <button type="button" className="link-button admin-order-number" onClick={() => setDetailId(o.id)} dir="ltr">
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
          <bdi>{o.customerName}</bdi>
          <div className="admin-muted"><bdi dir="ltr">{o.customerEmail}</bdi></div>
        </>
      ),
    },
    { key: "createdAt", label: st("date"), render: (o) => formatDateTime(o.createdAt) },
    { key: "itemCount", label: st("itemCount") },
    { key: "total", label: st("total"), render: (o) => <span className="price">{money(o.total)}</span> },
    {
      key: "payment",
      label: st("paymentLabel"),
      render: (o) => <Badge kind={PAYMENT_TONE[o.paymentStatus]} data-payment>{paymentText(o)}</Badge>,
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
            onChange={(status) => setChange({ orders: [o], status })}
          />
        ) : (
          <Badge kind={STATUS_TONE[o.status]}>{st(`status.${o.status}`)}</Badge>
        ),
    },
  ];

  const exportParams = new URLSearchParams();
  if (table.filters.status) exportParams.set("status", table.filters.status);
  if (table.filters.attention) exportParams.set("attention", table.filters.attention);
  if (table.search.trim()) exportParams.set("search", table.search.trim());
  const exportUrl = `/api/admin/orders/export${exportParams.size ? `?${exportParams}` : ""}`;

  return (
    <Section>
      <DataTable
        table={table}
        label={st("tableLabel")}
        searchPlaceholder={st("searchPlaceholder")}
        columns={columns}
        filters={[statusFilter(st, STATUSES),
          { key: "attention", label: st("attentionFilter"), allLabel: st("allOrders"),
            options: [{ value: "1", label: st("attentionBadge") }] }]}
        toolbar={
          can(permissions, "orders", "export") && (
            <a className="button button--small button--ghost" href={exportUrl} download>
              {st("export")}
            </a>
          )
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
                <option value="">{st("chooseStatus")}</option>
                {statusOptions(st, BULK_STATUSES).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              <button type="button" className="button button--small" onClick={askBulk} disabled={busy}>
                {st("applyToSelected")}
              </button>
              {selected.size > printMost && <span className="admin-muted">{st("printMost", { count: printMost })}</span>}
              {selected.size > 0 && selected.size <= printMost &&
                ["packing-slip", "invoice"].map((kind) => (
                  <a key={kind} className="button button--small button--ghost" target="_blank" rel="noopener" data-print-kind={kind}
                    href={`${urls.documents}?kind=${kind}&ids=${[...selected].join(",")}`}>
                    {st(kind === "invoice" ? "printInvoices" : "printPackingSlips")}
                  </a>
                ))}
            </>
          )
        }
      />
      <OrderDetail key={detailId || "none"} orderId={detailId} onClose={() => setDetailId(null)} mayChange={mayChange} mayCheck={mayCheck} onRowChanged={table.updateRow} />
      {change && (
        <StatusChangeDialog
          change={change}
          busy={busy}
          onCancel={() => setChange(null)}
          onConfirm={(extra) => (change.bulk ? applyBulk(extra) : changeStatus(change.orders[0], change.status, extra))}
        />
      )}
    </Section>
  );
}
