import secrets
from decimal import Decimal

from django.conf import settings as django_settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from catalog.cache import catalog_changed_now_and_on_commit
from shop.generations import delete_now_and_on_commit
from shop.request_scope import shared_forget

# v2: the row pickled as bytes (shop.store_settings)
STORE_SETTINGS_CACHE_KEY = "store-settings:v2"


def _default_seo():
    return {"metaTitle": "", "metaDescription": "", "keywords": []}


def _default_social():
    return {"facebook": "", "instagram": "", "twitter": ""}


def _default_days_off():
    return [4]  # Friday


class StoreSettings(models.Model):
    """The one row of shop-wide settings (pk is always 1).

    Shipping and tax live here and nowhere else: cart, checkout, product page,
    FAQ and e-mails all read these values.
    """

    store_name = models.CharField(max_length=120, default="Nile Highlands Tea")
    store_email = models.EmailField(default="hello@nilehighlandstea.example")
    store_phone = models.CharField(max_length=40, default="+20 2 1234 5678")
    store_description = models.TextField(
        default="Premium Kenyan tea, delivered across Egypt.", blank=True
    )
    # printed on every invoice (Egyptian Tax Authority registration number); empty: not printed
    tax_registration_number = models.CharField(max_length=40, blank=True, default="")
    # Arabic twins of the texts shoppers read; empty falls back to English
    # (read them through the `shown_*` properties, which follow the page language)
    store_name_ar = models.CharField(max_length=120, blank=True, default="نايل هايلاندز تي")
    store_description_ar = models.TextField(blank=True, default="شاي كيني فاخر يصلك في كل أنحاء مصر.")
    maintenance_message = models.TextField(blank=True, default="")
    maintenance_message_ar = models.TextField(blank=True, default="")
    currency = models.CharField(max_length=3, default="EGP")
    timezone = models.CharField(max_length=64, default="Africa/Cairo")
    shipping_rate = models.DecimalField(
        max_digits=12, decimal_places=2, default=Decimal("50.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    free_shipping_threshold = models.DecimalField(
        max_digits=12, decimal_places=2, default=Decimal("1000.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    tax_rate = models.DecimalField(
        max_digits=5, decimal_places=4, default=Decimal("0.14"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    prices_include_tax = models.BooleanField(default=True)
    order_notifications = models.BooleanField(default=True)
    maintenance_mode = models.BooleanField(default=False)
    disable_discovery = models.BooleanField(default=False)
    social_media = models.JSONField(default=_default_social, blank=True)
    seo = models.JSONField(default=_default_seo, blank=True)
    seo_ar = models.JSONField(default=_default_seo, blank=True)
    # cash on delivery
    cod_enabled = models.BooleanField(default=True)
    cod_fee = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0.00"))
    cod_max_total = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True,
        help_text="Largest order total accepted for cash on delivery; empty for no limit.",
    )
    # limits a real shopper never meets, so one visitor cannot hold the stock
    max_quantity_per_line = models.PositiveIntegerField(default=20, validators=[MinValueValidator(1)])
    max_quantity_per_order = models.PositiveIntegerField(default=50, validators=[MinValueValidator(1)])
    max_unpaid_orders = models.PositiveIntegerField(
        default=3, validators=[MinValueValidator(1)],
        help_text="Unpaid card orders one session or address may hold at once.",
    )
    # external products (importer)
    external_enabled = models.BooleanField(default=True)
    # empty: follow the IMPORTER_BASE_URL setting (see importer_base_url)
    external_base_url = models.URLField(blank=True, default="")
    external_refresh_interval = models.PositiveIntegerField(default=24)  # hours
    external_auto_import = models.BooleanField(default=False)
    show_kes_conversion = models.BooleanField(default=True)
    importer_markup = models.DecimalField(max_digits=6, decimal_places=2, default=Decimal("100"))
    # delivery by governorate (orders/delivery.py): the default row is shipping_rate with these days;
    # shipping_zones holds the governorates staff changed ({"Aswan": {"rate", "minDays", "maxDays", "cod"}}),
    # every other governorate keeps its seeded row
    delivery_min_days = models.PositiveSmallIntegerField(default=2)
    delivery_max_days = models.PositiveSmallIntegerField(default=4)
    shipping_zones = models.JSONField(default=dict, blank=True)
    # weekdays without deliveries (Monday 0 … Sunday 6; Friday off) and holidays ("2026-12-25")
    delivery_days_off = models.JSONField(default=_default_days_off, blank=True)
    delivery_holidays = models.JSONField(default=list, blank=True)
    # click-to-chat (wa.me) number, digits with the country code; empty hides the links
    whatsapp_number = models.CharField(max_length=32, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = verbose_name_plural = "store settings"
        constraints = [models.CheckConstraint(condition=models.Q(pk=1), name="store_settings_singleton")]

    def save(self, *args, **kwargs):
        self.pk = 1
        created = self._state.adding
        super().save(*args, **kwargs)
        # Every process reads settings through the shared cache; drop it so
        # the change (maintenance mode!) is seen everywhere at once: now, and
        # again on commit, since a page read before the commit stores the old row
        delete_now_and_on_commit({STORE_SETTINGS_CACHE_KEY})
        shared_forget(STORE_SETTINGS_CACHE_KEY)  # this request reads its own change
        if not created:  # the first read creates the row with the defaults pages already show
            # stored pages show the settings (and maintenance mode hides them all)
            catalog_changed_now_and_on_commit()

    def __str__(self):
        return self.store_name

    def _in_language(self, english, arabic):
        return arabic if arabic and get_language() == "ar" else english

    @property
    def shown_name(self):
        """The store name in the page's language (Arabic falls back to English)."""
        return self._in_language(self.store_name, self.store_name_ar)

    @property
    def shown_description(self):
        return self._in_language(self.store_description, self.store_description_ar)

    def _seo(self, key):
        return self._in_language((self.seo or {}).get(key) or "", (self.seo_ar or {}).get(key) or "")

    @property
    def shown_meta_title(self):
        return self._seo("metaTitle") or self.shown_name

    @property
    def shown_meta_description(self):
        return self._seo("metaDescription") or self.shown_description

    @property
    def shown_keywords(self):
        return self._seo("keywords") or []

    @property
    def shown_maintenance_message(self):
        return self._in_language(self.maintenance_message, self.maintenance_message_ar)

    @property
    def importer_base_url(self):
        """The producer's site: the address staff saved, else the IMPORTER_BASE_URL setting."""
        return self.external_base_url or django_settings.IMPORTER_BASE_URL


class AnnouncementArabicMissing(models.TextChoices):
    """What Arabic pages do with an announcement that has no Arabic text."""

    HIDE = "hide", _("Hide it on Arabic pages")
    ENGLISH = "english", _("Show the English text")


class Announcement(models.Model):
    title = models.CharField(max_length=200)
    content = models.TextField()
    link = models.CharField(max_length=500, blank=True)
    link_label = models.CharField(max_length=80, blank=True)  # empty: "Learn more"
    title_ar = models.CharField(max_length=200, blank=True)
    content_ar = models.TextField(blank=True)
    link_label_ar = models.CharField(max_length=80, blank=True)
    arabic_missing = models.CharField(
        max_length=10, choices=AnnouncementArabicMissing.choices, default=AnnouncementArabicMissing.HIDE
    )
    display_start_date = models.DateTimeField(default=timezone.now)
    display_end_date = models.DateTimeField()
    banner_color = models.CharField(max_length=9, default="#dc2626")
    text_color = models.CharField(max_length=9, default="#ffffff")
    is_active = models.BooleanField(default=True)
    is_main = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-is_main", "-display_start_date"]

    def __str__(self):
        return self.title

    @property
    def has_arabic(self):
        return bool(self.title_ar.strip() or self.content_ar.strip())

    def shown_in(self, language):
        """(title, content, link label, language of the text) for a page in `language`, or None to hide it.

        Arabic pages show the Arabic text; without one, the announcement is
        hidden or shown in English (marked so the page isolates it), as staff chose.
        """
        if language == "ar" and self.has_arabic:
            return self.title_ar or self.title, self.content_ar or self.content, self.link_label_ar, "ar"
        if language == "ar" and self.arabic_missing == AnnouncementArabicMissing.HIDE:
            return None
        return self.title, self.content, self.link_label, "en"


class ContactMessageStatus(models.TextChoices):
    NEW = "new", _("New")  # not yet read by staff
    READ = "read", _("Read")
    REPLIED = "replied", _("Replied")  # staff sent a reply by e-mail
    CLOSED = "closed", _("Closed")


class ContactMessage(models.Model):
    name = models.CharField(max_length=120)
    email = models.EmailField()
    subject = models.CharField(max_length=200)
    message = models.TextField(max_length=5000)
    status = models.CharField(
        max_length=10, choices=ContactMessageStatus.choices, default=ContactMessageStatus.NEW
    )
    reply_message = models.TextField(blank=True)
    replied_at = models.DateTimeField(null=True, blank=True)
    # the language the visitor wrote in; staff replies go out in it (empty: older messages)
    language = models.CharField(max_length=8, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.subject} ({self.email})"


def _unsubscribe_token():
    return secrets.token_urlsafe(24)


class NewsletterSubscriber(models.Model):
    """An address on the newsletter list: double opt-in, so mailed only once its owner confirmed it.

    `is_active` is the wish (off once unsubscribed), `confirmed_at` the proof that the mailbox's owner
    asked: an address anyone typed in is not on the list until its confirmation link is used.
    """

    email = models.EmailField(unique=True)
    is_active = models.BooleanField(default=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=8, default="en")
    # one secret per address, in every mail to it: it confirms and it unsubscribes
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=_unsubscribe_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.email

    @property
    def status(self) -> str:
        """"active" (mailed), "pending" (awaiting its confirmation) or "unsubscribed"."""
        if not self.is_active:
            return "unsubscribed"
        return "active" if self.confirmed_at else "pending"


class ExchangeRate(models.Model):
    """The last good rate for a currency pair: the one source of truth."""

    from_currency = models.CharField(max_length=3)
    to_currency = models.CharField(max_length=3)
    rate = models.DecimalField(max_digits=18, decimal_places=8)
    source = models.CharField(max_length=300)
    last_updated = models.DateTimeField(default=timezone.now)
    # the last refresh attempt, successful or not, and why it failed
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    # a rate a service answered that moved too far from this one (shop.rates.RATE_MAX_DAILY_MOVE), refused
    # and kept here for the dashboard until a rate is taken again or staff set one by hand
    refused_rate = models.DecimalField(max_digits=18, decimal_places=8, null=True, blank=True)
    refused_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["from_currency", "to_currency"], name="exchange_rate_pair"),
            models.CheckConstraint(condition=models.Q(rate__gt=0), name="exchange_rate_positive"),
        ]

    def __str__(self):
        return f"1 {self.from_currency} = {self.rate} {self.to_currency}"


class Heartbeat(models.Model):
    """When a background process last proved it was alive (worker, beat)."""

    name = models.CharField(max_length=40, primary_key=True)
    seen_at = models.DateTimeField(default=timezone.now)


class FailedJob(models.Model):
    """A background job that ended in an error (Celery's task_failure), for the overview."""

    task = models.CharField(max_length=200)
    task_id = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    failed_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-failed_at", "-pk"]

    def __str__(self):
        return f"{self.task} {self.failed_at:%Y-%m-%d %H:%M}"


class OutboundEmailStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")  # waiting for its first attempt or its next retry
    SENDING = "sending", _("Sending")  # claimed by one worker until locked_until
    SENT = "sent", _("Sent")  # the mail server accepted it
    FAILED = "failed", _("Failed")  # given up after EMAIL_MAX_ATTEMPTS; staff may retry it


class OutboundEmail(models.Model):
    """One e-mail in the outbox (shop/mail.py), stored with the change that causes it.

    The content is rendered when the mail is queued, in the recipient's
    language, so a retry sends exactly what the first attempt would have.
    """

    to = models.EmailField()
    reply_to = models.EmailField(blank=True)
    subject = models.CharField(max_length=300)
    text = models.TextField()
    html = models.TextField(blank=True)
    language = models.CharField(max_length=8, default="en")
    status = models.CharField(
        max_length=10, choices=OutboundEmailStatus.choices, default=OutboundEmailStatus.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # a worker that died while sending lets go of the mail when this passes
    locked_until = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due_idx")]

    def __str__(self):
        return f"{self.subject} → {self.to} ({self.status})"


class OutboundWhatsAppStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class OutboundWhatsApp(models.Model):
    """One WhatsApp message in its outbox (shop/whatsapp.py), stored with the change that causes it.

    Delivered like the e-mail outbox: claimed once, retried with backoff, given up
    after EMAIL_MAX_ATTEMPTS attempts; the order is never affected by a failed send.
    """

    to = models.CharField(max_length=32)  # digits with the country code
    text = models.TextField()
    language = models.CharField(max_length=8, default="en")
    status = models.CharField(max_length=10, choices=OutboundWhatsAppStatus.choices,
                              default=OutboundWhatsAppStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    locked_until = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    # the provider's message id once accepted
    provider_id = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="whatsapp_due_idx")]

    def __str__(self):
        return f"WhatsApp → {self.to} ({self.status})"
