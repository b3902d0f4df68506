import pytest
from django.core.management import call_command

from catalog.models import Category, Product


@pytest.mark.django_db
class TestSeedDemo:
    def test_it_loads_about_forty_teas_in_both_languages(self, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path
        call_command("seed_demo")
        assert Product.objects.count() == 40
        assert Category.objects.count() == 15
        product = Product.objects.get(slug="love-tea-25-bags")
        assert product.title_ar == "شاي الحب، 25 كيس"
        assert product.sale_price_amount < product.price_amount
        assert (tmp_path / "demo" / "love-tea-25-bags.svg").exists()
        assert Product.objects.filter(stock=0).exists()
        assert Product.objects.filter(stock__gt=0, stock__lte=10).exists()
        assert Product.objects.filter(kes_price_amount__isnull=False).exists()
        assert not Category.objects.get(slug="entire-range").is_assignable

    def test_it_is_idempotent(self, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path
        call_command("seed_demo")
        Product.objects.filter(slug="love-tea-25-bags").update(stock=3)
        call_command("seed_demo", if_empty=True)
        assert Product.objects.get(slug="love-tea-25-bags").stock == 3
        call_command("seed_demo")
        assert Product.objects.count() == 40

    def test_make_run_never_brings_the_demo_back_into_a_shop_that_emptied_its_catalogue(self, settings, tmp_path):
        # the Owner deletes the demo teas (or every product) to stock their own; the next `make run`
        # (a restart, a deploy) loaded forty teas the shop does not have back on sale
        settings.MEDIA_ROOT = tmp_path
        call_command("seed_demo", if_empty=True)
        Product.objects.all().delete()
        call_command("seed_demo", if_empty=True)
        assert Product.objects.count() == 0
        # asked for by name, it still loads
        call_command("seed_demo")
        assert Product.objects.count() == 40

    def test_a_shop_that_has_taken_orders_is_not_a_demo(self, settings, tmp_path):
        from tests.factories import make_order

        settings.MEDIA_ROOT = tmp_path
        make_order()
        Product.objects.all().delete()
        call_command("seed_demo", if_empty=True)
        assert Product.objects.count() == 0

    def test_createsuperuser_makes_an_owner(self, monkeypatch):
        from accounts.models import Role, User

        monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "boss")
        monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "boss@example.com")
        monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a long enough secret")
        call_command("createsuperuser", interactive=False, verbosity=0)
        boss = User.objects.get(username="boss")
        assert boss.role == Role.OWNER
        assert boss.is_staff and boss.is_superuser
