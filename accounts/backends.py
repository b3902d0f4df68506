from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from accounts.user_cache import user_get


class EmailOrUsernameBackend(ModelBackend):
    """Sign customers in by e-mail (any case) and staff by username."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        User = get_user_model()
        username = username or kwargs.get("email")
        if not username or password is None:
            return None
        user = None
        if "@" in username:
            user = User.objects.filter(email__iexact=username.strip(), is_staff=False).first()
        if user is None:
            user = User.objects.filter(username=username).first()
        if user is None:
            User().set_password(password)  # same work either way: no timing oracle
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

    def get_user(self, user_id):
        """The signed-in user of a session: this process's copy while it is current (accounts.user_cache).

        auth.get_user still checks the session's password hash against it on every request.
        """
        user = user_get(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
