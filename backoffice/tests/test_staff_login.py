from datetime import timedelta

import pytest
from django.test import override_settings

from accounts.models import AuthToken


@pytest.mark.django_db
class TestAdminLoginApi:
    def test_it_signs_staff_in_with_username_and_returns_a_session_token(self, client, manager, password):
        # when
        response = client.post("/api/admin/login", {"username": "manager", "password": password},
                               content_type="application/json")
        # then
        assert response.status_code == 200
        body = response.json()
        assert body["username"] == "manager"
        assert body["role"] == "manager"
        token = body["sessionToken"]
        assert AuthToken.objects.filter(key_hash=AuthToken.hash_key(token), user=manager).exists()
        verify = client.get("/api/admin/verify", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert verify.status_code == 200 and verify.json()["role"] == "manager"

    def test_it_refuses_a_wrong_password(self, client, owner):
        response = client.post("/api/admin/login", {"username": "owner", "password": "nope"},
                               content_type="application/json")
        assert response.status_code == 401
        assert response.json()["message"] == "Invalid username or password"

    def test_it_refuses_a_customer_even_with_the_right_password(self, client, alice, password):
        response = client.post("/api/admin/login", {"username": "alice@example.com", "password": password},
                               content_type="application/json")
        assert response.status_code == 401

    def test_it_names_the_missing_field(self, client):
        response = client.post("/api/admin/login", {"username": "owner"}, content_type="application/json")
        assert response.status_code == 400
        assert response.json()["field"] == "password"

    @override_settings(AXES_FAILURE_LIMIT=3)
    def test_it_locks_a_username_out_after_repeated_failures(self, client, owner, password):
        # given
        for _ in range(3):
            client.post("/api/admin/login", {"username": "owner", "password": "wrong"},
                        content_type="application/json")
        # when: even the right password is refused now
        response = client.post("/api/admin/login", {"username": "owner", "password": password},
                               content_type="application/json")
        # then
        assert response.status_code == 429
        assert "Too many failed sign-in attempts" in response.json()["message"]

    def test_logout_revokes_the_token(self, client, support, password):
        # given
        token = client.post("/api/admin/login", {"username": "support", "password": password},
                            content_type="application/json").json()["sessionToken"]
        # when
        client.post("/api/admin/logout", {"sessionToken": token}, content_type="application/json",
                    HTTP_AUTHORIZATION=f"Bearer {token}")
        # then
        assert client.get("/api/admin/verify", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401
        assert client.get("/api/admin/verify").status_code == 401

    def test_signing_out_of_the_page_also_revokes_the_login_token(self, client, manager, password):
        # given
        token = client.post("/api/admin/login", {"username": "manager", "password": password},
                            content_type="application/json").json()["sessionToken"]
        # when
        client.post("/adminauth/logout")
        # then
        assert client.get("/api/admin/verify", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401

    def test_verify_without_credentials_says_admin_authentication_required(self, client):
        response = client.get("/api/admin/verify")
        assert response.status_code == 401
        assert response.json()["message"] == "Admin authentication required"

    @pytest.mark.parametrize("path", ["/api/admin/dashboard", "/api/admin/orders", "/api/reviews/admin",
                                      "/api/admin/scrape/status"])
    @pytest.mark.parametrize("token_state", ["expired", "staff deactivated", "unknown"])
    def test_a_token_that_fails_gets_the_same_401_as_no_credentials(self, client, manager, path, token_state):
        # given: a bearer token that no longer signs anyone in
        _token, key = AuthToken.issue(user=manager, lifetime=timedelta(seconds=-1 if token_state == "expired" else 60))
        if token_state == "staff deactivated":
            manager.is_active = False
            manager.save(update_fields=["is_active"])
        if token_state == "unknown":
            key = "not-a-token"
        # when
        response = client.get(path, HTTP_AUTHORIZATION=f"Bearer {key}")
        # then: the spec's words, not the token check's
        assert response.status_code == 401
        assert response.json()["message"] == "Admin authentication required"
        assert response["WWW-Authenticate"] == "Bearer"

    def test_a_customer_api_keeps_the_token_check_s_words(self, client, alice):
        # given
        _token, key = AuthToken.issue(user=alice, lifetime=timedelta(seconds=-1))
        # when
        response = client.get("/api/auth/me", HTTP_AUTHORIZATION=f"Bearer {key}")
        # then
        assert response.status_code == 401 and response.json()["message"] == "Invalid or expired token."


@pytest.mark.django_db
class TestAdminAuthPage:
    def test_it_shows_the_sign_in_form_and_the_notes(self, client):
        body = client.get("/adminauth").content.decode()
        assert "Sign In" in body
        assert "Authorized personnel only" in body
        assert "This area is restricted to administrators only." in body

    def test_it_speaks_arabic_at_the_arabic_address(self, client):
        body = client.get("/ar/adminauth").content.decode()
        assert 'dir="rtl"' in body and "للموظفين المصرح لهم فقط" in body and "تسجيل الدخول" in body

    def test_a_signed_in_staff_member_goes_to_the_dashboard(self, client, support):
        client.force_login(support)
        response = client.get("/adminauth")
        assert response.status_code == 302 and response["Location"] == "/admindash"

    def test_the_form_signs_staff_in_without_javascript(self, client, owner, password):
        response = client.post("/adminauth", {"username": "owner", "password": password})
        assert response.status_code == 302 and response["Location"] == "/admindash"
        assert client.get("/admindash").status_code == 200

    def test_the_form_shows_the_error_for_bad_credentials(self, client, owner):
        response = client.post("/adminauth", {"username": "owner", "password": "bad"})
        assert "Invalid username or password" in response.content.decode()

    def test_logout_ends_the_staff_session(self, client, owner):
        client.force_login(owner)
        client.post("/adminauth/logout")
        assert client.get("/admindash")["Location"] == "/adminauth"
