from django.conf import settings
from django.utils.translation import get_language, get_language_bidi

from orders.cart import cart_item_count
from shop.selectors import announcement_pick
from shop.store_settings import store_settings_get


def shop(request):
    """Give every page the store settings, language, direction, cart count, announcement."""

    language = get_language() or settings.LANGUAGE_CODE
    return {
        "store": store_settings_get(),
        "LANG": language,
        "DIR": "rtl" if get_language_bidi() else "ltr",
        "OTHER_LANG": "en" if language == "ar" else "ar",
        "cart_count": cart_item_count(request),
        "announcement": announcement_pick(language=language),
    }
