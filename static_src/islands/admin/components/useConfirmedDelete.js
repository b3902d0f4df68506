// Delete a row after a ConfirmDialog: `ask(row)` opens the question, `remove()` (its onConfirm)
// sends DELETE to `path(row)`, then `removed(row)` or `failed(err)`; the question closes either way.
import { useState } from "react";
import { api } from "./api.js";

export function useConfirmedDelete({ path, removed, failed }) {
  const [deleting, setDeleting] = useState(null);
  const remove = async () => {
    try {
      await api(path(deleting), { method: "DELETE" });
      removed(deleting);
    } catch (err) {
      failed(err);
    } finally {
      setDeleting(null);
    }
  };
  return { deleting, ask: setDeleting, cancel: () => setDeleting(null), remove };
}
