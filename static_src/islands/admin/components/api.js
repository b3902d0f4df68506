// Dashboard data helpers over the shared fetch client.
import { useCallback, useEffect, useRef, useState } from "react";
import { api, ApiError, upload, userMessage } from "../../../lib/api.js";
import { toast } from "../../../lib/events.js";
import { REFRESH_EVENT, REFRESHED_EVENT } from "../shell.js";

export { api, ApiError, toast, upload, userMessage };

// GET `path`, keep the answer, reload on Refresh Now / auto-refresh. Failures are only logged
// (spec 8) and leave `fallback` (or the last good data) in place.
export function useAdminData(path, { fallback = null, onError } = {}) {
  const [data, setData] = useState(fallback);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(null);
  const pathRef = useRef(path);
  pathRef.current = path;

  const reload = useCallback(async () => {
    if (!pathRef.current) return null;
    setLoading(true);
    try {
      const answer = await api(pathRef.current);
      setData(answer);
      setError(null);
      window.dispatchEvent(new CustomEvent(REFRESHED_EVENT));
      return answer;
    } catch (err) {
      console.error(`Failed to load ${pathRef.current}`, err);
      setError(err);
      if (onError) onError(err);
      return null;
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    reload();
  }, [path, reload]);

  useEffect(() => {
    const listener = () => reload();
    window.addEventListener(REFRESH_EVENT, listener);
    return () => window.removeEventListener(REFRESH_EVENT, listener);
  }, [reload]);

  return { data, setData, loading, error, reload };
}

// API JSON keys are camelCase (head_support -> headSupport); props from the page are not.
export const camel = (key) => key.replace(/_([a-z])/g, (_m, c) => c.toUpperCase());

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function can(permissions, area, action = "view") {
  return Boolean(permissions && permissions[area] && permissions[area].includes(action));
}
