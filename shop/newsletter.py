"""Newsletter subscriptions: subscribing twice changes nothing; every e-mail can unsubscribe."""

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from shop.errors import ShopError
from shop.mail import mail_queue
from shop.models import NewsletterSubscriber
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


def newsletter_unsubscribe_path(subscriber):
    with translation.override(subscriber.language):
        return reverse("shop:newsletter-unsubscribe", args=[subscriber.unsubscribe_token])


def newsletter_subscribe(*, email, language="en", site_url=""):
    """Subscribe `email` (again); return (subscriber, created). Sends a welcome on first subscribe."""
    email = _clean_email(email)
    language = "ar" if language == "ar" else "en"
    try:
        with transaction.atomic():  # the welcome is stored with the subscription, or neither is
            subscriber, created = NewsletterSubscriber.objects.get_or_create(
                email=email, defaults={"language": language}
            )
            if created:
                _queue_welcome(subscriber, site_url)
    except IntegrityError:  # a parallel request subscribed the same address
        subscriber, created = NewsletterSubscriber.objects.get(email=email), False
    if created:
        return subscriber, True
    if subscriber.is_active:
        return subscriber, False
    with transaction.atomic():
        subscriber.is_active = True
        subscriber.language = language
        subscriber.save(update_fields=["is_active", "language"])
        _queue_welcome(subscriber, site_url)
    return subscriber, True


def _queue_welcome(subscriber, site_url):
    store = store_settings_get()
    with translation.override(subscriber.language):
        context = {
            "store": store,
            "unsubscribe_url": f"{site_url}{newsletter_unsubscribe_path(subscriber)}",
        }
        mail_queue(
            to=subscriber.email,
            subject=_("Welcome to the %(store)s newsletter") % {"store": store.shown_name},
            text=render_to_string("shop/email/newsletter_welcome.txt", context),
            language=subscriber.language,
        )


def newsletter_unsubscribe(*, token):
    """Stop sending to the subscriber with this token; return it, or None for an unknown token."""
    if not token or len(token) > 64:
        return None
    subscriber = NewsletterSubscriber.objects.filter(unsubscribe_token=token).first()
    if subscriber is not None and subscriber.is_active:
        subscriber.is_active = False
        subscriber.save(update_fields=["is_active"])
    return subscriber


def newsletter_leave(*, email):
    """Stop sending to `email` (a closed account's subscription)."""
    NewsletterSubscriber.objects.filter(email__iexact=email, is_active=True).update(is_active=False)
