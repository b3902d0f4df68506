// /payment/success: asks the server whether the payment is confirmed; never trusts the URL.
import { useEffect, useState } from "react";
import { api } from "../lib/api.js";
import { announceCart, toast } from "../lib/events.js";
import { addStrings, t, currentLanguage } from "../lib/i18n.js";
import { formatEgp } from "../lib/money.js";
import en from "../i18n/en/payment.json";
import ar from "../i18n/ar/payment.json";

addStrings("payment", { en, ar });

const ATTEMPTS = 6; // the callback may arrive a few seconds after the customer
const PAUSE_MS = 1500;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export default function PaymentReturn({ paymentId, params = {}, retry = false, codAvailable = false, urls = {} }) {
  const [state, setState] = useState("verifying");
  const [order, setOrder] = useState(null);
  // why it failed decides what we may claim: only a payment the server marked failed was
  // not charged (and its stock released); a missing id or an unreachable server says nothing
  const [reason, setReason] = useState("unknown");
  const [cash, setCash] = useState(null);

  useEffect(() => {
    let cancelled = false;
    async function verify() {
      if (!paymentId) return fail();
      const query = new URLSearchParams(params).toString();
      for (let attempt = 0; attempt < ATTEMPTS && !cancelled; attempt += 1) {
        try {
          const result = await api(`/api/payment/verify/${encodeURIComponent(paymentId)}?${query}`);
          if (result.confirmed && result.orderCancelled) {
            // the money came after its order was cancelled: the shop refunds or restores it (as its e-mail says)
            setOrder(result.order || null);
            setState("review");
            return;
          }
          if (result.confirmed) {
            setOrder(result.order || null);
            setState("success");
            announceCart({ itemCount: 0, items: [] });
            toast(t("payment:completed"), "success");
            return;
          }
          if (result.awaitingCash) {
            // a kiosk payment (Aman, Masary) reported pending: the order waits for the cash (the server's words)
            setCash(result.awaitingCash);
            setState("cash");
            return;
          }
          if (result.status === "failed") setReason("declined");
          if (result.status !== "awaiting") break;
          if (attempt === ATTEMPTS - 1) setReason("pending");
        } catch (err) {
          // a refusal (not theirs, too many checks) or a 30 s wait ends it; a blip (the shop busy or restarting, a
          // dropped connection, a proxy's error page) is asked again: "Payment Failed" would send a payer who paid
          // to pay again
          if (err.kind === "timeout" || (err.kind === "server" && err.status < 500)) break;
        }
        await sleep(PAUSE_MS);
      }
      if (!cancelled) fail();
    }
    function fail() {
      setState("failed");
      toast(t("payment:verificationFailed"), "error");
    }
    verify();
    return () => {
      cancelled = true;
    };
  }, [paymentId]);

  if (state === "verifying") {
    return (
      <section className="form-card result-card" data-state="verifying">
        <div className="spinner" aria-hidden="true" />
        <h1>{t("payment:verifying")}</h1>
        <p className="muted">{t("payment:wait")}</p>
      </section>
    );
  }
  if (state === "failed") {
    return (
      <section className="form-card result-card result-card--failed" data-state="failed">
        <h1>{t("payment:failed")}</h1>
        <p>{t({ declined: "payment:failedText", pending: "payment:pendingText" }[reason] || "payment:unknownText")}</p>
        <div className="result-card__actions">
          {retry && <a className="button button--gold" href={urls.checkout}>{t("payment:tryAgain")}</a>}
          {retry && codAvailable && (
            <a className="button" href={`${urls.checkout}?pay=cod`}>{t("payment:payOnDelivery")}</a>
          )}
          <a className={`button${retry ? " button--ghost" : ""}`} href={urls.cart}>{t("payment:returnToCart")}</a>
          <a className="button button--ghost" href={urls.contact}>{t("payment:contactSupport")}</a>
        </div>
      </section>
    );
  }
  if (state === "cash") {
    return (
      <section className="form-card result-card" data-state="cash">
        <h1>{cash.title}</h1>
        <p data-testid="cash-reference">{cash.text}</p>
        <p data-testid="cash-hold">{cash.hold}</p>
        <div className="result-card__actions">
          <a className="button button--gold" href={cash.track} data-testid="track-link">{t("payment:trackOrder")}</a>
          <a className="button button--ghost" href={urls.home}>{t("payment:backHome")}</a>
        </div>
      </section>
    );
  }
  if (state === "review") {
    return (
      <section className="form-card result-card" data-state="review">
        <h1>{t("payment:received")}</h1>
        <p>{t("payment:receivedOnCancelled")}</p>
        {order && <p>{t("payment:orderId")}: <bdi dir="ltr" className="nowrap" data-testid="order-number">{order.orderId}</bdi></p>}
        <div className="result-card__actions">
          <a className="button button--gold" href={urls.contact}>{t("payment:contactSupport")}</a>
          <a className="button button--ghost" href={urls.home}>{t("payment:backHome")}</a>
        </div>
      </section>
    );
  }
  return (
    <section className="form-card result-card result-card--success" data-state="success">
      <h1>{t("payment:success")}</h1>
      <p>{t("payment:successText")}</p>
      {order && (
        <dl className="summary">
          <div className="summary__row"><dt>{t("payment:orderId")}</dt><dd data-testid="order-number"><bdi dir="ltr" className="nowrap">{order.orderId}</bdi></dd></div>
          <div className="summary__row"><dt>{t("payment:amount")}</dt><dd data-testid="order-total">{formatEgp(order.amount, currentLanguage())}</dd></div>
          <div className="summary__row"><dt>{t("payment:email")}</dt><dd data-testid="order-email">{order.email}</dd></div>
          <div className="summary__row"><dt>{t("payment:paymentId")}</dt><dd className="mono">{order.paymentId}</dd></div>
        </dl>
      )}
      <div className="result-card__actions">
        {order?.trackPath && (
          <a className="button button--gold" href={order.trackPath} data-testid="track-link">{t("payment:trackOrder")}</a>
        )}
        {order?.invoicePath && (
          <a className="button button--ghost" href={order.invoicePath} download data-testid="invoice-link">{t("payment:invoice")}</a>
        )}
        <a className="button" href={urls.shop}>{t("payment:continueShopping")}</a>
        <a className="button button--ghost" href={urls.home}>{t("payment:backHome")}</a>
      </div>
    </section>
  );
}
