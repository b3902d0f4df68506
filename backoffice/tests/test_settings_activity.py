"""Recent activity records only the settings that changed, with the old and new values."""

import pytest

from backoffice.models import AuditEntry


@pytest.mark.django_db
class TestSettingsChangesInTheActivity:
    def test_it_records_only_the_one_field_that_changed_when_the_whole_form_is_saved(self, client, owner):
        # given
        client.force_login(owner)
        form = client.get("/api/admin/settings").json()
        # when: the screen sends every field back, with one changed
        response = client.put("/api/admin/settings", {**form, "codFee": "15.00"}, content_type="application/json")
        # then
        assert response.status_code == 200
        activity = client.get("/api/admin/dashboard").json()["recentActivity"]
        assert activity[0]["action"] == "settings.update"
        assert activity[0]["changes"] == [{"field": "cod_fee", "old": "0.00", "new": "15.00"}]

    def test_it_names_a_changed_social_link_and_a_switch(self, client, owner):
        # given
        client.force_login(owner)
        # when
        client.put("/api/admin/settings", {"socialMedia": {"facebook": "https://facebook.com/tea"},
                                           "codEnabled": False}, content_type="application/json")
        # then
        entry = AuditEntry.objects.get(action="settings.update")
        assert {c["field"]: (c["old"], c["new"]) for c in entry.changes} == {
            "social_media.facebook": ("", "https://facebook.com/tea"), "cod_enabled": (True, False)}

    def test_a_save_that_changes_nothing_is_not_activity(self, client, owner):
        # given
        client.force_login(owner)
        form = client.get("/api/admin/settings").json()
        # when
        client.put("/api/admin/settings", form, content_type="application/json")
        # then
        assert not AuditEntry.objects.filter(action="settings.update").exists()


def test_every_setting_has_a_label_in_the_activity_in_both_languages():
    # the activity names a changed setting by its label; without one staff read the code's name
    import json
    from pathlib import Path

    from django.conf import settings

    from shop.models import StoreSettings

    for language in ("en", "ar"):
        labels = json.loads((Path(settings.BASE_DIR) / f"static_src/i18n/{language}/admin-overview.json")
                            .read_text(encoding="utf-8"))["fields"]
        missing = [field.name for field in StoreSettings._meta.concrete_fields
                   if field.name not in ("id", "updated_at") and field.name not in labels
                   and not any(label.startswith(f"{field.name}__") for label in labels)]
        assert missing == [], language


def test_every_field_a_staff_edit_records_has_a_label_in_both_languages():
    import json
    from pathlib import Path

    from django.conf import settings

    from backoffice.product_input import ProductInputSerializer

    product_fields = {ProductInputSerializer._RENAMED.get(name, name) for name in ProductInputSerializer().fields}
    staff_and_customers = {"first_name", "last_name", "email", "phone", "is_active", "username", "role", "password"}
    for language in ("en", "ar"):
        labels = json.loads((Path(settings.BASE_DIR) / f"static_src/i18n/{language}/admin-overview.json")
                            .read_text(encoding="utf-8"))["fields"]
        assert sorted((product_fields | staff_and_customers) - labels.keys()) == [], language
