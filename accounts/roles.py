"""Staff roles and what each may do: the matrix as data, and the DRF permission.

Areas group the dashboard's sections the way DECISIONS.md's table does:
products (with inventory and import), delete_all_products, orders, customers,
coupons (with announcements), messages (with reviews), analytics, overview,
settings, system (roles, storage, database, system info).
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, permissions

from accounts.models import Role

# "export": a CSV of every row at once. Where the rows are customers' names, e-mails and phones (orders,
# newsletter) that is a copy of the customer base, not a look at it: only the "all" roles have it
ALL = frozenset({"view", "create", "edit", "delete", "status", "reply", "export"})
VIEW = frozenset({"view"})

AREAS = {
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

MATRIX = {
    Role.OWNER: {
        "products": ALL, "delete_all_products": ALL, "orders": ALL, "customers": ALL,
        "coupons": ALL, "messages": ALL, "analytics": VIEW, "overview": VIEW,
        "settings": ALL, "system": ALL,
    },
    Role.MANAGER: {
        "products": ALL, "orders": ALL, "customers": ALL, "coupons": ALL, "messages": ALL,
        "analytics": VIEW, "overview": VIEW, "settings": ALL,
    },
    Role.HEAD_SUPPORT: {
        "products": VIEW, "orders": frozenset({"view", "status"}),
        "customers": frozenset({"view", "edit"}), "coupons": VIEW, "messages": ALL,
        "analytics": VIEW, "overview": VIEW,
    },
    Role.SUPPORT: {
        "products": VIEW, "orders": frozenset({"view", "status"}), "customers": VIEW,
        "messages": frozenset({"view", "reply"}), "overview": VIEW,
    },
}

# The most one login of a role takes in one go where the rows are customers' names, e-mails and addresses:
# rows per list page (`page_size`) and orders per printed PDF (`print_orders`: packing slips, invoices).
# Support answers one customer at a time; at the dashboard's own caps (100 rows, 200 orders) one Support
# login could collect the customer base in a few requests. Roles not named keep the dashboard's caps.
BULK_CAPS = {
    Role.SUPPORT: {"page_size": 20, "print_orders": 10},
}


def bulk_cap(user: Any, what: str, default: int) -> int:
    """The most `user` may take at once of `what` (BULK_CAPS), never more than the dashboard's `default`."""
    return min(default, BULK_CAPS.get(getattr(user, "staff_role", None), {}).get(what, default))


def is_staff_member(user: Any) -> bool:
    """The privilege check for the dashboard and the staff-only storefront parts."""
    return bool(user and user.is_authenticated and user.is_staff_member)


def has_permission(user: Any, area: str, action: str = "view") -> bool:
    """Whether `user` may do `action` in `area`."""
    if not is_staff_member(user):
        return False
    return action in MATRIX.get(user.staff_role, {}).get(area, frozenset())


def permissions_for(role: str) -> dict[str, list[str]]:
    """The role's areas and actions, for the roles screen and /api/admin/roles."""
    return {area: sorted(actions) for area, actions in MATRIX.get(role, {}).items()}


_ACTION_BY_METHOD = {"GET": "view", "HEAD": "view", "OPTIONS": "view",
                     "POST": "create", "PUT": "edit", "PATCH": "edit", "DELETE": "delete"}


class AdminAuthenticationRequired(exceptions.NotAuthenticated):
    default_detail = _("Admin authentication required")


class AdminPermissionRequired(exceptions.PermissionDenied):
    default_detail = _("Admin permissions required")


class StaffAreaPermission(permissions.BasePermission):
    """Allow staff whose role has the view's `area` right for this method.

    A view sets `area = "orders"` and, where a method means something other
    than the usual view/create/edit/delete, `area_actions = {"PUT": "status"}`.
    """

    def has_permission(self, request, view):
        if not is_staff_member(request.user):
            raise AdminAuthenticationRequired()
        area = getattr(view, "area", None)
        if area is None:  # any staff member
            return True
        action = getattr(view, "area_actions", {}).get(request.method) or _ACTION_BY_METHOD.get(
            request.method, "edit"
        )
        if not has_permission(request.user, area, action):
            raise AdminPermissionRequired()
        return True
