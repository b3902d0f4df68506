"""shop.sqlite: a statement's placeholders are turned into SQLite's once per process, read as Django reads them."""

import re

import pytest
from django.db import connection

from shop.sqlite import base

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backend's cursor")


def test_placeholders_and_percent_signs_read_as_django_reads_them(db):
    with connection.cursor() as cursor:
        for _ in range(2):  # converted, then remembered
            cursor.execute("SELECT %s || '%%', %s", ["a", 2])
            assert cursor.fetchone() == ("a%", 2)
        cursor.execute("SELECT %(name)s || '%%'", {"name": "b"})
        assert cursor.fetchone() == ("b%",)


def test_a_statement_is_converted_once(db, monkeypatch):
    converted = []

    class Counting:
        def sub(self, replacement, query):
            converted.append(query)
            return re.sub(r"(?<!%)%s", replacement, query)

    monkeypatch.setattr(base, "FORMAT_QMARK_REGEX", Counting())
    statement = "SELECT %s AS converted_once_probe"
    with connection.cursor() as cursor:
        for n in range(3):
            cursor.execute(statement, [n])
            assert cursor.fetchone() == (n,)
    assert converted == [statement]
