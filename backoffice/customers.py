"""Customer writes from the dashboard (spec 5 'Customer form'), audited."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.emails import email_changed_email
from accounts.models import User
from accounts.services import (
    ACCOUNT_EMAIL_MAX,
    phone_invalid_message,
    phone_is_valid,
    phone_normalize,
    user_sessions_end,
)
from backoffice.audit import audit_changes, audit_record
from shop.errors import ShopError
from shop.validation import NAME_MAX, PHONE_MAX, clean_fields

# names and e-mail end up in mail headers: single line; the e-mail is the customer's username too
LIMITS = {"first_name": NAME_MAX, "last_name": NAME_MAX, "email": ACCOUNT_EMAIL_MAX, "phone": PHONE_MAX}


def _email_taken(email, *, exclude_pk=None):
    return User.objects.filter(email__iexact=email).exclude(pk=exclude_pk).exists() or \
        User.objects.filter(username__iexact=email).exclude(pk=exclude_pk).exists()


def _save_unique(user):
    """Save `user`; an e-mail another write took since _email_taken is refused as that check would."""
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on after a refusal
            user.save()
    except IntegrityError:
        # both writes passed the check before either saved; the unique index let one through, now committed
        if _email_taken(user.email, exclude_pk=user.pk):
            raise ShopError(_("An account with this email already exists"), field="email") from None
        raise


def _phone_clean(phone: str, *, stored: str | None = None) -> str:
    """The phone as registration, the profile, addresses and checkout keep it: empty, or a valid
    number without its spaces and dashes (a number checkout would refuse must not be stored for it).

    The `stored` phone, sent back unchanged with an edit of something else, stays as it is.
    """
    if stored is not None and phone == stored:
        return phone
    if phone.strip() and not phone_is_valid(phone):
        raise ShopError(phone_invalid_message(), field="phone")
    return phone_normalize(phone)


def customer_admin_create(*, actor, first_name, last_name, email, phone="", is_active=True):
    """Create a customer without a password (they set one through 'Forgot password')."""
    texts = clean_fields({"first_name": first_name, "last_name": last_name, "email": email, "phone": phone or ""},
                         LIMITS)
    first_name, last_name, phone = texts["first_name"], texts["last_name"], _phone_clean(texts["phone"])
    email = texts["email"].lower()
    with transaction.atomic():
        if _email_taken(email):
            raise ShopError(_("An account with this email already exists"), field="email")
        user = User(username=email, email=email, first_name=first_name.strip(), last_name=last_name.strip(),
                    phone=phone, is_active=is_active)
        user.set_unusable_password()
        _save_unique(user)
        audit_record(actor=actor, action="customer.create", details=email, target=user)
    return user


def customer_admin_update(*, actor, customer, **fields):
    """Change a customer's names, e-mail, phone or active flag."""
    changes = []
    fields = clean_fields(fields, LIMITS)
    if "phone" in fields:
        fields["phone"] = _phone_clean(fields["phone"], stored=customer.phone)
    before = {name: getattr(customer, name) for name in fields}
    with transaction.atomic():
        if "email" in fields:
            email = fields.pop("email").strip().lower()
            if email != customer.email.lower():
                if _email_taken(email, exclude_pk=customer.pk):
                    raise ShopError(_("An account with this email already exists"), field="email")
                customer.email = email
                if "@" in customer.username:  # customers sign in with their e-mail
                    customer.username = email
                changes.append("email")
        for name, value in fields.items():
            value = value.strip() if isinstance(value, str) else value
            if getattr(customer, name) != value:
                setattr(customer, name, value)
                changes.append(name)
        _save_unique(customer)
        if "is_active" in changes and not customer.is_active:
            user_sessions_end(user=customer)  # a reactivation later must not revive them
        if "email" in changes and before["email"]:
            email_changed_email(user=customer, old_email=before["email"])
        if changes:
            action = "customer.update"
            if changes == ["is_active"]:
                action = "customer.activate" if customer.is_active else "customer.deactivate"
            after = {name: getattr(customer, name) for name in changes}
            audit_record(actor=actor, action=action, details=f"{customer.email}: {', '.join(changes)}",
                         target=customer, changes=audit_changes(before=before, after=after))
    return customer
