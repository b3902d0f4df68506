import random
from dataclasses import dataclass

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


def announcement_pick(*, language: str = "en") -> ShownAnnouncement | None:
    """The main announcement if there is one, else a random active one, as a page in `language` shows it.

    On Arabic pages an announcement without Arabic text is skipped when staff
    chose to hide it there.
    """
    shown = []
    for announcement in announcement_list_visible()[:20]:
        text = announcement.shown_in(language)
        if text is not None:
            shown.append((announcement, text))
    if not shown:
        return None
    mains = [pair for pair in shown if pair[0].is_main]
    announcement, (title, content, label, lang) = mains[0] if mains else random.choice(shown)
    return ShownAnnouncement(pk=announcement.pk, title=title, content=content, link=announcement.link,
                             link_label=label, lang=lang, banner_color=announcement.banner_color,
                             text_color=announcement.text_color)
