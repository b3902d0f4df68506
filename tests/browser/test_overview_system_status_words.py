"""The overview's system status names the task broker in the reader's words, not the setting's value."""

import pytest
from playwright.sync_api import expect

from tests.browser.staff_pages import open_island, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("locale, prefix, words", [("ar", "/ar", "ملفات على هذا الخادم"),
                                                   ("en-US", "", "files on this server")])
def test_the_task_broker_is_named_in_words(new_page, live_server, owner, settings, locale, prefix, words):
    settings.REDIS_URL = ""
    page = signed_in(new_page, live_server, owner, locale=locale)
    open_island(page, f"{prefix}/admindash", "admin-overview")
    status = page.locator("li", has=page.get_by_text("وسيط المهام" if prefix else "Task broker", exact=True))
    expect(status).to_contain_text(words)
    expect(status).not_to_contain_text("filesystem")
