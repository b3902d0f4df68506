"""Arabic number formats as the shop writes them: Latin digits, "." before decimals, "," between thousands
(`1,234.50 ج.م`, as shop.money writes prices). Django's own Arabic formats swap the two, so a bare number in
an Arabic template (a rate of 0.376 in a staff e-mail) read "0,376"."""

from django.conf.locale.ar.formats import *  # noqa: F403 (dates and times stay Django's)

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
