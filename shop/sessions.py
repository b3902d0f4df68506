"""Sessions: Django's cached_db sessions, found in the request's first shared-cache read.

The database holds every session, so nothing is lost when the shared cache is
flushed or down; the cache holds a copy of each. A visitor's session key comes
with the request, so its copy joins the request's first round trip to the
shared cache (shop.request_scope.shared_prefetch, the one that reads the store
settings and the catalogue version): a visitor with a cart or a sign-in costs
no query and no round trip of its own to find their session. A copy that is
missing is read from the database with one plain query and put back.

The keys of what each process keeps for the visitor (their generation tokens, shop.generations: a
guest's cart, a customer's row and cart) join that round trip too: the apps name them
(`SESSION_PREFETCHES`) from the session key and, for a customer, the user id this process last found
in that session. So a guest's stitched page makes one round trip to the shared cache, and so does a
customer's from their second request to a process on. A name that turns out wrong (a session signed
out elsewhere) only reads a key nobody uses.

Writes, expiry and deletion are Django's own (django.contrib.sessions.backends.cached_db);
a write that cannot reach Redis leaves the old copy, which shop.cache.FailOpenRedisCache
deletes as soon as Redis answers again.
"""

from collections.abc import Callable, Iterable
from datetime import UTC

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDatabaseSessionStore
from django.db import connections, router
from django.utils import timezone

from shop.request_scope import shared_forget, shared_get, shared_prefetch

# (session key, user id last found in it or None) -> shared-cache keys a request with that session
# reads; each app that keeps something per visitor adds one (its AppConfig.ready), and the shop its
# store settings and catalogue version (the session may be the request's first read)
SESSION_PREFETCHES: list[Callable[[str, str | None], Iterable[str]]] = []
# session key -> the user id this process last found in it (forgotten all at once when full)
_users_found: dict[str, str] = {}
USERS_FOUND = 10_000


class SessionStore(CachedDatabaseSessionStore):
    def __init__(self, session_key=None):
        super().__init__(session_key)
        if self.session_key:  # None when the cookie's key is malformed
            shared_prefetch(self.cache_key)
            user_id = _users_found.get(self.session_key)
            for keys in SESSION_PREFETCHES:
                for key in keys(self.session_key, user_id):
                    shared_prefetch(key)

    def load(self):
        data = shared_get(self.cache_key) if self.session_key else None
        if data is None:
            found = self._get_session_from_db()
            if found is None:
                return {}
            data = self.decode(found.session_data)
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=found.expire_date))
        if self.session_key and SESSION_KEY in data:
            if len(_users_found) >= USERS_FOUND:
                _users_found.clear()
            _users_found[self.session_key] = str(data[SESSION_KEY])
        return data

    def save(self, must_create=False):
        super().save(must_create)
        shared_forget(self.cache_key)

    def delete(self, session_key=None):
        key = session_key or self.session_key
        super().delete(session_key)
        if key:
            shared_forget(self.cache_key_prefix + key)

    def _get_session_from_db(self):
        # one plain query: building it with the ORM cost more than running it
        if not self.session_key:
            self._session_key = None
            return None
        model = self.model
        connection = connections[router.db_for_read(model)]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data, expire_date FROM {model._meta.db_table} "
                "WHERE session_key = %s AND expire_date > %s", [self.session_key, now],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        session_data, expire_date = row
        if timezone.is_naive(expire_date):  # SQLite keeps UTC without a zone; the ORM would add it
            expire_date = timezone.make_aware(expire_date, UTC)
        return model(session_key=self.session_key, session_data=session_data, expire_date=expire_date)
