"""Wait until a page's API writes have answered (every page of `new_page` is tracked).

The checkout refreshes its summary (a POST) when the method, country or governorate changes.
A test that presses Place order while one is still running makes two overlapping writes, which
the SQLite test database (shared-cache in-memory) refuses with "database table is locked"; and
the answer can move the button while the click is on its way (on a phone the cash-on-delivery
fee and delivery rows above it come and go), so the click lands beside it and nothing happens.
"""


def track_writes(page):
    """Start counting the page's unanswered POST/PUT/PATCH/DELETE requests to /api/."""
    pending = set()

    def started(request):
        if request.method != "GET" and "/api/" in request.url:
            pending.add(request)

    def ended(request):
        pending.discard(request)

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    page._pending_writes = pending  # read by settle()
    return page


def settle(page, timeout_ms=10_000):
    """Wait (up to timeout_ms) until every tracked write has answered."""
    waited = 0
    while getattr(page, "_pending_writes", None) and waited < timeout_ms:
        page.wait_for_timeout(50)
        waited += 50
    assert not getattr(page, "_pending_writes", None), "API writes still running"


def place_order(page):
    """Press the checkout's Place order (Pay now) once the summaries that the form asked for have answered."""
    settle(page)
    page.get_by_test_id("place-order").click()
