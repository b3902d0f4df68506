"""Staff sign-in and sign-out, shared by the /adminauth page and /api/admin/login."""

from datetime import timedelta

from django.contrib.auth import authenticate, login, logout

from accounts.models import AuthToken
from accounts.roles import is_staff_member
from backoffice.two_step import sign_in_code_check
from shop.errors import ShopError
from shop.validation import NAME_MAX, PASSWORD_MAX, clean_text, text_problem

STAFF_TOKEN_LIFETIME = timedelta(hours=24)
_SESSION_TOKEN_KEY = "staff_token_id"


def staff_sign_in(*, request, username, password, code=""):
    """Check a staff member's username, password and (with two-step sign-in on) code; sign them in and
    return (user, token key).

    `authenticate` runs django-axes first, so repeated failures lock the
    username and address out (the lockout response replaces ours). A
    customer's correct password still gets no staff session. Return
    (None, None) when the credentials do not open the dashboard. Text no
    account can have is a ShopError naming the field, before django-axes
    records anything. A right password of an account with two-step sign-in
    on and no right code is a TwoStepCodeError (field `code`): nothing is
    signed in, and a wrong code counts as a failed sign-in.
    """
    username = clean_text(username, field="username", max_length=NAME_MAX)
    problem = text_problem(password, max_length=PASSWORD_MAX) if isinstance(password, str) else None
    if problem:
        raise ShopError(problem, field="password")
    user = authenticate(request, username=username, password=password or "")
    if user is None or not is_staff_member(user):
        return None, None
    sign_in_code_check(request=request, user=user, code=code)
    login(request, user)
    token, key = AuthToken.issue(user=user, lifetime=STAFF_TOKEN_LIFETIME)
    # remembered so that signing out of the session also revokes this token
    request.session[_SESSION_TOKEN_KEY] = token.pk
    return user, key


def staff_sign_out(*, request, token_key=None):
    """End the session and revoke the bearer token (the one given or the one in use)."""
    session_token = request.session.get(_SESSION_TOKEN_KEY) if hasattr(request, "session") else None
    if session_token:
        AuthToken.objects.filter(pk=session_token).delete()
    if token_key:
        AuthToken.objects.filter(key_hash=AuthToken.hash_key(token_key)).delete()
    used = getattr(request, "auth_token", None)
    if used is not None:
        used.delete()
    logout(request)
