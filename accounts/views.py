"""Customer account pages: plain forms that work without JavaScript."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from accounts import addresses, privacy, services
from accounts.selectors import customer_order_list
from accounts.services import ResetLinkError
from orders.places import governorate_choices
from shop.errors import ShopError
from shop.newsletter import newsletter_awaits_confirmation
from shop.ratelimit import rate_limit_exceeded, rate_limit_message, rate_limit_posts
from shop.site_url import site_url
from shop.validation import id_parse

# orders per page of the account's order history: a card holds the order's items and totals, so ten
# is a few screens on a phone, and a customer with hundreds of orders is not sent them all at once
ORDERS_PER_PAGE = 10
_REGISTER_FIELDS = ("firstName", "lastName", "email", "phone", "password", "confirmPassword")


def _home():
    return reverse("shop:home")


# pages a shopper is never sent back to after signing in (they would loop)
_NOT_NEXT = ("/login", "/register", "/logout", "/forgot-password", "/reset-password")
LOGIN_EMAIL_KEY = "login_email"


def _safe_next(request):
    """The `next` page to land on after signing in: a path on this site only.

    An absolute or scheme-relative address (`https://evil.example`, `//evil.example`,
    `/\\evil.example`) is ignored, whatever its host, and so are the sign-in pages themselves.
    """
    target = (request.POST.get("next") or request.GET.get("next") or "").strip()
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return ""
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        return ""
    path = target.split("?", 1)[0].split("#", 1)[0].removeprefix("/ar").rstrip("/")
    if path in _NOT_NEXT:
        return ""
    return target


def _with_next(url, next_url):
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def _signed_in_customer(request):
    return request.user.is_authenticated and request.user.is_customer


@never_cache
@sensitive_post_parameters("password", "confirmPassword")
@rate_limit_posts("register")
def register(request):
    next_url = _safe_next(request)
    if _signed_in_customer(request):
        return redirect(next_url or _home())
    values = {"subscribeNewsletter": True}
    errors = {}
    if request.method == "POST":
        values = {name: request.POST.get(name, "") for name in _REGISTER_FIELDS}
        values["agreeToTerms"] = bool(request.POST.get("agreeToTerms"))
        values["subscribeNewsletter"] = bool(request.POST.get("subscribeNewsletter"))
        errors = services.customer_errors(
            first_name=values["firstName"], last_name=values["lastName"], email=values["email"],
            password=values["password"], phone=values["phone"],
        )
        if not values["confirmPassword"]:
            errors["confirmPassword"] = _("Please confirm your password")
        elif values["password"] and values["confirmPassword"] != values["password"]:
            errors["confirmPassword"] = _("Passwords do not match")
        if not values["agreeToTerms"]:
            errors["agreeToTerms"] = _("You must agree to the terms and conditions")
        if not errors:
            try:
                services.customer_create(
                    first_name=values["firstName"], last_name=values["lastName"], email=values["email"],
                    password=values["password"], phone=values["phone"],
                    subscribe_newsletter=values["subscribeNewsletter"], language=get_language() or "en",
                    site_url=site_url(request),
                )
            except ShopError as exc:
                errors[exc.field or "form"] = exc.message
            else:
                messages.success(request, _("Account created successfully! Please sign in to continue."))
                # double opt-in: the ticked box subscribes nobody until its e-mailed link is opened
                if values["subscribeNewsletter"] and newsletter_awaits_confirmation(values["email"].strip()):
                    messages.info(request, _(
                        "Almost done: open the link we e-mailed you to confirm your newsletter subscription."))
                # the sign-in form starts with this e-mail (kept in the session, never in the URL)
                request.session[LOGIN_EMAIL_KEY] = values["email"].strip()
                return redirect(_with_next(reverse("accounts:login"), next_url))
        # passwords are never sent back to the browser
        values["password"] = values["confirmPassword"] = ""
    return render(request, "accounts/register.html", {"values": values, "errors": errors, "next": next_url},
                  status=400 if errors else 200)


@never_cache
@sensitive_post_parameters("password")
@rate_limit_posts("sign_in")
def login_view(request):
    next_url = _safe_next(request)
    if request.method == "GET" and _signed_in_customer(request):
        return redirect(next_url or _home())
    values = {"email": request.session.pop(LOGIN_EMAIL_KEY, ""), "rememberMe": False}
    errors = {}
    if request.method == "POST":
        values = {"email": request.POST.get("email", "").strip(),
                  "rememberMe": bool(request.POST.get("rememberMe"))}
        password = request.POST.get("password", "")
        if not values["email"]:
            errors["email"] = _("Email is required")
        if not password:
            errors["password"] = _("Password is required")
        if not errors:
            try:
                user = services.customer_authenticate(request=request, email=values["email"], password=password)
            except ShopError as exc:  # text no account can have: shown under its field
                errors[exc.field or "form"] = exc.message
            else:
                if user is not None:
                    services.customer_sign_in(
                        request=request, user=user, remember_me=values["rememberMe"], language=get_language()
                    )
                    return redirect(next_url or _home())
                errors["form"] = _("Login failed. Please try again.")
    return render(request, "accounts/login.html", {"values": values, "errors": errors, "next": next_url},
                  status=400 if errors else 200)


@require_POST
def logout_view(request):
    services.customer_sign_out(request=request)
    return redirect(_home())


@never_cache
@rate_limit_posts("password_reset")
def forgot_password(request):
    email = ""
    errors = {}
    if request.method == "POST":
        email = request.POST.get("email", "").strip()
        try:
            services.password_reset_request(email=email, base_url=site_url(request))
        except ShopError as exc:
            errors[exc.field or "form"] = exc.message
        else:
            return render(request, "accounts/forgot_password_sent.html", {"email": email})
    return render(request, "accounts/forgot_password.html", {"email": email, "errors": errors},
                  status=400 if errors else 200)


@never_cache
@sensitive_post_parameters("password", "confirmPassword")
@rate_limit_posts("password_reset")
def reset_password(request):
    token = request.POST.get("token") or request.GET.get("token") or ""
    errors = {}
    if request.method == "POST":
        try:
            services.password_reset_complete(
                token=token, password=request.POST.get("password", ""),
                confirm=request.POST.get("confirmPassword", ""),
            )
        except ResetLinkError:
            return render(request, "accounts/reset_password_invalid.html", status=400)
        except ShopError as exc:
            errors[exc.field or "form"] = exc.message
        else:
            return render(request, "accounts/reset_password_done.html")
    elif services.reset_token_user(token) is None:
        return render(request, "accounts/reset_password_invalid.html")
    return render(request, "accounts/reset_password.html", {"token": token, "errors": errors},
                  status=400 if errors else 200)


@never_cache
@login_required
@sensitive_post_parameters("currentPassword", "password", "confirmPassword", "deletePassword")
def account(request):
    user = request.user
    if not user.is_customer:
        return redirect("/admindash")
    profile_errors = {}
    password_errors = {}
    delete_errors = {}
    address_errors, address_values = {}, {}
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "profile":
            try:
                services.customer_update_profile(
                    user=user, first_name=request.POST.get("firstName", ""),
                    last_name=request.POST.get("lastName", ""), phone=request.POST.get("phone", ""),
                    subscribe_newsletter=bool(request.POST.get("subscribeNewsletter")), site_url=site_url(request),
                    cart_reminders=bool(request.POST.get("cartReminders")),
                )
            except ShopError as exc:
                profile_errors[exc.field or "form"] = exc.message
                user.refresh_from_db()
            else:
                messages.success(request, _("Your profile has been saved."))
                return redirect(reverse("accounts:account"))
        elif action == "password" and rate_limit_exceeded(request, "sign_in"):
            # each try of the current password counts as a sign-in: a session left open is no way to guess it
            password_errors["currentPassword"] = rate_limit_message()
        elif action == "password":
            try:
                services.customer_change_password(
                    request=request, user=user, current_password=request.POST.get("currentPassword", ""),
                    password=request.POST.get("password", ""), confirm=request.POST.get("confirmPassword", ""),
                )
            except ShopError as exc:
                password_errors[exc.field or "form"] = exc.message
            else:
                messages.success(request, _("Your password has been changed."))
                return redirect(reverse("accounts:account"))
        elif action == "delete_account" and rate_limit_exceeded(request, "sign_in"):
            delete_errors["deletePassword"] = rate_limit_message()
        elif action == "delete_account":
            try:
                privacy.customer_account_delete(request=request, user=user,
                                                password=request.POST.get("deletePassword", ""))
            except ShopError as exc:
                delete_errors[exc.field or "form"] = exc.message
            else:
                return render(request, "accounts/account_deleted.html")
        elif action in ("address_add", "address_default", "address_delete"):
            address_errors, address_values = _address_action(request, action)
            if not address_errors:
                return redirect(reverse("accounts:account") + "#addresses-heading")
    context = {
        "profile_errors": profile_errors,
        "password_errors": password_errors,
        "delete_errors": delete_errors,
        "address_errors": address_errors,
        "address_values": address_values,
        "addresses": addresses.address_list(user=user),
        "governorates": _governorate_choices(),
        "orders": _orders_page(request),
        "newsletter_pending": user.subscribe_newsletter and newsletter_awaits_confirmation(user.email),
    }
    return render(request, "accounts/account.html", context,
                  status=400 if (profile_errors or password_errors or delete_errors or address_errors) else 200)


@never_cache
@login_required
def account_data(request):
    """The customer's copy of what their account holds, as a JSON file to keep."""
    if not request.user.is_customer:
        return redirect("/admindash")
    filename = f"my-data-{timezone.localdate():%Y-%m-%d}.json"
    return JsonResponse(privacy.customer_data_export(user=request.user),
                        json_dumps_params={"ensure_ascii": False, "indent": 2},
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _orders_page(request) -> Page:
    """The page of the customer's orders that `?page=` asks for: the first for anything but digits
    (or 0), the last for a number past it."""
    number = id_parse(request.GET.get("page", "")) or 1
    return Paginator(customer_order_list(user=request.user), ORDERS_PER_PAGE).get_page(number)


def _governorate_choices():
    return governorate_choices(get_language())


def _address_action(request, action):
    """Add, make default or delete a saved address from the account page; return (errors, typed values)."""
    user = request.user
    values = {form: request.POST.get(f"a_{form}", "") for form in addresses.FORM_NAMES.values()}
    try:
        if action == "address_add":
            fields = {name: values[form] for name, form in addresses.FORM_NAMES.items()}
            addresses.address_create(user=user, fields=fields, make_default=bool(request.POST.get("isDefault")))
            messages.success(request, _("Address saved."))
        else:
            address_id = id_parse(request.POST.get("address", ""))
            if address_id is None:
                raise addresses.AddressError(_("Address not found"), field="form")
            if action == "address_default":
                addresses.address_set_default(user=user, address_id=address_id)
                messages.success(request, _("Default address changed."))
            else:
                addresses.address_delete(user=user, address_id=address_id)
                messages.success(request, _("Address deleted."))
    except ShopError as exc:
        errors = dict(getattr(exc, "fields", None) or {}) or {exc.field or "form": exc.message}
        return errors, values
    return {}, {}
