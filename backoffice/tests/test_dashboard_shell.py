import pytest

from backoffice.sections import section_from_path


@pytest.mark.django_db
class TestDashboardShell:
    def test_anonymous_visitors_are_sent_to_the_sign_in_page(self, client):
        response = client.get("/admindash/products")
        assert response.status_code == 302 and response["Location"] == "/adminauth"

    def test_customers_are_sent_to_the_sign_in_page(self, client, alice):
        client.force_login(alice)
        assert client.get("/admindash")["Location"] == "/adminauth"

    def test_the_owner_sees_every_section_including_the_owner_only_ones(self, client, owner):
        client.force_login(owner)
        body = client.get("/admindash").content.decode()
        assert "Welcome, <bdi>owner</bdi>" in body
        for label in ["Products", "Orders", "Role Management", "Storage Management", "Database Config", "Refresh Now",
                      "Logout"]:
            assert label in body
        assert 'data-island="admin-overview"' in body

    def test_support_sees_neither_owner_items_nor_sections_it_cannot_view(self, client, support):
        client.force_login(support)
        body = client.get("/admindash").content.decode()
        assert "Role Management" not in body and "Storage Management" not in body
        assert 'data-section="settings"' not in body and 'data-section="coupons"' not in body
        assert 'data-section="orders"' in body

    def test_each_section_mounts_its_island_with_role_and_permissions(self, client, manager):
        client.force_login(manager)
        body = client.get("/admindash/external-products").content.decode()
        assert 'data-island="admin-external-products"' in body
        assert '"role": "manager"' in body and '"permissions"' in body

    def test_a_section_the_role_cannot_view_is_refused(self, client, support):
        client.force_login(support)
        response = client.get("/admindash/settings")
        assert response.status_code == 403
        assert 'data-island="admin-settings"' not in response.content.decode()

    def test_the_dashboard_works_in_arabic_right_to_left(self, client, owner):
        client.force_login(owner)
        body = client.get("/ar/admindash/products").content.decode()
        assert 'dir="rtl"' in body and 'lang="ar"' in body
        assert "المنتجات" in body
        assert '"language": "ar"' in body

    @pytest.mark.parametrize("path,section", [
        ("/admindash", "overview"), ("/admindash/whatever", "overview"), ("/admindash/products", "products"),
        ("/admindash/external-products", "external-products"), ("/admindash/users", "users"),
        ("/ar/admindash/inventory", "inventory"),
    ])
    def test_the_active_section_comes_from_the_path(self, path, section):
        assert section_from_path(path).slug == section
