// Checkout: contact, customer, billing address, payment method, account, coupon, summary.
// The server validates again and computes every amount; this island shows what it answers.
import { useEffect, useState } from "react";
import { api, latestOnly, STALE, userMessage } from "../lib/api.js";
import { announceCart, toast } from "../lib/events.js";
import { addLanguageStrings, addStrings, currentLanguage, t } from "../lib/i18n.js";
import { phoneValid } from "../lib/phone.js";
import { keepUnits } from "../lib/units.js";
import { OrderSummary } from "./order-summary.jsx";
import cartEn from "../i18n/en/cart.json";
import cartAr from "../i18n/ar/cart.json";

addStrings("cart", { en: cartEn, ar: cartAr });
// its own strings in the page's language only: the checkout is the heaviest page
export const ready = (currentLanguage() === "ar" ? import("../i18n/ar/checkout.json") : import("../i18n/en/checkout.json"))
  .then((strings) => addLanguageStrings("checkout", currentLanguage() === "ar" ? "ar" : "en", strings.default));

const REQUIRED = ["email", "firstName", "lastName", "phone"];
const ADDRESS = ["street", "city", "state"];
const PASSWORD_MIN = 8;

const OPTIONAL = ["building", "floor", "apartment", "postalCode", "couponCode"];

// every problem the browser can see, one message a field, in the server's order
function clientErrors(form, user, text) {
  const errors = {};
  const add = (name, message) => { errors[name] ??= message; };
  REQUIRED.filter((name) => !form[name].trim()).forEach((name) => add(name, t("checkout:requiredFields")));
  if (form.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) add("email", t("checkout:invalidEmail"));
  if (form.phone.trim() && !phoneValid(form.phone)) add("phone", text.invalidPhone); // the server's words
  ADDRESS.filter((name) => !form[name].trim()).forEach((name) => add(name, t("checkout:billingAddress")));
  if (form.createAccount && !user) {
    if (form.password.length < PASSWORD_MIN) add("password", t("checkout:passwordLength"));
    else if (form.password !== form.confirmPassword) add("confirmPassword", t("checkout:passwordMismatch"));
  }
  return errors;
}

// the fields in the server's order, so focus and the banner go to the first one
const ORDER = [...REQUIRED, "street", "city", "state", "country", "postalCode", "paymentMethod", "password", "confirmPassword"];
const firstOf = (errors) => ORDER.find((name) => errors[name]) || Object.keys(errors).find((name) => errors[name]);
// the fields the focus can go to (an input of that name): a refusal naming one is read out there, as its description
const INPUTS = [...REQUIRED, ...ADDRESS, "country", "password", "confirmPassword", ...OPTIONAL];
const atInput = (refused) => INPUTS.includes(refused?.field);

function failureMessage(err) {
  if (err.kind === "timeout") return t("checkout:paymentTimedOut");
  if (err.kind === "network") return t("checkout:networkError");
  if (err.kind === "parse") return t("checkout:parseError");
  if (err.status) return userMessage(err, t("checkout:invalidResponse", { status: err.status }));
  return t("checkout:failed");
}

