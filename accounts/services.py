"""Customer account writes: register, sign in and out, profile, passwords, reset links."""

import re
from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from rest_framework.request import Request

from accounts.emails import password_reset_email
from accounts.lockout import lockout_reset
from accounts.models import AuthToken, User
from orders.cart import cart_merge
from shop.errors import ShopError
from shop.newsletter import newsletter_leave, newsletter_subscribe
from shop.ratelimit import address_mail_allowed
from shop.validation import (
    EMAIL_MAX,
    LINE_MAX,
    NAME_MAX,
    PASSWORD_MAX,
    PHONE_MAX,
    text_problem,
)

# a customer's e-mail address is also their username (accounts.backends), whose column holds 150 characters:
# a longer address, well-formed as it may be, could not be stored (PostgreSQL answered 500)
ACCOUNT_EMAIL_MAX = 150
SESSION_LIFETIME = timedelta(hours=24)
REMEMBER_ME_LIFETIME = timedelta(days=30)

# Egyptian mobiles (010, 011, 012, 015 + 8 digits, with or without +20 / 0020),
# Egyptian landlines (0 + area code, 9-10 digits), or any international number
# written with its country code (E.164: + and 8 to 15 digits). ASCII digits only, as the browser's check
# (static_src/lib/phone.js) takes: Eastern Arabic ones are made 0-9 where input enters (shop.middleware),
# other scripts' (full-width, Devanagari) are no phone number a courier can call.
_EGYPT_MOBILE = re.compile(r"^(?:\+20|0020|0)?1[0125]\d{8}$", re.ASCII)
_EGYPT_LANDLINE = re.compile(r"^0[2-9]\d{7,8}$", re.ASCII)
_INTERNATIONAL = re.compile(r"^(?:\+|00)[1-9]\d{7,14}$", re.ASCII)


class AccountError(ShopError):
    """A customer-facing problem with one field (message is the spec's text)."""


class ResetLinkError(AccountError):
    """A reset link that is missing, malformed, used or older than an hour."""


def phone_normalize(phone: str | None) -> str:
    """Drop the spaces, dashes, dots and brackets people type into phone numbers."""
    return re.sub(r"[\s\-().]", "", phone or "")


def phone_is_valid(phone: str | None) -> bool:
    number = phone_normalize(phone)
    return bool(_EGYPT_MOBILE.match(number) or _EGYPT_LANDLINE.match(number) or _INTERNATIONAL.match(number))


# an Egyptian mobile in the form most shoppers type it, shown in every phone error so they can see what is wanted
PHONE_EXAMPLE = "01012345678"


def phone_invalid_message() -> str:
    """The one message for a phone number phone_is_valid refuses (checkout, registration, the profile,
    addresses, staff's customer form), with an example of one it takes."""
    return _("Please enter a valid phone number, for example %(example)s") % {"example": PHONE_EXAMPLE}


def _text_errors(**fields: tuple[object, int]) -> dict[str, str]:
    """{field: message} for each (value, max_length) that `shop.validation` refuses.

    Values that are not strings are read as empty (a wrong type in a JSON body
    is then "required", never a 500).
    """
    errors = {}
    for field, (value, max_length) in fields.items():
        problem = text_problem(value, max_length=max_length) if isinstance(value, str) else None
        if problem:
            errors[field] = problem
    return errors


