"""Load the demo catalogue (idempotent): `manage.py seed_demo [--if-empty]`."""

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils.html import escape

from catalog.management.commands.demo_data import BLURBS, CATEGORIES, PRODUCTS
from catalog.models import Category, Product
from catalog.services import product_upsert


def _pack_art(title, colour):
    """A simple tea-pack picture, so the demo needs no downloads."""
    lines = "".join(
        f'<text x="200" y="{245 + i * 30}" text-anchor="middle" font-size="22" fill="#fff" '
        f'font-family="sans-serif" font-weight="700">{escape(line)}</text>'
        for i, line in enumerate(_wrap(title, width=16)[:4])
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">'
        '<rect width="400" height="400" fill="#f3efe4"/>'
        f'<rect x="90" y="60" width="220" height="290" rx="18" fill="{colour}"/>'
        '<rect x="90" y="60" width="220" height="44" rx="18" fill="#c9a227"/>'
        '<path d="M200 140c-30 18-40 48-20 70 26-6 40-36 20-70z" fill="#c9a227"/>'
        f"{lines}</svg>"
    )


def _wrap(text, *, width):
    """Break a title into lines of at most `width` characters, at spaces."""
    lines, line = [], ""
    for word in text.replace(",", "").split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


class Command(BaseCommand):
    help = "Load the demo catalogue of Kenyan teas (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Do nothing when products exist.")

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if if_empty and Product.objects.exists():
            self.stdout.write("Catalogue not empty: demo data not loaded.")
            return
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
            (art_dir / f"{slug}.svg").write_text(_pack_art(title_en, colours[category]))
            product_upsert(
                slug=slug,
                **{
                    "title_en": title_en, "title_ar": title_ar,
                    "short_description_en": short_en, "short_description_ar": short_ar,
                    "description_en": f"{title_en}. {short_en} Packed in Kenya and sealed for freshness.",
                    "description_ar": f"{title_ar}. {short_ar} معبأ في كينيا ومحكم الإغلاق للحفاظ على النضارة.",
                    "brewing_instructions_en": brew_en, "brewing_instructions_ar": brew_ar,
                    "price_amount": price, "sale_price_amount": sale, "kes_price_amount": kes,
                    "category": categories[category], "stock": stock, "caffeine_level": caffeine,
                    "is_featured": featured, "is_new": new, "tags": tags, "flavor_notes": notes,
                    "ingredients": ["Kenyan tea"] if category not in ("herbal-tea",) else notes,
                    "images": [f"{settings.MEDIA_URL}demo/{slug}.svg"],
                },
            )
        self.stdout.write(f"Demo catalogue: {len(CATEGORIES)} categories, {len(PRODUCTS)} products.")

