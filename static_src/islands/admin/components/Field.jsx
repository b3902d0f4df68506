// A labelled form field with its error under it (the API's `field` names which one).
import { useId } from "react";

export function Field({ label, error, hint, children, className = "" }) {
  const id = useId();
  const child = typeof children === "function" ? children(id) : children;
  return (
    <div className={`field${error ? " field--error" : ""} ${className}`}>
      <label htmlFor={id}>{label}</label>
      {typeof children === "function" ? child : <div id={id}>{child}</div>}
      {hint && <p className="field__hint">{hint}</p>}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

// A checkbox toggle with its label.
export function Toggle({ label, checked, onChange, disabled = false, name }) {
  return (
    <label className="admin-toggle">
      <input type="checkbox" name={name} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span className="admin-toggle__track" aria-hidden="true" />
      <span>{label}</span>
    </label>
  );
}
