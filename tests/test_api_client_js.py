"""The islands' one fetch client: every failure is an ApiError with a `kind`, and userMessage
shows the server's own message only when the server sent one.

Runs static_src/lib/api.js in Node (bundled by the project's esbuild) against a stubbed fetch.
"""

import pytest

from tests.node_harness import node_results

CHECKS = r"""
import { api, latestOnly, STALE, upload, userMessage, ApiError } from "./static_src/lib/api.js";
globalThis.document = { cookie: "csrftoken=abc", documentElement: { lang: "ar" } };
const answer = (status, text) => async () => ({ ok: status < 400, status, text: async () => text });
const cases = {
  network: async () => { throw new TypeError("Failed to fetch"); },
  timeout: async () => { const e = new Error("aborted"); e.name = "AbortError"; throw e; },
  parse: answer(502, "<html>Bad gateway</html>"),
  server: answer(400, JSON.stringify({
    error: "Rating must be between 1 and 5", message: "Rating must be between 1 and 5", field: "rating",
  })),
  bare: answer(500, ""),
};
const out = {};
for (const [name, stub] of Object.entries(cases)) {
  globalThis.fetch = stub;
  try { await api("/api/x", { method: "POST", body: {} }); out[name] = "no error"; }
  catch (err) {
    out[name] = {
      kind: err.kind, isApiError: err instanceof ApiError, field: err.field, user: userMessage(err, "fallback"),
    };
  }
}
let sent = null;
globalThis.FormData = class {};
globalThis.fetch = async (path, init) => {
  sent = init;
  return { ok: true, status: 201, text: async () => '{"url": "/media/x.png"}' };
};
out.upload = {
  answer: await upload("/api/admin/products/images", new FormData()),
  contentType: sent.headers["Content-Type"] ?? null, csrf: sent.headers["X-CSRFToken"],
};
// a slow first request, a quick second one, and a slow third that fails after a quicker fourth
const latest = latestOnly();
const later = (ms, value, fail) => () =>
  new Promise((ok, no) => setTimeout(() => (fail ? no(new Error(value)) : ok(value)), ms));
const settled = (p) => p.then((v) => (v === STALE ? "stale" : v), (e) => `error ${e.message}`);
const first = settled(latest(later(40, "first")));
const second = settled(latest(later(5, "second")));
out.latest = [await first, await second];
const third = settled(latest(later(40, "third", true)));
const fourth = settled(latest(later(5, "fourth", true)));
out.latestErrors = [await third, await fourth];
console.log(JSON.stringify(out));
"""


@pytest.fixture
def client_results(tmp_path):
    return node_results(CHECKS, tmp_path, "api-client-check")


def test_every_failure_is_an_api_error_with_its_kind(client_results):
    kinds = {name: client_results[name]["kind"] for name in ("network", "timeout", "parse", "server", "bare")}
    assert kinds == {"network": "network", "timeout": "timeout", "parse": "parse", "server": "server",
                     "bare": "server"}
    assert all(client_results[name]["isApiError"] for name in kinds)


def test_user_message_is_the_servers_text_only_when_it_sent_one(client_results):
    assert client_results["server"]["user"] == "Rating must be between 1 and 5"
    assert client_results["server"]["field"] == "rating"
    for name in ("network", "timeout", "parse", "bare"):
        assert client_results[name]["user"] == "fallback"


def test_uploads_go_through_the_same_client_without_a_json_content_type(client_results):
    assert client_results["upload"] == {"answer": {"url": "/media/x.png"}, "contentType": None, "csrf": "abc"}


def test_only_the_newest_requests_answer_or_error_is_kept(client_results):
    assert client_results["latest"] == ["stale", "second"]
    assert client_results["latestErrors"] == ["stale", "error fourth"]
