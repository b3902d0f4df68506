"""Staff two-step sign-in: a code from an authenticator app (TOTP) after the password.

django-otp keeps the devices: one TOTPDevice per staff member (the app) and one StaticDevice holding
RECOVERY_CODES single-use recovery codes. A device counts only once confirmed with a code, so a QR code
shown and never scanned changes nothing. Every way a staff member gets a session or token goes through
`sign_in_code_check` (backoffice.auth.staff_sign_in); the customer sign-in, the customer password reset and
Django's admin login let no staff account in (see accounts.services and backoffice.admin).

A wrong code is a failed sign-in for django-axes (the `user_login_failed` signal), so the password and
the code share one lockout counter per username and address.
"""

import re

import segno
from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.signals import user_login_failed
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.lockout import lockout_message
from accounts.models import Role, User
from accounts.services import current_password_check, user_sessions_end
from backoffice import audit_texts as texts
from backoffice.audit import audit_record
from backoffice.audit_texts import audit_text
from shop.errors import ShopError

RECOVERY_CODES = 10
_CODE_MAX = 32  # longer text is no code of ours
_APP_CODE = re.compile(r"^\d{6}$", re.ASCII)  # \d alone takes other scripts' digits, which int() reads


class TwoStepCodeError(ShopError):
    """The password was right but the sign-in needs the code (field `code`): missing or wrong."""

    field = "code"
    status = 401


def _code(value: object) -> str:
    """A typed code without the spaces and dashes people copy with it, in lower case (recovery codes)."""
    text = value if isinstance(value, str) else ""
    return re.sub(r"[\s-]", "", text[:_CODE_MAX]).lower()


def two_step_enabled(user: object) -> bool:
    """Whether `user` must give a code after the password: they have a confirmed authenticator device."""
    return bool(getattr(user, "pk", None)) and TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def with_two_step(users: QuerySet[User]) -> QuerySet[User]:
    """`users` each with `two_step_on` (whether they have a confirmed app), in the same query."""
    return users.annotate(two_step_on=Exists(TOTPDevice.objects.filter(user=OuterRef("pk"), confirmed=True)))


def recovery_codes_left(user: object) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def code_verify(*, user: object, code: object) -> bool:
    """Whether `code` is the app's current code or one of the unused recovery codes of `user`.

    A recovery code is spent by the check that accepts it. django-otp refuses an app code used before
    and slows repeated wrong tries down (its throttling), on top of the lockout.
    """
    code = _code(code)
    if not code:
        return False
    with transaction.atomic():
        if _APP_CODE.match(code):
            devices = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True)
        else:
            devices = StaticDevice.objects.select_for_update().filter(user=user, confirmed=True)  # type: ignore[assignment]
        return any(device.verify_token(code) for device in devices)


def sign_in_code_check(*, request: object, user: object, code: object) -> None:
    """After a right password: pass when `user` needs no code or gave a right one, else raise
    TwoStepCodeError. A wrong code is reported to django-axes as a failed sign-in of this username."""
    if not two_step_enabled(user):
        return
    if not _code(code):
        raise TwoStepCodeError(_("Enter the 6-digit code from your authenticator app, or a recovery code."))
    if code_verify(user=user, code=code):
        return
    user_login_failed.send(sender=__name__, credentials={"username": getattr(user, "username", "")},
                           request=request)
    raise TwoStepCodeError(_("That code is not right. Enter the current code from your authenticator app, "
                             "or a recovery code."))


def _qr_svg(text: str) -> str:
    """The QR code of `text` as inline SVG (segno: no image files, no JavaScript)."""
    return segno.make(text, error="m").svg_inline(omitsize=True, dark="#111", light="#fff", border=2,
                                                  title=_("QR code for your authenticator app"))


def enrolment_start(*, user: object) -> dict[str, str]:
    """Begin turning two-step sign-in on: a new unconfirmed authenticator device (any earlier unconfirmed
    one goes); return its secret (base32, to type), the otpauth address and its QR code as SVG."""
    if two_step_enabled(user):
        raise ShopError(_("Two-step sign-in is already on."), status=409)
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
        device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)
    uri = device.config_url
    secret = re.search(r"secret=([A-Z2-7]+)", uri)
    return {"secret": secret.group(1) if secret else "", "uri": uri, "qr_svg": _qr_svg(uri)}


