"""Django's admin at /django-admin/: superusers' tool for data fixes, every model registered.

Kept in one place (the back-office app) so the apps' own modules stay about
the shop. Staff roles work in /admindash; only superusers may enter here.
"""

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TranslationAdmin

from accounts.models import Address, AuthToken, User
from accounts.services import user_sessions_end
from backoffice.models import AuditEntry
from backoffice.two_step import TwoStepCodeError, sign_in_code_check
from catalog.models import Category, Product, Review, StockAlert
from importer.models import ExternalProduct, ImportedProduct, ImporterRun, PriceRecord
from orders.models import (
    BuyerActivity,
    Cart,
    CartLine,
    Coupon,
    Order,
    OrderItem,
    OrderStatusChange,
    Payment,
    PaymentEvent,
)
from shop.models import (
    Announcement,
    ContactMessage,
    ExchangeRate,
    FailedJob,
    Heartbeat,
    NewsletterSubscriber,
    OutboundEmail,
    OutboundWhatsApp,
    StoreSettings,
)
from shop.ratelimit import rate_limit_posts
from shop.rates import RateError, rate_checked, rate_set_by_hand


def _superusers_only(request):
    return request.user.is_active and request.user.is_superuser


class TwoStepAdminLoginForm(AdminAuthenticationForm):
    """Django's admin sign-in with the code of two-step sign-in (backoffice.two_step), as /adminauth asks it."""

    code = forms.CharField(label=_("Code from your authenticator app"), required=False, max_length=32,
                           strip=True, widget=forms.TextInput(attrs={"autocomplete": "one-time-code",
                                                                     "inputmode": "numeric", "dir": "ltr"}))

    def clean(self):
        cleaned = super().clean()
        if self.user_cache is not None:
            try:
                sign_in_code_check(request=self.request, user=self.user_cache, code=cleaned.get("code"))
            except TwoStepCodeError as exc:
                raise ValidationError(exc.message, code="two_step") from None
        return cleaned


admin.site.has_permission = _superusers_only
admin.site.login_form = TwoStepAdminLoginForm
admin.site.login_template = "backoffice/django_admin_login.html"
# its sign-in counts against the address's sign-in limit, as every other sign-in does
admin.site.login = rate_limit_posts("sign_in")(admin.site.login)  # type: ignore[method-assign]
admin.site.site_header = "Nile Highlands Tea — data fixes"
admin.site.site_title = "Nile Highlands Tea admin"


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records of what happened: looked at, never edited."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# --- accounts ---------------------------------------------------------------

@admin.register(User)
class ShopUserAdmin(UserAdmin):
    list_display = ("username", "email", "first_name", "last_name", "role", "is_staff", "is_active", "date_joined")
    list_filter = ("role", "is_staff", "is_superuser", "is_active")
    search_fields = ("username", "email", "first_name", "last_name", "phone")
    fieldsets = UserAdmin.fieldsets + (("Shop", {"fields": ("role", "phone", "language", "subscribe_newsletter")}),)
    readonly_fields = ("last_login", "date_joined")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            user_sessions_end(user=obj)  # as the dashboard's deactivation: reactivating revives no session


@admin.register(AuthToken)
class AuthTokenAdmin(ReadOnlyAdmin):
    list_display = ("user", "created_at", "expires_at")
    search_fields = ("user__username", "user__email")
    exclude = ("key_hash",)
    readonly_fields = ("user", "created_at", "expires_at")

    def has_delete_permission(self, request, obj=None):
        return True  # revoking a token is a fix


@admin.register(Address)
class AddressAdmin(admin.ModelAdmin):
    list_display = ("user", "label", "street", "city", "state", "is_default")
    search_fields = ("user__email", "label", "street", "city")
    list_filter = ("is_default", "state")


# --- catalogue ----------------------------------------------------------------


@admin.register(StockAlert)
class StockAlertAdmin(admin.ModelAdmin):
    list_display = ("email", "product", "language", "confirmed_at", "notified_at", "created_at")
    search_fields = ("email", "product__title_en")
    list_filter = ("language",)
    exclude = ("token",)

@admin.register(Category)
class CategoryAdmin(TranslationAdmin):
    list_display = ("slug", "name", "position", "is_assignable")
    list_editable = ("position",)
    search_fields = ("slug", "name_en", "name_ar")


