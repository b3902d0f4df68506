"""Serializer fields shared by the section forms (dates from <input type=date>, colours)."""

from datetime import date, datetime, time

from django.core.validators import RegexValidator
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# Dates a shop plans with. Far years are typing slips, and before 1900 Cairo's
# zone has a local-mean-time offset (+02:05:09) that no RFC 3339 reader takes.
FIRST_YEAR, LAST_YEAR = 2000, 2100


class DayOrDateTimeField(serializers.DateTimeField):
    """Accept an ISO datetime, or a bare date meaning the start (or end) of that local day."""

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
        moment = datetime.combine(day, time.max if self.end_of_day else time.min)
        return timezone.make_aware(moment.replace(microsecond=0), timezone.get_current_timezone())


class ColourField(serializers.CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=9, **kwargs)
        self.validators.append(
            RegexValidator(r"^#[0-9a-fA-F]{6}$", _("Enter a colour like #dc2626"))
        )
