// Write a review: only verified buyers see the form; everyone else is told why not.
import { useEffect, useRef, useState } from "react";
import { api, userMessage } from "../lib/api.js";
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
  // the fields left empty at the last send: marked, and the first is focused (under a phone's sticky header
  // the message above the form would go unseen); a problem of the form as a whole focuses its message
  const [empty, setEmpty] = useState([]);
  const fields = { title: useRef(null), comment: useRef(null) };
  const problem = useRef(null);
  useEffect(() => {
    if (state.status === "error" && !empty.length) problem.current?.focus();
  }, [state, empty]);

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
    const missing = [!title.trim() && "title", !comment.trim() && "comment"].filter(Boolean);
    if (missing.length) {
      setEmpty(missing);
      setState({ status: "error", message: tr("fillAll") });
      fields[missing[0]].current.focus();
      return;
    }
    setEmpty([]);
    setState({ status: "submitting", message: "" });
    try {
      await api("/api/reviews", { method: "POST", body: { productId, rating, title: title.trim(), comment: comment.trim() } });
      setState({ status: "success", message: tr("success") });
    } catch (error) {
      setState({ status: "error", message: userMessage(error, tr("failed")) });
    }
  };

  const marked = (name) => state.status === "error" && empty.includes(name);
  const invalidProps = (name) => (marked(name) ? { "aria-invalid": true, "aria-describedby": "review-problem" } : {});
  const filled = (name) => setEmpty((now) => now.filter((other) => other !== name));

  return (
    <form className="review-form form-card" onSubmit={submit} noValidate>
      <h3>{tr("writeReview")}</h3>
      {state.status === "error" && (
        <p className="alert alert--error" role="alert" id="review-problem" tabIndex={-1} ref={problem}>{state.message}</p>
      )}
      <fieldset className="rating-input">
        <legend>{tr("rating")}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={n <= rating ? "star star--on" : "star"}>
            <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} className="visually-hidden" />
            <span aria-hidden="true">★</span><span className="visually-hidden">{tr("starsOf", { count: n })}</span>
          </label>
        ))}
      </fieldset>
      <div className={marked("title") ? "field field--error" : "field"}>
        <label htmlFor="review-title">{tr("title")}</label>
        <input id="review-title" ref={fields.title} value={title} maxLength={200} {...invalidProps("title")}
          onChange={(e) => { setTitle(e.target.value); filled("title"); }} />
      </div>
      <div className={marked("comment") ? "field field--error" : "field"}>
        <label htmlFor="review-comment">{tr("comment")}</label>
        <textarea id="review-comment" ref={fields.comment} value={comment} maxLength={5000} {...invalidProps("comment")}
          onChange={(e) => { setComment(e.target.value); filled("comment"); }} />
      </div>
      <button type="submit" className="button" disabled={state.status === "submitting"}>
        {state.status === "submitting" ? tr("submitting") : tr("submit")}
      </button>
    </form>
  );
}
