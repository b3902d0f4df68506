// The one fetch client: JSON in and out, CSRF header, page language, timeout,
// and the API's error shape ({error, message, field}) turned into ApiError.
export class ApiError extends Error {
  constructor(message, { status = 0, field = null, body = null } = {}) {
    super(message);
    this.status = status;
    this.field = field;
    this.body = body;
  }
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function api(path, { method = "GET", body, timeout = 30000, headers = {} } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      signal: controller.signal,
      headers: {
        Accept: "application/json",
        "Accept-Language": document.documentElement.lang || "en",
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(method !== "GET" ? { "X-CSRFToken": csrfToken() } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    const timedOut = err.name === "AbortError";
    throw new ApiError(timedOut ? "timeout" : "network", { status: 0, body: { timedOut } });
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new ApiError("parse", { status: response.status });
    }
  }
  if (!response.ok) {
    throw new ApiError((data && (data.message || data.error)) || `HTTP ${response.status}`, {
      status: response.status,
      field: data && data.field,
      body: data,
    });
  }
  return data;
}
