"""Serializer fields shared by the section forms (dates from <input type=date>, colours)."""

from datetime import date, datetime

from django.core.validators import RegexValidator
from django.utils.dateparse import parse_date
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from shop.store_time import store_day_end, store_day_start

# Dates a shop plans with. Far years are typing slips, and before 1900 Cairo's
# zone has a local-mean-time offset (+02:05:09) that no RFC 3339 reader takes.
FIRST_YEAR, LAST_YEAR = 2000, 2100


class DayOrDateTimeField(serializers.DateTimeField):
    """Accept an ISO datetime, or a bare date meaning the start (or end) of that day in the store's time zone."""

    def __init__(self, *, end_of_day=False, **kwargs):
        self.end_of_day = end_of_day
        super().__init__(**kwargs)

    def to_internal_value(self, value):
        moment = self._parse(value)
        if not FIRST_YEAR <= moment.year <= LAST_YEAR:
            raise serializers.ValidationError(
                _("Please enter a date between %(first)d and %(last)d")
                % {"first": FIRST_YEAR, "last": LAST_YEAR}
            )
        return moment

    def _parse(self, value):
        if isinstance(value, str) and len(value.strip()) == 10:
            try:
                day = parse_date(value.strip())
            except ValueError:  # shaped like a date, but no such day (2026-02-30, 2026-13-01)
                day = None  # DRF's own parse below refuses it with the field's "invalid" error
            if day is not None:
                return self._aware(day)
        if isinstance(value, date) and not isinstance(value, datetime):
            return self._aware(value)
        return super().to_internal_value(value)

    def _aware(self, day):
        # the last day there is has no next one; its year is refused in to_internal_value anyway
        return local_day_end(day) if self.end_of_day and day < date.max else local_day_start(day)


def local_day_start(day):
    """The first moment of the store's calendar day `day` (shop.store_time)."""
    return store_day_start(day)


def local_day_end(day):
    """The last whole second of the store's day `day` (shop.store_time)."""
    return store_day_end(day)


class ColourField(serializers.CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=9, **kwargs)
        self.validators.append(
            RegexValidator(r"^#[0-9a-fA-F]{6}$", _("Enter a colour like #dc2626"))
        )
