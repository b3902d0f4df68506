"""Newsletter subscriptions: double opt-in (an address is mailed only once its owner confirmed it),
subscribing twice changes nothing, every e-mail can unsubscribe."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from shop.errors import ShopError
from shop.mail import mail_queue
from shop.models import NewsletterSubscriber
from shop.ratelimit import address_mail_allowed
from shop.store_settings import store_settings_get
from shop.validation import EMAIL_MAX, clean_text


class NewsletterError(ShopError):
    """A subscription the shop refuses; the field is the e-mail unless named."""

    field = "email"


def _clean_email(email):
    email = clean_text(email, field="email", max_length=EMAIL_MAX)
    if not email:
        raise NewsletterError(_("Email is required"))
    try:
        validate_email(email)
    except ValidationError:
        raise NewsletterError(_("Please enter a valid email address")) from None
    return email.lower()


def _link(subscriber, name, site_url):
    with translation.override(subscriber.language):
        return f"{site_url}{reverse(name, args=[subscriber.unsubscribe_token])}"


# confirmation e-mails one address gets in a clock hour, whoever asks
CONFIRMATIONS_PER_HOUR = 3
# what a subscribe request is answered, whether or not the address was on the list: nobody else's business
SUBSCRIBE_ANSWER = gettext_lazy("Almost done: we sent you an e-mail. Open its link to confirm your subscription.")


def newsletter_subscribe(*, email, language="en", site_url=""):
    """Ask to subscribe `email`: double opt-in, so its owner is e-mailed a link that puts it on the list.

    Return the subscriber. An address already on the list is left as it is; one awaiting its
    confirmation, or unsubscribed before, is sent the link (again), a few times an hour at most, so
    nobody can flood a stranger's mailbox. The caller says the same whichever happened.
    """
    email = _clean_email(email)
    language = "ar" if language == "ar" else "en"
    try:
        with transaction.atomic():  # the confirmation is stored with the subscription, or neither is
            subscriber, created = NewsletterSubscriber.objects.get_or_create(
                email=email, defaults={"language": language}
            )
            if created:
                if _confirmation_allowed(email):
                    _queue(subscriber, "confirm", site_url)
                return subscriber
    except IntegrityError:  # a parallel request subscribed the same address
        return NewsletterSubscriber.objects.get(email=email)
    if subscriber.status == "active" or not _confirmation_allowed(email):
        return subscriber
    fields = ["is_active", "confirmed_at", "language"]
    if subscriber.status == "unsubscribed":
        # its link (the same for confirming and unsubscribing) went out in every e-mail it was sent, which
        # may have been forwarded: a new one, so that only this confirmation's owner can confirm
        subscriber.unsubscribe_token = NewsletterSubscriber._meta.get_field("unsubscribe_token").get_default()
        fields.append("unsubscribe_token")
    with transaction.atomic():
        subscriber.is_active = True
        subscriber.confirmed_at = None
        subscriber.language = language
        subscriber.save(update_fields=fields)
        _queue(subscriber, "confirm", site_url)
    return subscriber


def _confirmation_allowed(email):
    return address_mail_allowed("newsletter", email, per_hour=CONFIRMATIONS_PER_HOUR)


# the newsletter's two e-mails: (subject, text, the link it carries)
_MAILS = {
    "confirm": (gettext_lazy("Confirm your subscription to the %(store)s newsletter"),
                "shop/email/newsletter_confirm.txt", "shop:newsletter-confirm"),
    "welcome": (gettext_lazy("Welcome to the %(store)s newsletter"),
                "shop/email/newsletter_welcome.txt", "shop:newsletter-unsubscribe"),
}


def _queue(subscriber, mail, site_url):
    subject, template, link = _MAILS[mail]
    store = store_settings_get()
    with translation.override(subscriber.language):
        context = {"store": store, "link": _link(subscriber, link, site_url)}
        mail_queue(to=subscriber.email, subject=str(subject) % {"store": store.shown_name},
                   text=render_to_string(template, context), language=subscriber.language)


def newsletter_by_token(token, *, for_update=False):
    """The subscriber whose e-mails carry `token` (locked, `for_update`), or None."""
    if not token or len(token) > 64:
        return None
    subscribers = NewsletterSubscriber.objects.select_for_update() if for_update else NewsletterSubscriber.objects
    return subscribers.filter(unsubscribe_token=token).first()


def newsletter_confirm(*, token, site_url=""):
    """Put the address on the list (its confirmation link, used); None for an unknown link.

    The welcome, with its unsubscribe link, goes once: on the confirmation that puts it on the list.
    """
    with transaction.atomic():
        subscriber = newsletter_by_token(token, for_update=True)
        if subscriber is not None and subscriber.status == "pending":
            subscriber.confirmed_at = timezone.now()
            subscriber.save(update_fields=["confirmed_at"])
            _queue(subscriber, "welcome", site_url)
    return subscriber


def newsletter_unsubscribe(*, token):
    """Stop sending to the subscriber with this token; return it, or None for an unknown token."""
    subscriber = newsletter_by_token(token)
    if subscriber is not None and subscriber.is_active:
        with transaction.atomic():
            subscriber.is_active = False
            subscriber.save(update_fields=["is_active"])
            # the account page's box says so too, instead of showing a subscription that is not there
            get_user_model().objects.filter(email__iexact=subscriber.email).update(subscribe_newsletter=False)
    return subscriber


def newsletter_awaits_confirmation(email):
    """Whether `email` asked for the newsletter and has not opened its confirmation link yet."""
    subscriber = NewsletterSubscriber.objects.filter(email__iexact=email).first()
    return subscriber is not None and subscriber.status == "pending"


def newsletter_leave(*, email):
    """Stop sending to `email` (a closed account's subscription)."""
    NewsletterSubscriber.objects.filter(email__iexact=email, is_active=True).update(is_active=False)
