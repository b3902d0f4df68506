// The one fetch client: JSON (or FormData) in, JSON out, CSRF header, page language,
// timeout, and every failure turned into one ApiError whose `kind` says what went wrong:
// "network" (no answer), "timeout", "parse" (an answer that is not JSON) or "server"
// (the API's error shape {error, message, field}).
export class ApiError extends Error {
  constructor(message, { kind = "server", status = 0, field = null, body = null } = {}) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.field = field;
    this.body = body;
  }
}

// What to tell the user about `err`: the server's own message when it sent one, else `fallback`.
export function userMessage(err, fallback) {
  if (err instanceof ApiError && err.kind === "server" && err.body && (err.body.message || err.body.error)) {
    return err.body.message || err.body.error;
  }
  return fallback;
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function api(path, { method = "GET", body, timeout = 30000, headers = {} } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      signal: controller.signal,
      headers: {
        Accept: "application/json",
        "Accept-Language": document.documentElement.lang || "en",
        ...(body !== undefined && !isForm ? { "Content-Type": "application/json" } : {}),
        ...(method !== "GET" ? { "X-CSRFToken": csrfToken() } : {}),
        ...headers,
      },
      body: body === undefined || isForm ? body : JSON.stringify(body),
    });
  } catch (err) {
    const kind = err.name === "AbortError" ? "timeout" : "network";
    throw new ApiError(kind, { kind, status: 0, body: { timedOut: kind === "timeout" } });
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new ApiError("parse", { kind: "parse", status: response.status });
    }
  }
  if (!response.ok) {
    throw new ApiError((data && (data.message || data.error)) || `HTTP ${response.status}`, {
      kind: "server",
      status: response.status,
      field: data && data.field,
      body: data,
    });
  }
  return data;
}

// POST a FormData (file uploads) through the same client.
export function upload(path, formData, options = {}) {
  return api(path, { method: "POST", body: formData, timeout: 120000, ...options });
}

// Answers can arrive out of order: a slow first request finishes after a quick second one, and
// applying it would show totals for a choice the shopper has already changed. `latestOnly()`
// gives a function that passes a request through and settles with STALE (result or error alike)
// when a newer request went out through the same function meanwhile.
export const STALE = Symbol("stale");
export function latestOnly() {
  let newest = 0;
  return async (request) => {
    const mine = ++newest;
    try {
      const result = await request();
      return mine === newest ? result : STALE;
    } catch (err) {
      if (mine !== newest) return STALE;
      throw err;
    }
  };
}