def _email_well_formed(email: str) -> bool:
    """Whether `email` looks like an address (Django's EmailValidator): the one check every form makes."""
    try:
        validate_email(email)
    except ValidationError:
        return False
    return True


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def customer_errors(*, first_name: object, last_name: object, email: object, password: object,
                    phone: object = "") -> dict[str, str]:
    """Check a registration; return {field: message} in form order (empty when fine).

    Fields are named as in the API (camelCase), so both the form and the API
    can put each message under its own field.
    """
    first_name, last_name, email, password, phone = map(_text, (first_name, last_name, email, password, phone))
    errors = _text_errors(firstName=(first_name, NAME_MAX), lastName=(last_name, NAME_MAX),
                          email=(email, ACCOUNT_EMAIL_MAX), phone=(phone, PHONE_MAX),
                          password=(password, PASSWORD_MAX))
    if errors:
        return errors
    if not (first_name or "").strip():
        errors["firstName"] = _("First name is required")
    if not (last_name or "").strip():
        errors["lastName"] = _("Last name is required")
    email = (email or "").strip().lower()
    if not email:
        errors["email"] = _("Email is required")
    elif not _email_well_formed(email):
        errors["email"] = _("Please enter a valid email address")
    if (phone or "").strip() and not phone_is_valid(phone):
        errors["phone"] = phone_invalid_message()
    if not password:
        errors["password"] = _("Password is required")
    else:
        candidate = User(username=email, email=email, first_name=(first_name or "").strip(),
                         last_name=(last_name or "").strip())
        try:
            validate_password(password, candidate)
        except ValidationError as exc:
            errors["password"] = exc.messages[0]
    if "email" not in errors and _address_taken(email):
        errors["email"] = _("An account with this email already exists")
    return errors


def _address_taken(email: str) -> bool:
    """Whether an account has `email` as its e-mail or its username, in any case: sign-in reads an address
    as a customer's e-mail in any case before a username (accounts.backends), so a customer holding a staff
    member's username ("Sara@Tea.example") in another case would be found in their place at /adminauth."""
    return User.objects.filter(Q(email__iexact=email) | Q(username__iexact=email)).exists()


def customer_create(*, first_name: str, last_name: str, email: str, password: str, phone: str = "",
                    subscribe_newsletter: bool = False, language: str = "en", site_url: str = "") -> User:
    """Create a customer account; raise AccountError naming the field at fault.

    Ticking the newsletter box subscribes the address through the newsletter
    service, the same path as the footer form (list, CSV, welcome e-mail).
    """
    errors = customer_errors(
        first_name=first_name, last_name=last_name, email=email, password=password, phone=phone
    )
    if errors:
        field, message = next(iter(errors.items()))
        raise AccountError(message, field=field)
    first_name, last_name, phone = _text(first_name), _text(last_name), _text(phone)
    email = email.strip().lower()
    duplicate = AccountError(_("An account with this email already exists"), field="email")
    try:
        with transaction.atomic():
            user = User(
                username=email,
                email=email,
                first_name=first_name.strip(),
                last_name=last_name.strip(),
                phone=phone_normalize(phone),
                subscribe_newsletter=bool(subscribe_newsletter),
                language=language,
            )
            user.set_password(password)
            user.save()
            if subscribe_newsletter:
                newsletter_subscribe(email=email, language=language, site_url=site_url)
    except IntegrityError:
        # two sign-ups with one address at once: the unique index lets one through
        raise duplicate from None
    return user


def customer_authenticate(*, request: HttpRequest | Request, email: object, password: object) -> User | None:
    """Check credentials through Django's authenticate(), so django-axes counts failures.

    Return the user, or None. A locked-out request comes back as None too, with
    `request.axes_locked_out` set (the axes middleware then answers 429).
    Text no account can have (too long, NUL, control characters) is an
    AccountError naming the field, before any lookup.
    """
    errors = _text_errors(email=(email, EMAIL_MAX), password=(password, PASSWORD_MAX))
    if errors:
        field, message = next(iter(errors.items()))
        raise AccountError(message, field=field)
    if not email or not password:
        return None
    user = authenticate(request, username=email.strip(), password=password)
    if user is None or not user.is_customer:
        return None
    return user


def session_lifetime(*, remember_me: bool) -> timedelta:
    return REMEMBER_ME_LIFETIME if remember_me else SESSION_LIFETIME


def customer_sign_in(*, request: HttpRequest | Request, user: User, remember_me: bool = False,
                     language: str | None = None) -> User:
    """Sign `user` in on this session: merge the guest cart, rotate the session id.

    The session (and its cookie) lives 30 days with remember me, else 24 hours.
    """

    guest_session_key = request.session.session_key  # login() rotates it
    login(request, user, backend="accounts.backends.EmailOrUsernameBackend")
    request.session.set_expiry(int(session_lifetime(remember_me=remember_me).total_seconds()))
    cart_merge(session_key=guest_session_key, user=user)
    customer_language_set(user=user, language=language)
    return user


