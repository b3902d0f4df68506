// The dashboard's table: search, filters, sorting, pagination, row selection and a bulk bar.
// Works on the rows it is given (the API answers whole lists for a shop this size).
//
// columns: [{ key, label, render?(row), value?(row) (for sorting), sortable?, className? }]
// filters: [{ key, label, options: [{value, label}], match(row, value), value?, onChange? }]
// bulkActions(selectedIds, clearSelection) -> buttons shown while rows are selected
import { useEffect, useMemo, useState } from "react";
import { at } from "./strings.js";

const PAGE_SIZES = [10, 25, 50, 100];

function valueOf(column, row) {
  if (column.value) return column.value(row);
  return row[column.key];
}

function compare(a, b) {
  if (a == null && b == null) return 0;
  if (a == null) return -1;
  if (b == null) return 1;
  const na = Number(a);
  const nb = Number(b);
  if (typeof a !== "boolean" && a !== "" && b !== "" && !Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return String(a).localeCompare(String(b), undefined, { sensitivity: "base" });
}

export function DataTable({
  rows,
  columns,
  rowKey = "id",
  searchText,
  searchPlaceholder,
  filters = [],
  selectable = false,
  bulkActions,
  pageSize: initialPageSize = 25,
  loading = false,
  emptyText,
  rowClassName,
  toolbar,
  initialSort = null,
  label,
}) {
  const [query, setQuery] = useState("");
  const [filterValues, setFilterValues] = useState(() =>
    Object.fromEntries(filters.map((f) => [f.key, f.value ?? ""])),
  );
  const [sort, setSort] = useState(initialSort); // {key, dir: 1|-1}
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(initialPageSize);
  const [selected, setSelected] = useState(() => new Set());

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    let out = rows || [];
    if (q && searchText) out = out.filter((row) => searchText(row).toLowerCase().includes(q));
    for (const f of filters) {
      const v = f.value !== undefined ? f.value : filterValues[f.key];
      if (v !== "" && v != null) out = out.filter((row) => f.match(row, v));
    }
    if (sort) {
      const column = columns.find((c) => c.key === sort.key);
      if (column) out = [...out].sort((a, b) => compare(valueOf(column, a), valueOf(column, b)) * sort.dir);
    }
    return out;
  }, [rows, query, filterValues, sort, filters, columns, searchText]);

  const pages = Math.max(1, Math.ceil(filtered.length / pageSize));
  useEffect(() => {
    if (page > pages - 1) setPage(pages - 1);
  }, [pages, page]);
  // rows that disappeared (deleted, filtered away on reload) leave the selection
  useEffect(() => {
    const present = new Set((rows || []).map((r) => r[rowKey]));
    setSelected((prev) => {
      const next = new Set([...prev].filter((id) => present.has(id)));
      return next.size === prev.size ? prev : next;
    });
  }, [rows, rowKey]);

  const visible = filtered.slice(page * pageSize, page * pageSize + pageSize);
  const visibleIds = visible.map((r) => r[rowKey]);
  const allVisibleSelected = visibleIds.length > 0 && visibleIds.every((id) => selected.has(id));
  const clearSelection = () => setSelected(new Set());

  const toggleAll = () =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (allVisibleSelected) visibleIds.forEach((id) => next.delete(id));
      else filtered.forEach((r) => next.add(r[rowKey]));
      return next;
    });
  const toggleOne = (id) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const sortBy = (key) =>
    setSort((prev) => (prev && prev.key === key ? (prev.dir === 1 ? { key, dir: -1 } : null) : { key, dir: 1 }));

  return (
    <div className="admin-table admin-table--cards">
      <div className="admin-table__toolbar">
        {searchText && (
          <input
            type="search"
            className="input admin-table__search"
            placeholder={searchPlaceholder || at("search")}
            aria-label={searchPlaceholder || at("search")}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setPage(0);
            }}
          />
        )}
        {filters.map((f) => (
          <select
            key={f.key}
            className="input admin-table__filter"
            aria-label={f.label}
            value={f.value !== undefined ? f.value : filterValues[f.key]}
            onChange={(e) => {
              if (f.onChange) f.onChange(e.target.value);
              setFilterValues((prev) => ({ ...prev, [f.key]: e.target.value }));
              setPage(0);
            }}
          >
            <option value="">{f.allLabel || f.label}</option>
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ))}
        {toolbar && <div className="admin-table__actions">{toolbar}</div>}
      </div>

      {selectable && selected.size > 0 && (
        <div className="admin-table__bulk" role="region" aria-label={at("bulkActions")}>
          <span>{at("selectedCount", { count: selected.size })}</span>
          {bulkActions && bulkActions([...selected], clearSelection)}
          <button type="button" className="link-button" onClick={clearSelection}>
            {at("clearSelection")}
          </button>
        </div>
      )}

      <div className="admin-table__scroll">
        <table aria-label={label} aria-busy={loading}>
          <thead>
            <tr>
              {selectable && (
                <th className="admin-table__check">
                  <input type="checkbox" aria-label={at("selectAll")} checked={allVisibleSelected} onChange={toggleAll} />
                </th>
              )}
              {columns.map((c) => (
                <th
                  key={c.key}
                  className={c.className}
                  aria-sort={sort && sort.key === c.key ? (sort.dir === 1 ? "ascending" : "descending") : undefined}
                >
                  {c.sortable ? (
                    <button type="button" className="admin-table__sort" onClick={() => sortBy(c.key)}>
                      {c.label}
                      <span aria-hidden="true">
                        {sort && sort.key === c.key ? (sort.dir === 1 ? " ▲" : " ▼") : " ↕"}
                      </span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {visible.map((row) => {
              const id = row[rowKey];
              return (
                <tr key={id} className={rowClassName ? rowClassName(row) : undefined} data-row-id={id}>
                  {selectable && (
                    <td className="admin-table__check">
                      <input
                        type="checkbox"
                        aria-label={at("selectRow")}
                        checked={selected.has(id)}
                        onChange={() => toggleOne(id)}
                      />
                    </td>
                  )}
                  {columns.map((c) => (
                    <td key={c.key} className={c.className} data-label={c.label}>
                      {c.render ? c.render(row) : valueOf(c, row)}
                    </td>
                  ))}
                </tr>
              );
            })}
            {!visible.length && (
              <tr>
                <td colSpan={columns.length + (selectable ? 1 : 0)} className="admin-table__empty">
                  {loading ? at("loading") : emptyText || at("noResults")}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <div className="admin-table__pager">
        <span>{at("showing", { from: filtered.length ? page * pageSize + 1 : 0, to: page * pageSize + visible.length, total: filtered.length })}</span>
        <label className="admin-table__page-size">
          {at("perPage")}
          <select className="input" value={pageSize} onChange={(e) => { setPageSize(Number(e.target.value)); setPage(0); }}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>
        </label>
        <button type="button" className="button button--small button--ghost" disabled={page === 0} onClick={() => setPage(page - 1)}>
          {at("previous")}
        </button>
        <span>{at("pageOf", { page: page + 1, pages })}</span>
        <button type="button" className="button button--small button--ghost" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>
          {at("next")}
        </button>
      </div>
    </div>
  );
}
