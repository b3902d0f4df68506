import random
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from shop.models import Announcement


def announcement_list_visible() -> QuerySet[Announcement]:
    """Active announcements within their dates, main ones first."""
    now = timezone.now()
    return Announcement.objects.filter(
        Q(is_active=True), Q(display_start_date__lte=now), Q(display_end_date__gte=now)
    ).order_by("-is_main", "-display_start_date")


@dataclass(frozen=True)
class ShownAnnouncement:
    """An announcement as one page shows it: its text in the page's language (or English, `lang`)."""

    pk: int
    title: str
    content: str
    link: str
    link_label: str
    lang: str
    banner_color: str
    text_color: str
    is_main: bool
    display_start_date: datetime
    display_end_date: datetime


def announcement_list_shown(*, language: str = "en", limit: int = 50) -> list[ShownAnnouncement]:
    """Active announcements (main first) as a page in `language` shows them.

    Arabic gets the Arabic text; an announcement without one is left out or kept
    in English (`lang` "en", for the page to isolate), as staff chose for it.
    """
    shown = []
    for announcement in announcement_list_visible()[:limit]:
        text = announcement.shown_in(language)
        if text is None:
            continue
        title, content, label, lang = text
        shown.append(ShownAnnouncement(
            pk=announcement.pk, title=title, content=content, link=announcement.link, link_label=label,
            lang=lang, banner_color=announcement.banner_color, text_color=announcement.text_color,
            is_main=announcement.is_main, display_start_date=announcement.display_start_date,
            display_end_date=announcement.display_end_date,
        ))
    return shown


def announcement_pick(*, language: str = "en") -> ShownAnnouncement | None:
    """The main announcement if there is one, else a random active one, as a page in `language` shows it."""
    shown = announcement_list_shown(language=language, limit=20)
    if not shown:
        return None
    mains = [announcement for announcement in shown if announcement.is_main]
    return mains[0] if mains else random.choice(shown)
