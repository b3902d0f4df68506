// A server-paged list ({results, count, page, pageSize, totalPages}): search and filters go to
// the API as query parameters, so it scales past what fits in one answer. DataTable shows it:
//   const table = useServerList("/api/admin/orders", { status: "" });
//   <DataTable table={table} columns={…} filters={…} selectable bulkBar={…} />
// Columns marked `sortable` sort on the server: `sort=key` (ascending) or `sort=-key`.
import { useEffect, useMemo, useState } from "react";
import { useAdminData } from "./api.js";

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
  const [sort, setSort] = useState(null); // {key, dir: 1|-1}
  const debouncedSearch = useDebounced(search);
  const path = useMemo(() => {
    const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
    if (debouncedSearch.trim()) params.set("search", debouncedSearch.trim());
    for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
    if (sort) params.set("sort", `${sort.dir === -1 ? "-" : ""}${sort.key}`);
    return `${endpoint}?${params}`;
  }, [endpoint, page, pageSize, debouncedSearch, filters, sort]);
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
    sort,
    // a column's header: ascending, then descending, then the server's own order
    sortBy: (key) => {
      setSort((prev) => (prev && prev.key === key ? (prev.dir === 1 ? { key, dir: -1 } : null) : { key, dir: 1 }));
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
