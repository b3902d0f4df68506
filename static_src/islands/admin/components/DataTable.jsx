// The dashboard's table: search, filters, pagination, row selection and a bulk bar, in two modes.
//
// Client mode (`rows`): works on the rows it is given (the API answers whole lists for a shop this
// size): searches, filters, sorts and pages in the browser; keeps its own selection.
//   columns: [{ key, label, render?(row), value?(row) (for sorting), sortable?, className? }]
//   filters: [{ key, label, options: [{value, label}], match(row, value), value?, onChange? }]
//   bulkActions(selectedIds, clearSelection) -> buttons shown while rows are selected
//
// Server mode (`table`, from useServerList): search, filters and page go to the API; the page
// shown is the server's answer, sorted by the server (a `sortable` column's key is sent as `sort`).
// Selection is the caller's (`selected`, `onSelectedChange`), and `bulkBar` (always shown when
// given) holds the bulk controls.
//   filters: [{ key, label, allLabel?, options: [{value, label}] }]
import { useEffect, useMemo, useState } from "react";
import { at } from "./strings.js";

const CLIENT_PAGE_SIZES = [10, 25, 50, 100];
const SERVER_PAGE_SIZES = [10, 20, 50, 100];

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

function toggled(set, id) {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

// all shown rows selected: unselect them; otherwise select every id in `selectIds`
function toggledAll(set, shownIds, selectIds, allShownSelected) {
  const next = new Set(set);
  if (allShownSelected) shownIds.forEach((id) => next.delete(id));
  else selectIds.forEach((id) => next.add(id));
  return next;
}

export function DataTable(props) {
  return props.table ? <ServerPagedTable {...props} /> : <ClientPagedTable {...props} />;
}

function ClientPagedTable({ rows, columns, rowKey = "id", searchText, filters = [], pageSize: initialPageSize = 25, initialSort = null, selectable = false, bulkActions, ...rest }) {
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
  const clearSelection = () => setSelected(new Set());

  return (
    <TableFrame
      {...rest}
      className="admin-table admin-table--cards"
      columns={columns}
      rows={visible}
      rowKey={rowKey}
      search={
        searchText && {
          value: query,
          set: (value) => {
            setQuery(value);
            setPage(0);
          },
        }
      }
      filters={filters}
      filterValue={(f) => (f.value !== undefined ? f.value : filterValues[f.key])}
      setFilter={(f, value) => {
        if (f.onChange) f.onChange(value);
        setFilterValues((prev) => ({ ...prev, [f.key]: value }));
        setPage(0);
      }}
      sort={sort}
      sortBy={(key) =>
        setSort((prev) => (prev && prev.key === key ? (prev.dir === 1 ? { key, dir: -1 } : null) : { key, dir: 1 }))
      }
      selectable={selectable}
      selected={selected}
      onSelectedChange={setSelected}
      selectAllIds={filtered.map((r) => r[rowKey])}
      showBulkBar={selected.size > 0}
      bulkBar={selected.size > 0 && bulkActions && bulkActions([...selected], clearSelection)}
      pager={{
        from: filtered.length ? page * pageSize + 1 : 0,
        to: page * pageSize + visible.length,
        total: filtered.length,
        page: page + 1,
        pages,
        setPage: (number) => setPage(number - 1),
        pageSize,
        pageSizes: CLIENT_PAGE_SIZES,
        setPageSize: (size) => {
          setPageSize(size);
          setPage(0);
        },
      }}
    />
  );
}

function ServerPagedTable({ table, columns, filters = [], selectable = false, selected, onSelectedChange, bulkBar, cards = true, ...rest }) {
  const { data } = table;
  const rows = data.results || [];
  const from = data.count ? (data.page - 1) * data.pageSize + 1 : 0;
  return (
    <TableFrame
      {...rest}
      className={`admin-table admin-b-table${cards ? " admin-table--cards" : ""}`}
      loading={table.loading}
      columns={columns}
      rows={rows}
      rowKey="id"
      search={{ value: table.search, set: table.setSearch }}
      filters={filters}
      filterValue={(f) => table.filters[f.key] || ""}
      setFilter={(f, value) => table.setFilter(f.key, value)}
      sort={table.sort || null}
      sortBy={table.sortBy}
      selectable={selectable}
      selected={selected}
      onSelectedChange={onSelectedChange}
      selectAllIds={rows.map((r) => r.id)}
      showBulkBar={Boolean(bulkBar)}
      selectAllOnPhone={cards}
      bulkBar={bulkBar}
      pager={{
        from,
        to: from ? from + rows.length - 1 : 0,
        total: data.count,
        page: data.page,
        pages: data.totalPages,
        setPage: table.setPage,
        // a role served smaller pages (Support) is offered only the sizes it gets
        pageSize: Math.min(table.pageSize, data.maxPageSize || table.pageSize),
        pageSizes: SERVER_PAGE_SIZES.filter((n) => n <= (data.maxPageSize || Infinity)),
        setPageSize: table.setPageSize,
      }}
    />
  );
}

// What both modes show: toolbar, bulk bar, the table itself and the pager.
function TableFrame({
  className,
  columns,
  rows,
  rowKey,
  label,
  loading = false,
  emptyText,
  rowClassName,
  toolbar,
  search,
  searchPlaceholder,
  filters,
  filterValue,
  setFilter,
  sort = null,
  sortBy,
  selectable,
  selected,
  onSelectedChange,
  selectAllIds,
  showBulkBar,
  selectAllOnPhone = false,
  bulkBar,
  pager,
}) {
  const shownIds = rows.map((r) => r[rowKey]);
  const allShownSelected = selectable && shownIds.length > 0 && shownIds.every((id) => selected.has(id));
  const toggleAll = () => onSelectedChange(toggledAll(selected, shownIds, selectAllIds, allShownSelected));
  const toggleOne = (id) => onSelectedChange(toggled(selected, id));

  return (
    <div className={className}>
      <div className="admin-table__toolbar">
        {search && (
          <input
            type="search"
            className="input admin-table__search"
            placeholder={searchPlaceholder || at("search")}
            aria-label={searchPlaceholder || at("search")}
            value={search.value}
            onChange={(e) => search.set(e.target.value)}
          />
        )}
        {filters.map((f) => (
          <select
            key={f.key}
            className="input admin-table__filter"
            aria-label={f.label}
            value={filterValue(f)}
            onChange={(e) => setFilter(f, e.target.value)}
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

      {selectable && showBulkBar && (
        <div className="admin-table__bulk" role="region" aria-label={at("bulkActions")}>
          {selectAllOnPhone && (
            <label className="admin-b-phone-only admin-b-select-all">
              <input type="checkbox" checked={allShownSelected} onChange={toggleAll} />
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
                  <label className="admin-table__tap">
                    <input type="checkbox" aria-label={at("selectAll")} checked={allShownSelected} onChange={toggleAll} />
                  </label>
                </th>
              )}
              {columns.map((c) => (
                <th
                  key={c.key}
                  className={c.className}
                  aria-sort={sort && sort.key === c.key ? (sort.dir === 1 ? "ascending" : "descending") : undefined}
                >
                  {c.sortable && sortBy ? (
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
            {rows.map((row) => {
              const id = row[rowKey];
              return (
                <tr key={id} className={rowClassName ? rowClassName(row) : undefined} data-row-id={id}>
                  {selectable && (
                    <td className="admin-table__check">
                      {/* the label is the box staff tap: 44 px on a phone, around a box the browser draws small */}
                      <label className="admin-table__tap">
                        <input
                          type="checkbox"
                          aria-label={at("selectRow")}
                          checked={selected.has(id)}
                          onChange={() => toggleOne(id)}
                        />
                      </label>
                    </td>
                  )}
                  {columns.map((c) => (
                    <td key={c.key} className={c.className} data-label={c.label}>
                      {c.render ? c.render(row) : <bdi>{valueOf(c, row)}</bdi>}
                    </td>
                  ))}
                </tr>
              );
            })}
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
        <span>{at("showing", { from: pager.from, to: pager.to, total: pager.total })}</span>
        <label className="admin-table__page-size">
          {at("perPage")}
          <select className="input" value={pager.pageSize} onChange={(e) => pager.setPageSize(Number(e.target.value))}>
            {pager.pageSizes.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--small button--ghost"
          disabled={pager.page <= 1}
          onClick={() => pager.setPage(pager.page - 1)}
        >
          {at("previous")}
        </button>
        <span>{at("pageOf", { page: pager.page, pages: pager.pages })}</span>
        <button
          type="button"
          className="button button--small button--ghost"
          disabled={pager.page >= pager.pages}
          onClick={() => pager.setPage(pager.page + 1)}
        >
          {at("next")}
        </button>
      </div>
    </div>
  );
}
