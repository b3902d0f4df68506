// Write a review: only verified buyers see the form; everyone else is told why not.
import { useState } from "react";
import { api } from "../lib/api.js";
import { addStrings, t } from "../lib/i18n.js";
import en from "../i18n/en/reviews.json";
import ar from "../i18n/ar/reviews.json";

addStrings("reviews", { en, ar });
const tr = (key, opts) => t(key, { ns: "reviews", ...opts });

export default function ReviewForm({ productId, reason, loginUrl }) {
  const [rating, setRating] = useState(5);
  const [title, setTitle] = useState("");
  const [comment, setComment] = useState("");
  const [state, setState] = useState({ status: "idle", message: "" });

  if (reason === "login") {
    return <p className="alert alert--info"><a href={loginUrl}>{tr("loginToReview")}</a></p>;
  }
  if (reason) return <p className="alert alert--info">{tr("onlyBuyers")}</p>;

  // once sent, the form gives way to the thank-you note (no second, blank form with five stars lit)
  if (state.status === "success") {
    return (
      <div className="review-form form-card review-form--sent" data-state="sent">
        <p className="alert alert--success" role="status" tabIndex={-1} ref={(note) => note?.focus()}>{state.message}</p>
      </div>
    );
  }

  const submit = async (event) => {
    event.preventDefault();
    if (!title.trim() || !comment.trim()) {
      setState({ status: "error", message: tr("fillAll") });
      return;
    }
    setState({ status: "submitting", message: "" });
    try {
      await api("/api/reviews", { method: "POST", body: { productId, rating, title: title.trim(), comment: comment.trim() } });
      setState({ status: "success", message: tr("success") });
    } catch (error) {
      const known = error.status && error.message && !error.message.startsWith("HTTP");
      setState({ status: "error", message: known ? error.message : tr("failed") });
    }
  };

  return (
    <form className="review-form form-card" onSubmit={submit} noValidate>
      <h3>{tr("writeReview")}</h3>
      {state.status === "error" && <p className="alert alert--error" role="alert">{state.message}</p>}
      <fieldset className="rating-input">
        <legend>{tr("rating")}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={n <= rating ? "star star--on" : "star"}>
            <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} className="visually-hidden" />
            <span aria-hidden="true">★</span><span className="visually-hidden">{tr("starsOf", { count: n })}</span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="review-title">{tr("title")}</label>
        <input id="review-title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="review-comment">{tr("comment")}</label>
        <textarea id="review-comment" value={comment} maxLength={5000} onChange={(e) => setComment(e.target.value)} />
      </div>
      <button type="submit" className="button" disabled={state.status === "submitting"}>
        {state.status === "submitting" ? tr("submitting") : tr("submit")}
      </button>
    </form>
  );
}
