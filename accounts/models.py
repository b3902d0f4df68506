import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from accounts.user_cache import user_changed


class Role(models.TextChoices):
    """Staff roles; customers have none."""

    OWNER = "owner", _("Owner")
    MANAGER = "manager", _("Manager")
    HEAD_SUPPORT = "head_support", _("Head Support")
    SUPPORT = "support", _("Support")


class UserQuerySet(models.QuerySet):
    """UPDATE and DELETE of users report whom they touched (accounts.user_cache): a deactivation,
    a new role or a password written without save() holds from the next request too.
    (Deletes send post_delete for every row, which accounts.apps hears.)"""

    def update(self, **kwargs):
        user_ids = list(self.values_list("pk", flat=True))
        count = super().update(**kwargs)
        user_changed(user_ids)
        return count

    update.alters_data = True


class ShopUserManager(UserManager):
    def get_queryset(self):
        return UserQuerySet(self.model, using=self._db)

    def create_superuser(self, username, email=None, password=None, **extra_fields):
        # `createsuperuser --noinput` makes the shop's Owner.
        extra_fields.setdefault("role", Role.OWNER)
        return super().create_superuser(username, email, password, **extra_fields)

    def get_by_email(self, email):
        return self.get(email__iexact=(email or "").strip())


# (password hash, session generation, secret) -> the session's auth hash (User._get_session_auth_hash); forgotten
# all at once when full
_session_auth_hashes: dict[tuple[str, int, str], str] = {}
SESSION_HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"  # Django's own salt
SESSION_AUTH_HASHES_KEPT = 10_000


class User(AbstractUser):
    """One user model: customers sign in with email, staff with username.

    A customer's username is their e-mail address; `role` is empty for
    customers and one of `Role` for staff (who also have is_staff set).
    """

    email = models.EmailField(_("email address"), blank=True)
    phone = models.CharField(_("phone"), max_length=32, blank=True)
    role = models.CharField(max_length=20, choices=Role.choices, blank=True, default="")
    subscribe_newsletter = models.BooleanField(default=False)
    # one e-mail a few hours after leaving items in the cart (orders.reminders)
    cart_reminders = models.BooleanField(default=False)
    # the language the customer last used, for e-mails
    language = models.CharField(max_length=8, default="en")
    # staff only: a morning e-mail with yesterday's orders, revenue, open COD and messages
    daily_summary = models.BooleanField(default=False)
    # raised to end every session of the user at once without touching their password (a deactivation:
    # a reactivation must not revive what was open before it); part of the session hash, 0 adds nothing
    session_generation = models.PositiveIntegerField(default=0)

    objects = ShopUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="user_email_unique_ci",
            )
        ]

    # `is_staff` is the account's kind (a staff account or a customer's), used by
    # queries and `is_customer`; every privilege check asks `is_staff_member`.
    @property
    def is_customer(self):
        return not self.is_staff

    @property
    def staff_role(self):
        """The role the dashboard's rights come from: `role`, or the Owner's for a superuser without one.

        `createsuperuser` makes the Owner (ShopUserManager); a superuser made otherwise (the superuser box
        ticked in Django's admin, an account older than roles) is the same most powerful account, which
        Django's admin lets do anything, the roles too. With no role it had no dashboard at all, so it
        could not turn two-step sign-in on, which only the dashboard does.
        """
        return self.role or (Role.OWNER if self.is_superuser else "")

    @property
    def is_staff_member(self):
        """A staff account that may use the dashboard now: active, with a role (a superuser's is the Owner's)."""
        return bool(self.is_active and self.is_staff and self.staff_role)

    @property
    def display_name(self):
        return self.first_name or self.username

    def _get_session_auth_hash(self, secret=None):
        """Django's HMAC of the password hash, which every request of a signed-in visitor checks against
        their session: worked out once per password hash and secret in each process (issue 14)."""
        key = (self.password, self.session_generation, settings.SECRET_KEY if secret is None else secret)
        found = _session_auth_hashes.get(key)
        if found is None:
            if len(_session_auth_hashes) >= SESSION_AUTH_HASHES_KEPT:
                _session_auth_hashes.clear()
            if self.session_generation:
                found = salted_hmac(SESSION_HASH_SALT, f"{self.password}:{self.session_generation}", secret=secret,
                                    algorithm="sha256").hexdigest()
            else:  # Django's own: the sessions opened before this field existed stay valid
                found = super()._get_session_auth_hash(secret)
            _session_auth_hashes[key] = found
        return found


class AuthToken(models.Model):
    """A bearer token for the API, stored hashed; lives as long as a session would."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="auth_tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    @staticmethod
    def hash_key(key):
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, *, user, lifetime):
        """Create a token for `user`; return (token, plaintext key shown once)."""
        key = secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user, key_hash=cls.hash_key(key), expires_at=timezone.now() + lifetime
        )
        return token, key

    @property
    def is_expired(self):
        return self.expires_at <= timezone.now()


class Address(models.Model):
    """A delivery address a customer saved; at most one is the default (prefilled at checkout)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="addresses")
    label = models.CharField(max_length=50, blank=True)  # "Home", "Work"
    first_name = models.CharField(max_length=120)
    last_name = models.CharField(max_length=120)
    phone = models.CharField(max_length=32)
    street = models.CharField(max_length=200)
    building = models.CharField(max_length=50, blank=True)
    apartment = models.CharField(max_length=50, blank=True)
    floor = models.CharField(max_length=20, blank=True)
    city = models.CharField(max_length=200)
    state = models.CharField(max_length=100)
    postal_code = models.CharField(max_length=20, blank=True)
    country = models.CharField(max_length=3, default="EGY")
    is_default = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-is_default", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=models.Q(is_default=True),
                                    name="address_one_default_per_user"),
        ]

    def __str__(self):
        return f"{self.label or self.street}, {self.city}"
