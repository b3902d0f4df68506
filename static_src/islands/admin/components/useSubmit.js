// Sending a dialog's form: `busy` while the request runs; when it fails, the server's field error
// goes to `onFieldError(field, message)` (shown next to that field) and a toast says `failText(err)`.
//   const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
//   submit(() => api(url, { method: "POST", body }), { done: (saved) => …, failText: () => st("saveFailed") });
import { useState } from "react";
import { toast } from "./api.js";

export function useSubmit(onFieldError) {
  const [busy, setBusy] = useState(false);
  const submit = async (request, { done, failText }) => {
    setBusy(true);
    try {
      done(await request());
    } catch (err) {
      if (err.field) onFieldError(err.field, err.message);
      toast(failText(err), "error");
    } finally {
      setBusy(false);
    }
  };
  return [busy, submit];
}