@admin.register(Product)
class ProductAdmin(TranslationAdmin):
    list_display = ("title", "slug", "category", "price_amount", "sale_price_amount", "stock", "is_active",
                    "is_featured", "created_at")
    list_filter = ("is_active", "is_featured", "is_new", "category", "caffeine_level")
    search_fields = ("title_en", "title_ar", "slug", "source_url")
    readonly_fields = ("rating", "review_count", "search_text", "created_at", "updated_at")
    list_select_related = ("category",)
    prepopulated_fields = {"slug": ("title_en",)}


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ("title", "product", "user_name", "rating", "is_verified", "is_approved", "created_at")
    list_filter = ("is_approved", "is_verified", "rating")
    search_fields = ("title", "comment", "user_name", "user_email", "product__title_en")
    readonly_fields = ("user", "created_at")
    raw_id_fields = ("product",)


# --- orders -----------------------------------------------------------------------

class OrderItemInline(admin.TabularInline):
    model = OrderItem
    extra = 0
    readonly_fields = ("product", "product_title", "product_slug", "unit_price_amount", "quantity", "line_total_amount")
    can_delete = False


class StatusChangeInline(admin.TabularInline):
    model = OrderStatusChange
    extra = 0
    readonly_fields = ("from_status", "to_status", "note", "actor", "created_at")
    can_delete = False


class PaymentInline(admin.TabularInline):
    model = Payment
    extra = 0
    readonly_fields = ("provider", "payment_id", "provider_order_id", "transaction_id", "amount", "currency",
                       "status", "created_at")
    exclude = ("redirect_url",)
    can_delete = False


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ("number", "email", "status", "payment_status", "payment_method", "total_amount", "created_at")
    list_filter = ("status", "payment_status", "payment_method", "country")
    search_fields = ("number", "email", "first_name", "last_name", "phone")
    date_hierarchy = "created_at"
    inlines = [OrderItemInline, PaymentInline, StatusChangeInline]
    # amounts were computed at placing time; a data fix must not re-price an order
    readonly_fields = ("number", "user", "session_key", "subtotal_amount", "discount_amount", "shipping_amount",
                       "cod_fee_amount", "tax_amount", "total_amount", "coupon", "coupon_code", "stock_reserved",
                       "created_at", "updated_at", "paid_at")

    def has_delete_permission(self, request, obj=None):
        # never deleted, cancelled (the dashboard): a deleted order takes its payments with it, so its
        # provider's callback names an unknown order and the money is never recorded, and its stock and
        # coupon use are never given back
        return False


@admin.register(BuyerActivity)
class BuyerActivityAdmin(ReadOnlyAdmin):
    """The customer directory's buyers, rewritten from the orders (orders.models.buyers_rewrite): not edited."""

    list_display = ("key", "last_order_at")
    search_fields = ("key",)


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ("payment_id", "order", "provider", "amount", "status", "created_at")
    list_filter = ("provider", "status")
    search_fields = ("payment_id", "provider_order_id", "transaction_id", "order__number")

    def has_delete_permission(self, request, obj=None):
        return False  # with its reports: its provider's callback would name an unknown order, the money lost


@admin.register(PaymentEvent)
class PaymentEventAdmin(ReadOnlyAdmin):
    list_display = ("kind", "payment", "transaction_id", "success", "created_at")
    list_filter = ("kind", "success")
    search_fields = ("transaction_id", "payment__payment_id")

    def has_delete_permission(self, request, obj=None):
        return False  # a report deleted could be applied again (one event per transaction: orders.payments)


@admin.register(Coupon)
class CouponAdmin(admin.ModelAdmin):
    list_display = ("code", "type", "value", "minimum_order_amount", "used_count", "usage_limit", "expiry_date",
                    "is_active")
    list_filter = ("type", "is_active")
    search_fields = ("code",)
    readonly_fields = ("used_count", "created_at")


class CartLineInline(admin.TabularInline):
    model = CartLine
    extra = 0
    raw_id_fields = ("product",)


@admin.register(Cart)
class CartAdmin(admin.ModelAdmin):
    list_display = ("pk", "user", "session_key", "updated_at")
    search_fields = ("user__email", "session_key")
    inlines = [CartLineInline]
    readonly_fields = ("created_at", "updated_at")


# --- site -----------------------------------------------------------------------------

@admin.register(StoreSettings)
class StoreSettingsAdmin(admin.ModelAdmin):
    list_display = ("store_name", "maintenance_mode", "updated_at")
    readonly_fields = ("updated_at",)

    def has_add_permission(self, request):
        return not StoreSettings.objects.exists()  # one row

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("title", "display_start_date", "display_end_date", "is_active", "is_main")
    list_filter = ("is_active", "is_main")
    search_fields = ("title", "content")


