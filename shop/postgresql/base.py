"""Django's PostgreSQL backend with a health check that costs no round trip.

With CONN_HEALTH_CHECKS a kept connection is checked before a request first uses it. Django checks
by sending `SELECT 1`: a whole round trip to the server, on a page with a session a third of its
queries. A connection the server has given up on (a restart, `idle_session_timeout`, a terminated
backend) has something waiting on its socket by then, the server's goodbye or the end of the
stream, while a healthy idle connection has nothing; so a poll of the socket tells them apart
without asking the server. Anything unexpected waiting counts as unhealthy: the cost of being
wrong that way is one reconnection.
"""

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgresDatabaseWrapper


class DatabaseWrapper(PostgresDatabaseWrapper):
    def is_usable(self):
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        try:
            waiting, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return not waiting
