// The status filter of a server-paged section: "All statuses" and one option per status, labelled
// from the section's strings (`status.<value>`, `statusLabel`, `allStatuses`).
export const statusOptions = (st, values) => values.map((value) => ({ value, label: st(`status.${value}`) }));

export const statusFilter = (st, values) => ({
  key: "status",
  label: st("statusLabel"),
  allLabel: st("allStatuses"),
  options: statusOptions(st, values),
});
