// A status select for a table row: options [{value, label}], calls onChange(value).
export function StatusSelect({ value, options, onChange, label, disabled = false, className = "" }) {
  return (
    <select
      className={`input admin-status-select admin-status-select--${value} ${className}`}
      value={value}
      aria-label={label}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

// A coloured pill for a status or flag.
export function Badge({ kind = "neutral", children, ...rest }) {
  return <span className={`admin-badge admin-badge--${kind}`} {...rest}>{children}</span>;
}
