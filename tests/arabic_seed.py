"""A shop seeded with realistic Arabic and English content, for the Arabic page walks (issue 13)."""

from datetime import timedelta
from decimal import Decimal

from django.core.management import call_command
from django.utils import timezone

# what people typed, in both languages: every page must isolate these
TYPED = {
    "review_title_en": "Best tea ever?",
    "review_comment_en": "Do you sell the 500 g pack too?",
    "review_title_ar": "شاي رائع",
    "review_comment_ar": "أفضل شاي جربته في القاهرة.",
    "customer_first": "Mona",
    "street": "12 Tahrir St",
    "message_subject": "Where is my order?",
    "status_note": "Packed with care",
}


def seed_arabic_shop(*, alice, media_root):
    """The demo catalogue plus Arabic store texts, an announcement, reviews, an order, a message, a coupon."""
    from backoffice.models import AuditEntry
    from catalog.models import Product, Review
    from catalog.services import _product_rating_refresh
    from orders.models import Coupon, Order, OrderItem, OrderStatusChange
    from shop.models import Announcement, ContactMessage
    from shop.store_settings import store_settings_update

    call_command("seed_demo")
    store_settings_update(
        store_name_ar="نايل هايلاندز تي", store_description_ar="شاي كيني فاخر يصلك في كل أنحاء مصر.",
        seo_ar={"metaTitle": "شاي كيني فاخر", "metaDescription": "أجود الشاي الكيني في مصر", "keywords": ["شاي"]},
        social_media={"facebook": "https://facebook.com/nht", "instagram": "", "twitter": ""},
    )
    now = timezone.now()
    Announcement.objects.create(
        title="Free delivery this week", content="On every order.", title_ar="توصيل مجاني هذا الأسبوع",
        content_ar="على كل الطلبات.", link="/shop", link_label="Shop now", link_label_ar="تسوق الآن",
        display_start_date=now - timedelta(hours=1), display_end_date=now + timedelta(days=3), is_main=True)
    product = Product.objects.filter(stock__gt=10).order_by("pk").first()
    for title, comment, rating in ((TYPED["review_title_en"], TYPED["review_comment_en"], 5),
                                   (TYPED["review_title_ar"], TYPED["review_comment_ar"], 4)):
        Review.objects.create(product=product, user=alice, user_name="Alice H.", user_email=alice.email,
                              rating=rating, title=title, comment=comment, is_verified=True, is_approved=True)
    _product_rating_refresh(product.pk)
    order = Order.objects.create(
        number="NHT-261124-ARABIC", user=alice, email=alice.email, first_name=TYPED["customer_first"],
        last_name="Adel", phone="01012345678", street=TYPED["street"], city="Dokki", state="Giza",
        country="EGY", language="ar", status="processing", payment_status="paid", payment_method="card",
        subtotal_amount=product.price_amount, shipping_amount=Decimal("50.00"), tax_amount=Decimal("10.00"),
        total_amount=product.price_amount + Decimal("50.00"), paid_at=now)
    OrderItem.objects.create(order=order, product=product, product_title=product.title_ar, quantity=1,
                             unit_price_amount=product.price_amount, line_total_amount=product.price_amount)
    OrderStatusChange.objects.create(order=order, from_status="pending", to_status="processing",
                                     note="Packed with care", tracking_number="EG123456789")
    AuditEntry.objects.create(actor_name="owner", action="settings.update", details="tax_rate",
                              changes=[{"field": "tax_rate", "old": "0.1400", "new": "0.1500"}])
    ContactMessage.objects.create(name="Mona Adel", email="mona@example.com", subject=TYPED["message_subject"],
                                  message="أين طلبي؟ It was due on Monday.", language="ar")
    Coupon.objects.create(code="WELCOME10", type="percentage", value=Decimal("10"))
    return {"product": product, "order": order}
