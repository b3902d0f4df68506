"""Load the demo catalogue (idempotent): `manage.py seed_demo [--if-empty]`."""

from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from catalog.demo_art import product_pictures
from catalog.glossary import arabic_words
from catalog.management.commands.demo_data import BLURBS, CATEGORIES, PRODUCTS
from catalog.models import Category, Product
from catalog.services import product_upsert
from orders.models import Order
from shop.models import Heartbeat

DEMO_MARK = "demo-catalogue"  # Heartbeat row: when the demo catalogue was loaded


class Command(BaseCommand):
    help = "Load the demo catalogue of Kenyan teas (safe to run again)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--if-empty", action="store_true",
                            help="Only into a new shop: do nothing when products or orders exist, or the demo "
                                 "was loaded before (an emptied catalogue stays empty).")

    @transaction.atomic
    def handle(self, *args: Any, if_empty: bool = False, **options: Any) -> None:
        # `make run` passes --if-empty at every start: a shop whose staff deleted the demo must not get it back
        if if_empty and (Product.objects.exists() or Order.objects.exists()
                         or Heartbeat.objects.filter(name=DEMO_MARK).exists()):
            self.stdout.write("Not a new shop: demo data not loaded.")
            return
        Heartbeat.objects.update_or_create(name=DEMO_MARK, defaults={"seen_at": timezone.now()})
        colours = {}
        for position, (slug, name_en, name_ar, colour) in enumerate(CATEGORIES):
            Category.objects.update_or_create(
                slug=slug,
                defaults={"name_en": name_en, "name_ar": name_ar, "position": position,
                          "is_assignable": slug != "entire-range"},
            )
            colours[slug] = colour
        art_dir = settings.MEDIA_ROOT / "demo"
        art_dir.mkdir(parents=True, exist_ok=True)
        categories = {c.slug: c for c in Category.objects.all()}
        for (slug, title_en, title_ar, category, price, sale, kes, stock, caffeine, featured, new,
             tags, notes) in PRODUCTS:
            short_en, short_ar, brew_en, brew_ar = BLURBS[category]
            ingredients = ["Kenyan tea"] if category not in ("herbal-tea",) else notes
            # pack, cup and leaves: generated pictures with no words (they show on Arabic pages too)
            pictures = product_pictures(slug=slug, category=category, colour=colours[category], notes=notes)
            for name, svg in pictures.items():
                (art_dir / name).write_text(svg)
            product_upsert(
                slug=slug,
                title_en=title_en, title_ar=title_ar,
                short_description_en=short_en, short_description_ar=short_ar,
                description_en=f"{title_en}. {short_en} Packed in Kenya and sealed for freshness.",
                description_ar=f"{title_ar}. {short_ar} معبأ في كينيا ومحكم الإغلاق للحفاظ على النضارة.",
                brewing_instructions_en=brew_en, brewing_instructions_ar=brew_ar,
                price_amount=price, sale_price_amount=sale, kes_price_amount=kes,
                category=categories[category], stock=stock, caffeine_level=caffeine,
                is_featured=featured, is_new=new, tags=tags, flavor_notes=notes,
                ingredients=ingredients, tags_ar=arabic_words(tags),
                flavor_notes_ar=arabic_words(notes), ingredients_ar=arabic_words(ingredients),
                images=[f"{settings.MEDIA_URL}demo/{name}" for name in pictures],
            )
        self.stdout.write(f"Demo catalogue: {len(CATEGORIES)} categories, {len(PRODUCTS)} products.")

