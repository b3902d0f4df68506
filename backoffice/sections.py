"""The dashboard's sections: their order, labels and which matrix area guards each.

The sidebar, the shell view and the islands all read this one table, so a
section a role cannot view is hidden from the sidebar and refused by the
shell just as its API refuses the calls.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from accounts.models import Role
from accounts.roles import has_permission, is_staff_member

# The roles' names (their translations live in the accounts catalogue, with the model).
ROLE_LABELS = dict(Role.choices)


@dataclass(frozen=True)
class Section:
    slug: str
    label: str
    area: str | None  # None: any staff member may open it
    icon: str  # a symbol of backoffice/_icons.html
    owner_only_in_sidebar: bool = False
    mirror_icon: bool = False  # the icon points a way: flip it right-to-left


SECTIONS = [
    Section("overview", _("Overview"), "overview", "overview"),
    Section("products", _("Products"), "products", "products"),
    Section("external-products", _("External Products"), "products", "import"),
    Section("orders", _("Orders"), "orders", "orders"),
    Section("users", _("Customers"), "customers", "customers"),
    Section("inventory", _("Inventory"), "products", "inventory"),
    Section("analytics", _("Analytics"), "analytics", "analytics", mirror_icon=True),
    Section("announcements", _("Announcements"), "coupons", "announcements", mirror_icon=True),
    Section("coupons", _("Coupons"), "coupons", "coupons"),
    Section("newsletter", _("Newsletter"), "coupons", "newsletter"),
    Section("messages", _("Messages"), "messages", "messages", mirror_icon=True),
    Section("reviews", _("Reviews"), "messages", "reviews"),
    Section("settings", _("Settings"), "settings", "settings"),
    # Any staff member may open Roles to read the matrix; only the Owner sees it listed.
    Section("roles", _("Role Management"), None, "roles", owner_only_in_sidebar=True),
    Section("storage", _("Storage Management"), "system", "storage", owner_only_in_sidebar=True),
    Section("database", _("Database Config"), "system", "database", owner_only_in_sidebar=True),
]
BY_SLUG = {section.slug: section for section in SECTIONS}

# Spec 2: the active section is the first of these the path contains.
_MATCH_ORDER = ["products", "orders", "users", "settings", "analytics", "announcements", "inventory",
                "coupons", "newsletter", "messages", "reviews", "external-products", "roles",
                "storage", "database"]


def section_from_path(path):
    """Pick the active section from a dashboard path (spec 2), else overview."""
    rest = path.split("admindash", 1)[-1]
    # external-products contains "products": check the longer names first
    for slug in sorted(_MATCH_ORDER, key=len, reverse=True):
        if slug in rest:
            return BY_SLUG[slug]
    return BY_SLUG["overview"]


def can_open(user, section):
    if not is_staff_member(user):
        return False
    return section.area is None or has_permission(user, section.area, "view")


def sidebar_for(user):
    """The sections this staff member sees in the sidebar."""
    return [
        s for s in SECTIONS
        if can_open(user, s) and (not s.owner_only_in_sidebar or user.staff_role == Role.OWNER)
    ]