export default function Checkout({ cart: initialCart, methods, countries, governorates, user, text, prefill, urls = {} }) {
  const [cart, setCart] = useState(initialCart);
  const [form, setForm] = useState({
    paymentMethod: methods[0] || "", // the server lists only methods that work now
    createAccount: false, password: "", confirmPassword: "", couponCode: "", whatsappOptIn: false,
    ...prefill, // every contact and address field (orders/prefill.py: account, saved address, a failed payment's draft)
  });
  const [errors, setErrors] = useState({});
  const [formError, setFormError] = useState("");
  // after a refusal the focus goes to the field named, else to the banner saying why: Place order is disabled
  // while the server answers, so a keyboard or screen-reader shopper's focus has fallen off it
  const [refused, setRefused] = useState(null);
  useEffect(() => {
    if (refused) document.getElementById(atInput(refused) ? `co-${refused.field}` : "co-alert")?.focus();
  }, [refused]);
  const [appliedCoupon, setAppliedCoupon] = useState(initialCart.couponCode || "");
  const [processing, setProcessing] = useState(false);
  const [latest] = useState(latestOnly); // only the newest summary is shown

  // the totals for a form (its payment method and governorate: rate, COD fee, delivery date) and a coupon
  async function refreshSummary({ paymentMethod, state: governorate, country } = form, couponCode = appliedCoupon) {
    const data = await latest(() => api("/api/cart/summary", {
      method: "POST", body: { paymentMethod, couponCode, governorate, country },
    }));
    if (data === STALE) return data;
    setCart(data);
    // the governorate takes no cash on delivery: another method is chosen (the server refuses it anyway), and
    // the option's hint, a polite live region, says why: once on screen, once read out (no toast besides)
    const other = methods.find((m) => m !== "cod");
    if (data.codAvailable === false && paymentMethod === "cod" && other) setForm((f) => ({ ...f, paymentMethod: other }));
    return data;
  }

  function update(name, value) {
    const next = { ...form, [name]: value, ...(name === "country" ? { state: "" } : {}) };
    setForm(next);
    if (errors[name]) setErrors((e) => ({ ...e, [name]: "" })); // a field's error clears on edit
    if (["paymentMethod", "state", "country"].includes(name)) refreshSummary(next).catch(() => {});
  }

  async function applyCoupon(event) {
    event.preventDefault(); // Enter in the code's field applies it: it must not place the order
    const code = form.couponCode.trim();
    setRefused(null); // a refusal now is said where the focus stays (Apply): the coupon's alert
    try {
      if ((await refreshSummary(form, code)) === STALE) return; // a newer choice's summary is showing
      setAppliedCoupon(code);
      setErrors((e) => ({ ...e, couponCode: "" }));
    } catch (err) {
      setErrors((e) => ({ ...e, couponCode: userMessage(err, err.kind === "timeout" ? t("requestTimedOut") : t("networkError")) }));
    }
  }

  async function submit(event) {
    event.preventDefault();
    const problems = clientErrors(form, user, text);
    const first = firstOf(problems);
    if (first) {
      setErrors(problems);
      setFormError("");
      setRefused({ field: first }); // said once: at the field the focus goes to (the banner repeats it, silently)
      return;
    }
    setErrors({});
    setFormError("");
    setProcessing(true);
    const couponCode = appliedCoupon || form.couponCode;
    try {
      const result = await api("/api/payment/create-intention", {
        method: "POST",
        timeout: 30000,
        body: {
          paymentMethod: form.paymentMethod,
          testMode: form.paymentMethod === "sandbox",
          customer: { firstName: form.firstName, lastName: form.lastName, email: form.email, phone: form.phone },
          billingAddress: {
            street: form.street, building: form.building, apartment: form.apartment, floor: form.floor,
            city: form.city, state: form.state, postalCode: form.postalCode, country: form.country,
          },
          couponCode,
          // what the shopper sees: the server places nothing else (another tab's addition, a price changed
          // since); a typed coupon not yet applied is not in the shown total, so the total is not sent then
          items: cart.items.map((item) => ({ id: item.productId, quantity: item.quantity })),
          total: couponCode === appliedCoupon ? cart.total : null,
          createAccount: form.createAccount && !user,
          whatsappOptIn: form.whatsappOptIn,
          password: form.password,
          confirmPassword: form.confirmPassword,
        },
      });
      if (!result?.success) throw Object.assign(new Error(t("checkout:notSuccessful")), { status: 200 });
      if (!result.paymentUrl) throw Object.assign(new Error(t("checkout:noPaymentUrl")), { status: 200 });
      if (!result.paymentId) throw Object.assign(new Error(t("checkout:noPaymentId")), { status: 200 });
      if (form.paymentMethod === "cod") announceCart({ itemCount: 0, items: [] });
      window.location.assign(result.paymentUrl);
    } catch (err) {
      const message = failureMessage(err);
      const fields = err.body?.fields || (err.field ? { [err.field]: message } : {});
      setErrors(fields);
      // a field's problem shows at the field (the banner follows them); anything else in the banner
      // read out once, where the focus goes; the spec's error toast shows it too, silently
      setFormError(Object.keys(fields).length ? "" : message);
      toast(message, "error", { echo: true });
      setRefused({ field: err.field });
      if (err.status === 409 && err.field === "items") refreshSummary().catch(() => {}); // the cart as it is now
      setProcessing(false);
    }
  }

  if (!cart.items.length) {
    return (
      <div className="empty-state">
        <p>{t("cart:empty")}</p>
        <a className="button" href={urls.shop}>{t("cart:continueShopping")}</a>
      </div>
    );
  }

  // the banner repeats the first field still wrong, and goes once every marked field is fixed
  const banner = formError || errors[firstOf(errors)] || "";
  const label = (name, text) => (
    <label htmlFor={`co-${name}`}>
      {text}
      {OPTIONAL.includes(name) ? <span className="field__optional"> {t("checkout:optional")}</span>
        : <span className="field__required" aria-hidden="true"> *</span>}
    </label>
  );
  const invalid = (name) => ({
    "aria-invalid": Boolean(errors[name]),
    "aria-required": !OPTIONAL.includes(name),
    "aria-describedby": errors[name] ? `co-${name}-error` : undefined,
  });
  // role: "alert" where the refusal comes with the focus elsewhere (the coupon's Apply button)
  const errorText = (name, role) => errors[name] && <p className="field__error" id={`co-${name}-error`} role={role}>{errors[name]}</p>;
  const field = (name, text, props = {}) => (
    <div className={`field${errors[name] ? " field--error" : ""}`}>
      {label(name, text)}
      {/* typed text reads in its own direction (a Latin street on an Arabic page); e-mail and phone say ltr */}
      <input id={`co-${name}`} name={name} value={form[name]} onChange={(e) => update(name, e.target.value)}
        dir="auto" {...invalid(name)} {...props} />
      {errorText(name)}
    </div>
  );
  const locked = Boolean(user);

  return (
    <form className="checkout-layout" onSubmit={submit} noValidate>
      <div className="checkout-main">
        <a className="back-link" href={urls.cart}>{t("checkout:backToCart")}</a>
        {/* an alert only when it takes the focus itself: a field's refusal is read out at the field (its description) */}
        {banner && <p className="alert alert--error" role={atInput(refused) ? undefined : "alert"} id="co-alert"
          tabIndex={-1}>{banner}</p>}
        <p className="field__hint">{t("checkout:requiredNote")}</p>
        <fieldset className="form-card checkout-section">
          <legend>{t("checkout:contact")}</legend>
          {field("email", t("checkout:email"), { type: "email", autoComplete: "email", readOnly: locked, dir: "ltr" })}
          {!user && (
            <label className="check">
              <input type="checkbox" onChange={(e) => api("/api/cart/reminder", { method: "POST", body: { email: form.email, optIn: e.target.checked } }).catch(() => {})} />
              {text.remind}
            </label>
          )}
          {field("phone", t("checkout:phone"), { type: "tel", autoComplete: "tel", inputMode: "tel", dir: "ltr" })}
          <label className="check">
            <input type="checkbox" checked={form.whatsappOptIn} onChange={(e) => update("whatsappOptIn", e.target.checked)} />
            {text.whatsappOptIn}
          </label>
        </fieldset>
        <fieldset className="form-card checkout-section">
          <legend>{t("checkout:customer")}</legend>
          <div className="field-row">
            {field("firstName", t("checkout:firstName"), { autoComplete: "given-name", readOnly: locked })}
            {field("lastName", t("checkout:lastName"), { autoComplete: "family-name", readOnly: locked })}
          </div>
          {locked && <p className="field__hint">{t("checkout:signedInLocked")}</p>}
        </fieldset>
        <fieldset className="form-card checkout-section">
          <legend>{t("checkout:billing")}</legend>
          <div className="field">
            {label("country", t("checkout:country"))}
            <select id="co-country" value={form.country} onChange={(e) => update("country", e.target.value)}>
              {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
            </select>
          </div>
          {field("street", t("checkout:street"), { autoComplete: "address-line1" })}
          <div className="field-row field-row--3">
            {field("building", t("checkout:building"))}
            {field("floor", t("checkout:floor"), { inputMode: "numeric" })}
            {field("apartment", t("checkout:apartment"))}
          </div>
          <div className="field-row">
            {field("city", t("checkout:city"), { autoComplete: "address-level2" })}
            {form.country === "EGY" ? (
              <div className={`field${errors.state ? " field--error" : ""}`}>
                {label("state", t("checkout:governorate"))}
                <select id="co-state" value={form.state} onChange={(e) => update("state", e.target.value)} {...invalid("state")}>
                  <option value="">{t("checkout:chooseGovernorate")}</option>
                  {governorates.map((g) => <option key={g.value} value={g.value}>{g.name}</option>)}
                </select>
                {errorText("state")}
              </div>
            ) : (
              field("state", t("checkout:state"), { autoComplete: "address-level1" })
            )}
          </div>
          {field("postalCode", t("checkout:postalCode"), { inputMode: "numeric", autoComplete: "postal-code" })}
        </fieldset>
        <fieldset className="form-card checkout-section">
          <legend>{t("checkout:paymentMethod")}</legend>
          <div className="pay-methods" role="radiogroup">
            {methods.map((m) => (
              <label key={m} className={`pay-method${form.paymentMethod === m ? " pay-method--active" : ""}`}>
                <input type="radio" name="paymentMethod" value={m} checked={form.paymentMethod === m}
                  disabled={m === "cod" && cart.codAvailable === false}
                  onChange={() => update("paymentMethod", m)} />
                <span className="pay-method__name">{t(`checkout:method_${m}`)}</span>
                <span className="pay-method__hint" aria-live={m === "cod" ? "polite" : undefined}>
                  {t(m === "cod" && cart.codAvailable === false ? "checkout:codUnavailable" : `checkout:methodHint_${m}`)}
                </span>
              </label>
            ))}
          </div>
          {!methods.length && <p className="alert alert--info" role="status">{t("checkout:noMethods")}</p>}
          {errorText("paymentMethod")}
        </fieldset>
        {!user && (
          <fieldset className="form-card checkout-section">
            <legend>{t("checkout:account")}</legend>
            <label className="check">
              <input type="checkbox" checked={form.createAccount} onChange={(e) => update("createAccount", e.target.checked)} />
              {t("checkout:createAccount")}
            </label>
            {form.createAccount && (
              <div className="field-row">
                {field("password", t("checkout:password"), { type: "password", autoComplete: "new-password" })}
                {field("confirmPassword", t("checkout:confirmPassword"), { type: "password", autoComplete: "new-password" })}
              </div>
            )}
          </fieldset>
        )}
      </div>
      <aside className="form-card checkout-summary">
        <h2>{t("cart:orderSummary")}</h2>
        <ul className="mini-lines">
          {cart.items.map((item) => (
            <li key={item.productId}><span>{keepUnits(item.title)} ×&nbsp;{item.quantity}</span></li>
          ))}
        </ul>
        <div className={`field coupon${errors.couponCode ? " field--error" : ""}`}>
          <label htmlFor="co-couponCode">{t("checkout:coupon")}</label>
          <div className="coupon__row">
            <input id="co-couponCode" dir="auto" value={form.couponCode} onChange={(e) => update("couponCode", e.target.value)}
              onKeyDown={(e) => e.key === "Enter" && applyCoupon(e)} {...invalid("couponCode")} />
            <button type="button" className="button button--ghost button--small" onClick={applyCoupon}>
              {t("checkout:apply")}
            </button>
          </div>
          {errorText("couponCode", atInput(refused) ? undefined : "alert")}
          {/* "Coupon applied" at the field while the totals shown are the code's, not in a toast: on a phone a
              toast covered the summary the coupon changed. While another code is typed, or was refused, the
              server keeps the one applied before (its summary, and the order placed): the field says so */}
          <p className="field__hint" role="status">
            {cart.couponCode && (form.couponCode.trim().toUpperCase() === cart.couponCode ? text.couponApplied
              : t("checkout:couponStillApplied", { code: cart.couponCode }))}
          </p>
        </div>
        <OrderSummary cart={cart} showHint={false} />
        <button type="submit" className="button button--gold button--block" disabled={processing || !methods.length}
          data-testid="place-order">
          {processing ? t("checkout:processing") : t(form.paymentMethod === "cod" ? "checkout:placeOrder" : "checkout:payNow")}
        </button>
        {form.paymentMethod === "sandbox" && <p className="field__hint">{t("checkout:sandboxNote")}</p>}
      </aside>
    </form>
  );
}
