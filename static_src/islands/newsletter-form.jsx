// The footer newsletter form: subscribing twice is fine, the server says so.
import { useState } from "react";
import { api, userMessage } from "../lib/api.js";
import { addStrings, t } from "../lib/i18n.js";
import en from "../i18n/en/newsletter.json";
import ar from "../i18n/ar/newsletter.json";

addStrings("newsletter", { en, ar });
const tr = (key, opts) => t(key, { ns: "newsletter", ...opts });

export default function NewsletterForm() {
  const [email, setEmail] = useState("");
  const [state, setState] = useState({ status: "idle", message: "" });

  const submit = async (event) => {
    event.preventDefault();
    if (state.status === "submitting") return; // the button stays focusable while busy (aria-disabled)
    setState({ status: "submitting", message: "" });
    try {
      const body = await api("/api/newsletter", { method: "POST", body: { email: email.trim() } });
      setState({ status: "success", message: body.message });
      setEmail("");
    } catch (error) {
      setState({ status: "error", message: userMessage(error, tr("failed")) });
    }
  };

  return (
    // noValidate: a mistyped address is told by the shop, in the page's language, not by the browser in its own
    <form className="newsletter-form" onSubmit={submit} noValidate>
      <label className="visually-hidden" htmlFor="newsletter-email">{tr("email")}</label>
      <input id="newsletter-email" type="email" name="email" required dir="ltr" autoComplete="email" value={email}
        placeholder={tr("placeholder")}
        onChange={(e) => setEmail(e.target.value)} />
      {/* not disabled: a disabled button drops the focus to the page's start */}
      <button type="submit" className="button" aria-disabled={state.status === "submitting"}>
        {state.status === "submitting" ? tr("subscribing") : tr("subscribe")}
      </button>
      {state.message && (
        <p className={`alert ${state.status === "success" ? "alert--success" : "alert--error"}`} role="status">{state.message}</p>
      )}
    </form>
  );
}
