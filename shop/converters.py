"""URL converters: `<id:…>` is `<int:…>` bounded to what a database id can be.

Django's `int` converter matches any run of digits, and an id past 2^63
overflows the database driver (a 500 on SQLite). `id` matches at most 18
digits, so a longer number is simply a URL that does not exist (404).
"""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value):
        return int(value)

    def to_url(self, value):
        return str(value)


register_converter(IdConverter, "id")
