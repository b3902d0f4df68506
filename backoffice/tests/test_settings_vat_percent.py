"""VAT is typed and shown as a percentage (14) and stored as a Decimal fraction (0.1400)."""

from decimal import Decimal

import pytest

from shop.models import StoreSettings


@pytest.mark.django_db
class TestVatAsAPercentage:
    def test_the_settings_show_the_stored_fraction_as_a_percentage(self, client, owner):
        # given: the default 14% VAT
        client.force_login(owner)
        # when
        body = client.get("/api/admin/settings").json()
        # then
        assert body["taxRatePercent"] == "14.00" and body["taxRate"] == "0.1400"

    def test_a_percentage_typed_by_staff_is_stored_as_a_fraction(self, client, owner):
        # given
        client.force_login(owner)
        form = client.get("/api/admin/settings").json()
        # when: the whole form comes back with 12.5 typed as the percentage
        response = client.put("/api/admin/settings", {**form, "taxRatePercent": "12.5"},
                              content_type="application/json")
        # then
        assert response.status_code == 200
        assert StoreSettings.objects.get().tax_rate == Decimal("0.1250")
        assert response.json()["taxRatePercent"] == "12.50"

    def test_it_still_takes_the_fraction_alone(self, client, owner):
        # given
        client.force_login(owner)
        # when
        client.put("/api/admin/settings", {"taxRate": "0.05"}, content_type="application/json")
        # then
        assert StoreSettings.objects.get().tax_rate == Decimal("0.0500")

    @pytest.mark.parametrize("percent", ["-1", "100.01", "fourteen"])
    def test_it_refuses_a_percentage_outside_0_to_100(self, client, owner, percent):
        # given
        client.force_login(owner)
        # when
        response = client.put("/api/admin/settings", {"taxRatePercent": percent}, content_type="application/json")
        # then
        assert response.status_code == 400 and response.json()["field"] == "taxRatePercent"
        assert StoreSettings.objects.get_or_create(pk=1)[0].tax_rate == Decimal("0.14")