def _password_confirm(*, request: object, user: object, password: object) -> None:
    """Refuse (field `password`) a password that is not `user`'s current one; a wrong one counts toward
    the sign-in lockout as at sign-in, and while the lockout holds (this username and address) no
    password is checked at all: else a session could go on guessing here past it (429 for wrong, 200
    for right)."""
    credentials = {"username": getattr(user, "username", "")}
    if request is not None and not AxesProxyHandler.is_allowed(request, credentials):
        raise ShopError(lockout_message(), status=429)
    try:
        current_password_check(user=user, password=password, field="password")  # type: ignore[arg-type]
    except ShopError:
        user_login_failed.send(sender=__name__, credentials=credentials, request=request)
        raise


def enrolment_confirm(*, user: User, code: object, password: object, request: HttpRequest | None = None,
                      token: object = None) -> list[str]:
    """Turn two-step sign-in on once `code` comes from the app just set up and `password` is the current
    one; return the new recovery codes (shown this once). The password: a session alone (a stolen cookie,
    a shared computer) must not put an app of someone else's on the account, which would lock its owner
    out. Any earlier recovery codes are replaced. Every other session and token of `user` ends (one opened
    with a leaked password before must not outlive the change); `request`'s session, or the bearer `token`
    it came with, stays."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    if device is None:
        if two_step_enabled(user):
            raise ShopError(_("Two-step sign-in is already on."), status=409)
        raise ShopError(_("Start the set-up again: no authenticator app is waiting for a code."), field="code")
    _password_confirm(request=request, user=user, password=password)
    code = _code(code)
    if not code:
        raise ShopError(_("Enter the 6-digit code from your authenticator app."), field="code")
    if not (_APP_CODE.match(code) and device.verify_token(code)):
        raise ShopError(_("That code is not right. Check the time on your phone and try the current code."),
                        field="code")
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        codes = _recovery_codes_new(user=user)
        audit_record(actor=user, action="staff.two_step_on", target=user,
                     details=audit_text(texts.TWO_STEP_ON, username=getattr(user, "username", "")))
        user_sessions_end(user=user, keep_token=token)
    if request is not None:
        update_session_auth_hash(request, user)
    return codes


def _recovery_codes_new(*, user: object) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name="recovery", confirmed=True)
    codes: list[str] = []
    while len(codes) < RECOVERY_CODES:
        token = StaticToken.random_token()
        if token not in codes:
            codes.append(token)
    StaticToken.objects.bulk_create(StaticToken(device=device, token=token) for token in codes)
    return codes


def _devices_delete(*, user: object) -> None:
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


def two_step_disable(*, request: object, user: object, password: object, code: object) -> None:
    """Turn two-step sign-in off for oneself: the current password and a code (app or recovery) are
    both required; a wrong one counts toward the sign-in lockout as at sign-in."""
    if not two_step_enabled(user):
        raise ShopError(_("Two-step sign-in is not on."), status=409)
    _password_confirm(request=request, user=user, password=password)
    if not code_verify(user=user, code=code):
        user_login_failed.send(sender=__name__, credentials={"username": getattr(user, "username", "")},
                               request=request)
        raise ShopError(_("That code is not right. Enter the current code from your authenticator app, "
                          "or a recovery code."), field="code")
    with transaction.atomic():
        _devices_delete(user=user)
        audit_record(actor=user, action="staff.two_step_off", target=user,
                     details=audit_text(texts.TWO_STEP_OFF, username=getattr(user, "username", "")))


def two_step_reset(*, actor: object, user: object) -> None:
    """The Owner takes another staff member's two-step sign-in off (a lost phone): they sign in with
    their password alone until they set it up again. Not an Owner's or a superuser's, which the
    dashboard does not edit either. Recorded in the audit log; nothing to do (it was
    off) is no error and no entry."""
    if getattr(actor, "role", "") != Role.OWNER and not getattr(actor, "is_superuser", False):
        raise ShopError(_("Only the Owner can reset two-step sign-in."), status=403)
    if getattr(actor, "pk", None) == getattr(user, "pk", None):
        raise ShopError(_("Turn your own two-step sign-in off with your password and a code."), status=400)
    if getattr(user, "role", "") == Role.OWNER or getattr(user, "is_superuser", False):
        # as the dashboard edits no Owner account (backoffice.staff): an Owner's lost phone is a recovery
        # code, or `manage.py addstatictoken` on the server
        raise ShopError(_("An Owner's two-step sign-in cannot be reset from the dashboard."), status=403)
    if not two_step_enabled(user):
        _devices_delete(user=user)  # a set-up never confirmed: nothing to record
        return
    with transaction.atomic():
        _devices_delete(user=user)
        audit_record(actor=actor, action="staff.two_step_reset", target=user,
                     details=audit_text(texts.TWO_STEP_RESET, username=getattr(user, "username", "")))