def customer_language_set(*, user: object, language: str | None) -> None:
    """Remember `language` as the one a signed-in `user` now reads the shop in (signing in, the language
    switch, an order placed): the mails of their account (a password reset, a cart reminder, a change staff
    make) are written in it, not in the language they happened to register in."""
    if not isinstance(user, User) or language not in {code for code, _name in settings.LANGUAGES}:
        return
    if user.language != language:
        User.objects.filter(pk=user.pk).update(language=language)
        user.language = language


def customer_sign_out(*, request: HttpRequest | Request, token: AuthToken | None = None) -> None:
    """End this session and revoke the bearer token the request came with."""
    if token is not None:
        token.delete()
    logout(request)


def user_sessions_end(*, user: User, keep_token: object = None) -> None:
    """End every session and token of `user` now, password kept: the session hash changes (a new
    `session_generation`) and the tokens go, except `keep_token` (the one of the request making the change,
    as its session is kept with update_session_auth_hash). For a deactivation, so that letting them back in
    later does not revive what was open before (a stolen cookie, a shared computer)."""
    User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
    user.refresh_from_db(fields=["session_generation"])
    tokens = AuthToken.objects.filter(user=user)
    if isinstance(keep_token, AuthToken):
        tokens = tokens.exclude(pk=keep_token.pk)
    tokens.delete()


def sign_ins_prune() -> int:
    """Delete the sessions and API tokens that have expired (beat, daily); return how many tokens went.

    Neither is ever read again once expired, but Django deletes neither by itself: every guest with a
    cart and every API sign-in left a row behind for ever (`manage.py clearsessions`, run here)."""
    deleted, _rows = AuthToken.objects.filter(expires_at__lte=timezone.now()).delete()
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
    return deleted


def token_issue(*, user: User, remember_me: bool = False) -> tuple[AuthToken, str]:
    """Issue an API token that lives as long as the matching session would."""
    token, key = AuthToken.issue(user=user, lifetime=session_lifetime(remember_me=remember_me))
    return token, key


def customer_update_profile(*, user: User, first_name: object, last_name: object, phone: object = "",
                            subscribe_newsletter: bool = False, site_url: str = "",
                            cart_reminders: bool | None = None) -> User:
    first_name, last_name, phone = _text(first_name), _text(last_name), _text(phone)
    errors = _text_errors(firstName=(first_name, NAME_MAX), lastName=(last_name, NAME_MAX),
                          phone=(phone, PHONE_MAX))
    if not first_name.strip():
        errors.setdefault("firstName", _("First name is required"))
    if not last_name.strip():
        errors.setdefault("lastName", _("Last name is required"))
    if phone.strip() and not phone_is_valid(phone):
        errors.setdefault("phone", phone_invalid_message())
    if errors:
        field, message = next(iter(errors.items()))
        raise AccountError(message, field=field)
    user.first_name = first_name.strip()
    user.last_name = last_name.strip()
    user.phone = phone_normalize(phone)
    newly_subscribed = bool(subscribe_newsletter) and not user.subscribe_newsletter
    leaving = user.subscribe_newsletter and not subscribe_newsletter
    user.subscribe_newsletter = bool(subscribe_newsletter)
    if cart_reminders is not None:  # None: leave it (the API's profile change does not carry it)
        user.cart_reminders = bool(cart_reminders)
    with transaction.atomic():
        user.save(update_fields=["first_name", "last_name", "phone", "subscribe_newsletter", "cart_reminders"])
        if newly_subscribed:
            newsletter_subscribe(email=user.email, language=user.language, site_url=site_url)
        elif leaving:  # the box unticked is an unsubscribe, as the link in the newsletter's e-mails is
            newsletter_leave(email=user.email)
    return user


def _password_check(*, user: User | None, password: object, confirm: object) -> None:
    if not password:
        raise AccountError(_("Password is required"), field="password")
    for field, value in (("password", password), ("confirmPassword", confirm)):
        problem = text_problem(_text(value), max_length=PASSWORD_MAX)
        if problem:
            raise AccountError(problem, field=field)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise AccountError(exc.messages[0], field="password") from None
    if confirm is not None:
        if not confirm:
            raise AccountError(_("Please confirm your password"), field="confirmPassword")
        if password != confirm:
            raise AccountError(_("Passwords do not match"), field="confirmPassword")


