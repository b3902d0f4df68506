"""The dashboard's sections: their order, labels and which matrix area guards each.

The sidebar, the shell view and the islands all read this one table, so a
section a role cannot view is hidden from the sidebar and refused by the
shell just as its API refuses the calls.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from accounts.models import Role
from accounts.roles import has_permission, is_staff_member


# The roles' names in this app's catalogue too, so the dashboard shows them in Arabic.
ROLE_LABELS = {
    Role.OWNER: _("Owner"),
    Role.MANAGER: _("Manager"),
    Role.HEAD_SUPPORT: _("Head Support"),
    Role.SUPPORT: _("Support"),
}

# The matrix areas' names (accounts.roles.AREAS), likewise.
AREA_LABELS = {
    "products": _("Products, inventory and import"),
    "delete_all_products": _("Delete all products"),
    "orders": _("Orders"),
    "customers": _("Customers"),
    "coupons": _("Coupons and announcements"),
    "messages": _("Messages and reviews"),
    "analytics": _("Analytics"),
    "overview": _("Overview"),
    "settings": _("Settings"),
    "system": _("Roles, storage, database and system"),
}


@dataclass(frozen=True)
class Section:
    slug: str
    label: str
    area: str | None  # None: any staff member may open it
    icon: str
    owner_only_in_sidebar: bool = False


SECTIONS = [
    Section("overview", _("Overview"), "overview", "◎"),
    Section("products", _("Products"), "products", "▦"),
    Section("external-products", _("External Products"), "products", "⇩"),
    Section("orders", _("Orders"), "orders", "☰"),
    Section("users", _("Customers"), "customers", "☺"),
    Section("inventory", _("Inventory"), "products", "▤"),
    Section("analytics", _("Analytics"), "analytics", "↗"),
    Section("announcements", _("Announcements"), "coupons", "✦"),
    Section("coupons", _("Coupons"), "coupons", "%"),
    Section("newsletter", _("Newsletter"), "coupons", "✉"),
    Section("messages", _("Messages"), "messages", "✎"),
    Section("reviews", _("Reviews"), "messages", "★"),
    Section("settings", _("Settings"), "settings", "⚙"),
    # Any staff member may open Roles to read the matrix; only the Owner sees it listed.
    Section("roles", _("Role Management"), None, "⚿", owner_only_in_sidebar=True),
    Section("storage", _("Storage Management"), "system", "⛁", owner_only_in_sidebar=True),
    Section("database", _("Database Config"), "system", "⛃", owner_only_in_sidebar=True),
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
        if can_open(user, s) and (not s.owner_only_in_sidebar or user.role == Role.OWNER)
    ]