@admin.register(ContactMessage)
class ContactMessageAdmin(admin.ModelAdmin):
    list_display = ("subject", "name", "email", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("subject", "name", "email", "message")
    readonly_fields = ("name", "email", "subject", "message", "language", "created_at", "replied_at")


@admin.register(NewsletterSubscriber)
class NewsletterSubscriberAdmin(admin.ModelAdmin):
    list_display = ("email", "language", "is_active", "created_at")
    list_filter = ("is_active", "language")
    search_fields = ("email",)
    exclude = ("unsubscribe_token",)


class ExchangeRateForm(forms.ModelForm):
    class Meta:
        model = ExchangeRate
        fields = ("from_currency", "to_currency", "rate")

    def clean(self):
        data = super().clean()
        if data.get("rate") is not None:
            try:  # the check a service's rate passes, so an inverted or mistyped rate is refused here
                rate_checked(data["rate"], str(data.get("from_currency", "")), str(data.get("to_currency", "")))
            except RateError as exc:
                self.add_error("rate", str(exc))
        return data


@admin.register(ExchangeRate)
class ExchangeRateAdmin(admin.ModelAdmin):
    form = ExchangeRateForm
    list_display = ("from_currency", "to_currency", "rate", "source", "last_updated", "last_attempt_at")
    readonly_fields = ("source", "last_updated", "last_attempt_at", "last_error", "refused_rate", "refused_at")

    def save_model(self, request, obj, form, change):
        # a rate typed here is set by hand: no move limit, the refusal cleared, the cached copy dropped
        rate_set_by_hand(rate=obj.rate, from_currency=obj.from_currency, to_currency=obj.to_currency)
        obj.pk = ExchangeRate.objects.get(from_currency=obj.from_currency.upper(),
                                          to_currency=obj.to_currency.upper()).pk
        obj.refresh_from_db()


@admin.register(Heartbeat)
class HeartbeatAdmin(ReadOnlyAdmin):
    list_display = ("name", "seen_at")


@admin.register(FailedJob)
class FailedJobAdmin(ReadOnlyAdmin):
    list_display = ("task", "failed_at", "error")
    search_fields = ("task", "error")


@admin.register(OutboundEmail)
class OutboundEmailAdmin(ReadOnlyAdmin):
    """The outbox: what was sent, what waits for a retry, what was given up (resend from the overview)."""

    list_display = ("subject", "to", "status", "attempts", "last_attempt_at", "created_at")
    list_filter = ("status", "language")
    search_fields = ("to", "subject")


@admin.register(OutboundWhatsApp)
class OutboundWhatsAppAdmin(ReadOnlyAdmin):
    """Opt-in WhatsApp order updates: sent, waiting for a retry, or given up."""

    list_display = ("to", "status", "attempts", "last_attempt_at", "created_at")
    list_filter = ("status", "language")
    search_fields = ("to", "text")


# --- importer and audit -----------------------------------------------------------------

@admin.register(ImporterRun)
class ImporterRunAdmin(ReadOnlyAdmin):
    list_display = ("pk", "status", "base_url", "pages_fetched", "products_found", "created_at", "finished_at")
    list_filter = ("status",)


@admin.register(ExternalProduct)
class ExternalProductAdmin(admin.ModelAdmin):
    list_display = ("name", "price", "currency", "category", "fetched_at")
    list_filter = ("category", "currency")
    search_fields = ("name", "source_url")
    readonly_fields = ("run", "fetched_at")


@admin.register(ImportedProduct)
class ImportedProductAdmin(admin.ModelAdmin):
    """Clear `staff_edited` here to let a scheduled import write a product's text again."""

    list_display = ("product", "staff_edited", "stock_zeroed", "last_seen_at", "gone_since")
    search_fields = ("product__title_en", "product__source_url")
    raw_id_fields = ("product",)


@admin.register(PriceRecord)
class PriceRecordAdmin(ReadOnlyAdmin):
    list_display = ("product", "kes", "rate", "markup", "egp", "sale_egp", "reason", "recorded_at")
    list_filter = ("reason",)
    search_fields = ("product__title_en",)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor_name", "action", "details", "target_type", "target_id")
    list_filter = ("action", "target_type")
    search_fields = ("actor_name", "action", "details", "target_id")
    date_hierarchy = "created_at"

    def has_delete_permission(self, request, obj=None):
        return False  # the audit log is append-only