def current_password_check(*, user: User, password: object, field: str) -> None:
    """Refuse, on `field`, a password that is not `user`'s current one (the confirmation of a change
    to the account)."""
    problem = text_problem(_text(password), max_length=PASSWORD_MAX)
    if problem:
        raise AccountError(problem, field=field)
    if not user.check_password(_text(password)):
        raise AccountError(_("Your current password is incorrect"), field=field)


def customer_change_password(*, request: HttpRequest | Request, user: User, current_password: object, password: object,
                             confirm: object) -> User:
    """Change the password, keep this session, end every other session and token."""
    current_password_check(user=user, password=current_password, field="currentPassword")
    _password_check(user=user, password=password, confirm=confirm)
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        # other sessions die with the old password hash; tokens are revoked here
        AuthToken.objects.filter(user=user).delete()
    update_session_auth_hash(request, user)
    return user


# --- password reset --------------------------------------------------------

def reset_token_make(user: User) -> str:
    """A link token: the user's id and Django's reset token.

    Django's token is an HMAC over the password hash, last login and a
    timestamp, so it stops working once the password changes (single use)
    and after PASSWORD_RESET_TIMEOUT (1 hour) without any table.
    """
    return f"{urlsafe_base64_encode(force_bytes(user.pk))}.{default_token_generator.make_token(user)}"


def reset_token_user(token: str) -> User | None:
    """Return the customer a reset token is good for, or None (links are only ever sent to customers)."""
    uid, _sep, key = (token or "").partition(".")
    if not uid or not key:
        return None
    try:
        user = User.objects.get(pk=force_str(urlsafe_base64_decode(uid)), is_active=True, is_staff=False)
    except (User.DoesNotExist, ValueError, TypeError, OverflowError):
        return None
    if not default_token_generator.check_token(user, key):
        return None
    return user


RESET_MAILS_PER_HOUR = 3


def password_reset_request(*, email: object, base_url: str) -> None:
    """E-mail a reset link if a customer has this address; say nothing either way.

    Return None always, so callers cannot leak whether the account exists. Refuse
    (AccountError) only what no account can have: nothing, over-long text, text
    that is not an e-mail address.
    """
    problem = text_problem(_text(email).strip(), max_length=EMAIL_MAX)
    if problem:
        raise AccountError(problem, field="email")
    email = _text(email).strip()
    if not email:
        raise AccountError(_("Please enter your email address"), field="email")
    if not _email_well_formed(email):
        # the address's form only, which says nothing about whether an account has it
        raise AccountError(_("Please enter a valid email address"), field="email")
    user = User.objects.filter(email__iexact=email, is_active=True, is_staff=False).first()
    # counted under the account's own address, where the link goes: the typed one may be another spelling
    # that finds it (PostgreSQL's case-insensitive match makes "alıce@…" alice's) and would count apart
    if user is None or not address_mail_allowed("reset", user.email, per_hour=RESET_MAILS_PER_HOUR):
        return  # quietly: the page says the same, the mailbox is not flooded
    password_reset_email(user=user, token=reset_token_make(user), base_url=base_url)


def password_reset_complete(*, token: str, password: object, confirm: object = None) -> User:
    """Set a new password from a reset link; end every session and token of the user."""

    if text_problem(_text(token), max_length=LINE_MAX):
        raise ResetLinkError(_("This reset link is invalid or has expired"), field="token")
    if not token or not password or (confirm is not None and not confirm):
        # a bad or missing token is reported first: the form is of no use without it
        if reset_token_user(token) is None:
            raise ResetLinkError(_("This reset link is invalid or has expired"), field="token")
        raise AccountError(_("Please fill in all fields"))
    user = reset_token_user(token)
    if user is None:
        raise ResetLinkError(_("This reset link is invalid or has expired"), field="token")
    _password_check(user=user, password=password, confirm=confirm)
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        # every session carries a hash of the old password and now fails to load
        AuthToken.objects.filter(user=user).delete()
    # whoever just proved they own the mailbox may sign in again at once
    lockout_reset(username=user.email)
    return user
