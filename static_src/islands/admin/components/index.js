// Everything a dashboard section island needs, from one import.
export { DataTable } from "./DataTable.jsx";
export { useServerList } from "./useServerList.js";
export { Dialog, ConfirmDialog, DialogFooter } from "./Dialog.jsx";
export { useSubmit } from "./useSubmit.js";
export { useConfirmedDelete } from "./useConfirmedDelete.js";
export { statusFilter, statusOptions } from "./filters.js";
export { StatusSelect, Badge } from "./StatusSelect.jsx";
export { Field, Toggle } from "./Field.jsx";
export { api, ApiError, toast, userMessage, useAdminData, can, upload, camel, sleep } from "./api.js";
export { at, sectionStrings } from "./strings.js";
export { StatCard, Section, Forbidden, formatDateTime, formatAge } from "./Layout.jsx";
export { RowMenu } from "./RowMenu.jsx";
export { OrderNumber, withOrderNumber } from "./OrderNumber.jsx";
