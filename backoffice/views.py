"""The staff pages: /adminauth (sign in) and the /admindash shell."""

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from accounts.roles import bulk_cap, is_staff_member, permissions_for
from backoffice.auth import staff_sign_in, staff_sign_out
from backoffice.print_views import MAX_ORDERS
from backoffice.sections import ROLE_LABELS, SECTIONS, can_open, section_from_path, sidebar_for
from catalog.models import Category
from shop.errors import ShopError
from shop.ratelimit import rate_limit_posts
from shop.security import csp_allow
from shop.store_settings import store_settings_get
from shop.validation import image_origin


@never_cache
@ensure_csrf_cookie
@rate_limit_posts("sign_in")
def adminauth(request):
    """Sign staff in; an already signed-in staff member goes to the dashboard."""
    if is_staff_member(request.user):
        return HttpResponseRedirect(reverse("backoffice:dashboard"))
    error = ""
    username = ""
    ask_code = False
    if request.method == "POST":  # the no-JavaScript form; the island uses /api/admin/login
        username = request.POST.get("username", "")
        try:
            user, _key = staff_sign_in(request=request, username=username,
                                       password=request.POST.get("password", ""), code=request.POST.get("code", ""))
        except ShopError as exc:
            user, error = None, exc.message
            # two-step sign-in: the form comes back with the code field (the password is typed again)
            ask_code = exc.field == "code"
        if user is not None:
            return HttpResponseRedirect(reverse("backoffice:dashboard"))
        error = error or _("Invalid username or password")
    props = {"language": get_language(), "dashboardUrl": reverse("backoffice:dashboard")}
    return render(request, "backoffice/adminauth.html", {"props": props, "error": error, "username": username,
                                                         "ask_code": ask_code},
                  status=401 if error else 200)


@require_POST
def adminauth_logout(request):
    staff_sign_out(request=request)
    return HttpResponseRedirect(reverse("backoffice:adminauth"))


@never_cache
@ensure_csrf_cookie
def dashboard(request, section=""):
    """Render the shell with the sidebar, header and the active section's island."""
    if not is_staff_member(request.user):
        return HttpResponseRedirect(reverse("backoffice:adminauth"))
    active = section_from_path(request.path)
    user = request.user
    allowed = can_open(user, active)
    props = {
        "section": active.slug,
        "role": user.staff_role,
        "username": user.username,
        "permissions": permissions_for(user.staff_role),
        # orders one print run may hold (accounts.roles.BULK_CAPS): the print buttons say so past it
        "printMost": bulk_cap(user, "print_orders", MAX_ORDERS),
        "language": get_language(),
        "sections": [s.slug for s in SECTIONS if can_open(user, s)],
        # the pages islands link to, in the dashboard's language
        "urls": {**{slug: reverse("backoffice:section", args=[slug]) for slug in ("orders", "inventory", "messages")},
                 "documents": reverse("backoffice:order-documents")},
    }
    if active.slug in ("products", "inventory"):
        props["categories"] = [{"slug": c.slug, "name": c.name}
                               for c in Category.objects.filter(is_assignable=True).order_by("position", "slug")]
    context = {
        "active": active,
        "allowed": allowed,
        "sidebar": sidebar_for(user),
        "props": props,
        "island": f"admin-{active.slug}",
        "role_label": ROLE_LABELS.get(user.staff_role, user.staff_role),
    }
    response = render(request, "backoffice/dashboard.html", context, status=200 if allowed else 403)
    if active.slug == "external-products" and allowed:
        # the importer's preview shows the producer's pictures from its own site
        # (they are downloaded only on import): the CSP must let that one origin in
        origin = image_origin(store_settings_get().external_base_url)
        if origin:
            csp_allow(response, "img-src", [origin])
    return response
