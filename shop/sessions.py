"""Sessions: Django's cached_db sessions, found in the request's first shared-cache read.

The database holds every session, so nothing is lost when the shared cache is
flushed or down; the cache holds a copy of each. A visitor's session key comes
with the request, so its copy joins the request's first round trip to the
shared cache (shop.request_scope.shared_prefetch, the one that reads the store
settings and the catalogue version): a visitor with a cart or a sign-in costs
no query and no round trip of its own to find their session. A copy that is
missing is read from the database with one plain query and put back.

Writes, expiry and deletion are Django's own (django.contrib.sessions.backends.cached_db);
a write that cannot reach Redis leaves the old copy, which shop.cache.FailOpenRedisCache
deletes as soon as Redis answers again.
"""

from datetime import UTC

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDatabaseSessionStore
from django.db import connections, router
from django.utils import timezone

from shop.request_scope import shared_forget, shared_get, shared_prefetch


class SessionStore(CachedDatabaseSessionStore):
    def __init__(self, session_key=None):
        super().__init__(session_key)
        if self.session_key:  # None when the cookie's key is malformed
            shared_prefetch(self.cache_key)

    def load(self):
        data = shared_get(self.cache_key) if self.session_key else None
        if data is None:
            found = self._get_session_from_db()
            if found is None:
                return {}
            data = self.decode(found.session_data)
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=found.expire_date))
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
