// A table over a server-paged list ({results, count, page, pageSize, totalPages}): search and
// filters go to the API as query parameters, so it scales past what fits in one answer.
// Looks and reads like the shared DataTable (same classes, same "admin" strings).
//
// Sections B use it for orders, newsletter, messages and reviews:
//   const table = useServerList("/api/admin/orders", { status: "" });
//   <ServerTable table={table} columns={…} filters={…} selectable bulkBar={…} />
import { useEffect, useMemo, useState } from "react";
import { at, useAdminData } from "./components/index.js";

const PAGE_SIZES = [10, 20, 50, 100];
const EMPTY_PAGE = { results: [], count: 0, page: 1, pageSize: 20, totalPages: 1 };

function useDebounced(value, ms = 300) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

// The list's query (search, filters, page) and its data; reloads on change and on Refresh Now.
export function useServerList(endpoint, initialFilters = {}, { pageSize: initialSize = 20, onError } = {}) {
  const [search, setSearch] = useState("");
  const [filters, setFilters] = useState(initialFilters);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(initialSize);
  const debouncedSearch = useDebounced(search);
  const path = useMemo(() => {
    const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
    if (debouncedSearch.trim()) params.set("search", debouncedSearch.trim());
    for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
    return `${endpoint}?${params}`;
  }, [endpoint, page, pageSize, debouncedSearch, filters]);
  const { data, setData, loading, error, reload } = useAdminData(path, { fallback: EMPTY_PAGE, onError });
  return {
    data: data || EMPTY_PAGE,
    setData,
    loading,
    error,
    reload,
    path,
    search,
    setSearch: (value) => {
      setSearch(value);
      setPage(1);
    },
    filters,
    setFilter: (key, value) => {
      setFilters((prev) => ({ ...prev, [key]: value }));
      setPage(1);
    },
    page,
    setPage,
    pageSize,
    setPageSize: (size) => {
      setPageSize(size);
      setPage(1);
    },
    // replace one row in place after a change (the server's answer)
    updateRow: (row) =>
      setData((prev) => ({ ...prev, results: prev.results.map((r) => (r.id === row.id ? { ...r, ...row } : r)) })),
  };
}

export function ServerTable({
  table,
  columns,
  label,
  searchPlaceholder,
  filters = [],
  toolbar,
  selectable = false,
  selected,
  onSelectedChange,
  bulkBar,
  emptyText,
  rowClassName,
  cards = true,
}) {
  const { data, loading } = table;
  const rows = data.results || [];
  const ids = rows.map((r) => r.id);
  const allSelected = selectable && ids.length > 0 && ids.every((id) => selected.has(id));
  const toggleAll = () => {
    const next = new Set(selected);
    if (allSelected) ids.forEach((id) => next.delete(id));
    else ids.forEach((id) => next.add(id));
    onSelectedChange(next);
  };
  const toggleOne = (id) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  };
  const from = data.count ? (data.page - 1) * data.pageSize + 1 : 0;

  return (
    <div className={`admin-table admin-b-table${cards ? " admin-table--cards" : ""}`}>
      <div className="admin-table__toolbar">
        <input
          type="search"
          className="input admin-table__search"
          placeholder={searchPlaceholder || at("search")}
          aria-label={searchPlaceholder || at("search")}
          value={table.search}
          onChange={(e) => table.setSearch(e.target.value)}
        />
        {filters.map((f) => (
          <select
            key={f.key}
            className="input admin-table__filter"
            aria-label={f.label}
            value={table.filters[f.key] || ""}
            onChange={(e) => table.setFilter(f.key, e.target.value)}
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

      {selectable && bulkBar && (
        <div className="admin-table__bulk" role="region" aria-label={at("bulkActions")}>
          {cards && (
            <label className="admin-b-phone-only admin-b-select-all">
              <input type="checkbox" checked={allSelected} onChange={toggleAll} />
              {at("selectAll")}
            </label>
          )}
          <span>{at("selectedCount", { count: selected.size })}</span>
          {bulkBar}
          {selected.size > 0 && (
            <button type="button" className="link-button" onClick={() => onSelectedChange(new Set())}>
              {at("clearSelection")}
            </button>
          )}
        </div>
      )}

      <div className="admin-table__scroll">
        <table aria-label={label} aria-busy={loading}>
          <thead>
            <tr>
              {selectable && (
                <th className="admin-table__check">
                  <input type="checkbox" aria-label={at("selectAll")} checked={allSelected} onChange={toggleAll} />
                </th>
              )}
              {columns.map((c) => (
                <th key={c.key} className={c.className}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-row-id={row.id} className={rowClassName ? rowClassName(row) : undefined}>
                {selectable && (
                  <td className="admin-table__check">
                    <input
                      type="checkbox"
                      aria-label={at("selectRow")}
                      checked={selected.has(row.id)}
                      onChange={() => toggleOne(row.id)}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c.key} className={c.className} data-label={c.label}>
                    {c.render ? c.render(row) : row[c.key]}
                  </td>
                ))}
              </tr>
            ))}
            {!rows.length && (
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
        <span>{at("showing", { from, to: from ? from + rows.length - 1 : 0, total: data.count })}</span>
        <label className="admin-table__page-size">
          {at("perPage")}
          <select className="input" value={table.pageSize} onChange={(e) => table.setPageSize(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--small button--ghost"
          disabled={data.page <= 1}
          onClick={() => table.setPage(data.page - 1)}
        >
          {at("previous")}
        </button>
        <span>{at("pageOf", { page: data.page, pages: data.totalPages })}</span>
        <button
          type="button"
          className="button button--small button--ghost"
          disabled={data.page >= data.totalPages}
          onClick={() => table.setPage(data.page + 1)}
        >
          {at("next")}
        </button>
      </div>
    </div>
  );
}
