"""Staff users (spec 5 'Admin user'): only the Owner manages them; Owners are untouchable."""

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.lockout import lockout_reset
from accounts.models import AuthToken, Role, User
from accounts.services import user_sessions_end
from backoffice.audit import audit_changes, audit_record
from shop.errors import ShopError
from shop.validation import EMAIL_MAX, NAME_MAX, PASSWORD_MAX, clean_text, text_problem

ASSIGNABLE_ROLES = [Role.MANAGER, Role.HEAD_SUPPORT, Role.SUPPORT]


def _check_role(role):
    if role == Role.OWNER:
        raise ShopError(_("The Owner role cannot be assigned"), field="role")
    if role not in ASSIGNABLE_ROLES:
        raise ShopError(_("Please choose a valid role"), field="role")


def _check_unique(*, username, email, exclude_pk=None):
    others = User.objects.exclude(pk=exclude_pk)
    # nor another account's address: sign-in reads an address as a customer's e-mail (any case) before a
    # username (accounts.backends), so that customer would be found in this staff member's place
    if others.filter(Q(username__iexact=username) | Q(email__iexact=username)).exists():
        raise ShopError(_("A user with this username already exists"), field="username")
    if others.filter(email__iexact=email).exists():
        raise ShopError(_("A user with this email already exists"), field="email")


def _save_unique(user):
    """Save `user`; a username or e-mail another write took since _check_unique is refused as that check would."""
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on after a refusal
            user.save()
    except IntegrityError:
        # both writes passed the check before either saved; the unique index let one through, now committed
        _check_unique(username=user.username, email=user.email, exclude_pk=user.pk)
        raise


def _texts(*, username, email, password):
    """Username and e-mail as stored (single line, bounded); the password is checked, never stripped."""
    username = clean_text(username, field="username", max_length=NAME_MAX) if username is not None else None
    email = clean_text(email, field="email", max_length=EMAIL_MAX) if email is not None else None
    problem = text_problem(password, max_length=PASSWORD_MAX) if isinstance(password, str) else None
    if problem:
        raise ShopError(problem, field="password")
    return username, email


def _check_password(password, user):
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ShopError(exc.messages[0], field="password") from None


def staff_create(*, actor, username, email, password, role=Role.SUPPORT, is_active=True):
    username, email = _texts(username=username, email=email, password=password)
    _check_role(role)
    if not password:
        raise ShopError(_("Password is required"), field="password")
    with transaction.atomic():
        _check_unique(username=username, email=email)
        user = User(username=username, email=email.lower(), role=role, is_staff=True, is_active=is_active)
        _check_password(password, user)
        user.set_password(password)
        _save_unique(user)
        audit_record(actor=actor, action="staff.create", details=f"{username} ({role})", target=user)
    return user


def _guard_owner(user):
    if user.role == Role.OWNER or user.is_superuser:
        raise ShopError(_("Owner users cannot be edited or deleted"), status=403)


def staff_update(*, actor, user, username=None, email=None, password="", role=None, is_active=None):
    """Change a staff member; an empty password keeps the current one."""
    _guard_owner(user)
    username, email = _texts(username=username, email=email, password=password)
    watched = ("username", "email", "role", "is_active")
    before = {name: getattr(user, name) for name in watched}
    with transaction.atomic():
        if role is not None:
            _check_role(role)
            user.role = role
        _check_unique(username=username or user.username, email=email or user.email, exclude_pk=user.pk)
        if username:
            user.username = username
        if email:
            user.email = email.lower()
        if is_active is not None:
            user.is_active = is_active
        if password:
            _check_password(password, user)
            user.set_password(password)
        _save_unique(user)
        if before["is_active"] and not user.is_active:
            user_sessions_end(user=user)  # a reactivation later must not revive them
        elif password:
            AuthToken.objects.filter(user=user).delete()  # the sessions end with the old password hash
        changes = audit_changes(before=before, after={name: getattr(user, name) for name in watched})
        if password:  # that it changed, never what to
            changes.append({"field": "password", "old": "", "new": ""})
        audit_record(actor=actor, action="staff.update", details=f"{user.username} ({user.role})", target=user,
                     changes=changes)
    return user


def staff_delete(*, actor, user):
    _guard_owner(user)
    with transaction.atomic():
        # recorded before the row goes, so the entry keeps the account's id and role
        audit_record(actor=actor, action="staff.delete", details=f"{user.username} ({user.role})", target=user)
        user.delete()


def sign_in_unlock(*, actor, username):
    """Let `username` sign in again from every address at once (Owner only, audited)."""

    username = (username or "").strip()
    if not username:
        raise ShopError(_("Username is required"), field="username")
    count = lockout_reset(username=username)
    audit_record(actor=actor, action="sign_in.unlock", details=username)
    return count
