"""Pages already signed in (the sign-in form has its own tests), and waiting for an island."""

from django.conf import settings
from django.test import Client


def signed_in(new_page, live_server, user, **page_options):
    """A page (new_page's viewport and locale) whose browser carries `user`'s session."""
    client = Client()
    client.force_login(user)
    page = new_page(**page_options)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live_server.url}])
    return page


def open_island(page, path, island):
    """Go to `path` and wait until its `island` has mounted (typing before that would be lost)."""
    page.goto(path)
    page.locator(f'[data-island="{island}"][data-mounted="true"]').wait_for()
