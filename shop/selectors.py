import random

from django.db.models import Q
from django.utils import timezone

from shop.models import Announcement


def announcement_list_visible():
    """Active announcements within their dates, main ones first."""
    now = timezone.now()
    return Announcement.objects.filter(
        Q(is_active=True), Q(display_start_date__lte=now), Q(display_end_date__gte=now)
    ).order_by("-is_main", "-display_start_date")


def announcement_pick():
    """The main announcement if there is one, else a random active one."""
    visible = list(announcement_list_visible()[:20])
    if not visible:
        return None
    mains = [a for a in visible if a.is_main]
    return mains[0] if mains else random.choice(visible)
