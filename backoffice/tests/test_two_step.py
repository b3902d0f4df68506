"""Staff two-step sign-in (backoffice.two_step): enrolment, every way in, lockout, recovery codes, reset."""

import io
import logging
import time

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import AuthToken
from accounts.services import reset_token_make
from backoffice.models import AuditEntry
from backoffice.two_step import (
    RECOVERY_CODES,
    code_verify,
    enrolment_confirm,
    enrolment_start,
    two_step_enabled,
)
from conftest import PASSWORD

JSON = "application/json"
CSRF_REFUSED = "This page has expired. Reload it and try again."  # accounts.authentication.CsrfRefused


def _code(device, *, offset=0):
    """The app's code for `device` (at `offset` seconds from now)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + offset
    return f"{totp.token():06d}"


def _wrong(device):
    right = _code(device)
    return "000000" if right != "000000" else "111111"


def _enrol(user):
    """`user` with a confirmed authenticator app (as set up on the dashboard); return (device, recovery codes)."""
    enrolment_start(user=user)
    device = TOTPDevice.objects.get(user=user)
    codes = enrolment_confirm(user=user, code=_code(device), password=PASSWORD)
    device.refresh_from_db()
    # the set-up used the current code, which the app refuses twice: sign-ins use the next one
    device.last_t -= 1
    device.save(update_fields=["last_t"])
    return device, codes


def _unthrottle(device):
    """Forget django-otp's slow-down after a wrong code (it makes the next try wait a second or more)."""
    device.refresh_from_db()
    device.throttling_failure_count = 0
    device.save()


def _signed_in_to_dashboard(client):
    return client.get("/admindash").status_code == 200


@pytest.mark.django_db
class TestEnrolment:
    def test_the_app_counts_only_once_a_valid_code_confirms_it(self, client, manager):
        # given
        client.force_login(manager)
        setup = client.post("/api/admin/two-step/setup").json()
        assert len(setup["secret"]) >= 16 and setup["uri"].startswith("otpauth://totp/")
        assert setup["qrSvg"].startswith("<svg") and "<script" not in setup["qrSvg"]
        assert client.get("/api/admin/two-step").json()["enabled"] is False
        device = TOTPDevice.objects.get(user=manager)
        # when: a wrong code
        wrong = client.post("/api/admin/two-step/confirm", {"code": _wrong(device), "password": PASSWORD},
                            content_type=JSON)
        # then
        assert wrong.status_code == 400 and wrong.json()["field"] == "code"
        assert not two_step_enabled(manager)
        # when: the app's code
        _unthrottle(device)
        right = client.post("/api/admin/two-step/confirm", {"code": _code(device), "password": PASSWORD},
                            content_type=JSON)
        # then: on, with ten recovery codes shown once
        assert right.status_code == 200
        codes = right.json()["recoveryCodes"]
        assert len(set(codes)) == RECOVERY_CODES
        assert client.get("/api/admin/two-step").json() == {"enabled": True, "recoveryCodesLeft": RECOVERY_CODES}
        assert AuditEntry.objects.filter(action="staff.two_step_on", target_id=str(manager.pk)).exists()
        # and a second set-up is refused while it is on
        assert client.post("/api/admin/two-step/setup").status_code == 409

    def test_turning_it_on_ends_every_other_session_and_token(self, client, manager, password):
        # given: a session and a token opened elsewhere with the password alone (a leaked one, say)
        elsewhere = Client()
        elsewhere.force_login(manager)
        token = Client().post("/api/admin/login", {"username": "manager", "password": password},
                              content_type=JSON).json()["sessionToken"]
        client.force_login(manager)
        client.post("/api/admin/two-step/setup")
        device = TOTPDevice.objects.get(user=manager)
        # when
        assert client.post("/api/admin/two-step/confirm", {"code": _code(device), "password": password},
                           content_type=JSON).status_code == 200
        # then: only the session that turned it on is still in
        assert elsewhere.get("/api/admin/verify").status_code == 401
        assert Client().get("/api/admin/verify", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401
        assert client.get("/api/admin/verify").status_code == 200

    def test_a_stolen_session_cannot_turn_it_on_and_lock_the_owner_out(self, client, manager, password):
        # given: the real staff member signed in elsewhere, and someone holding a copy of a session of
        # theirs (a shared computer, a stolen cookie) but not the password, who sets up an app of their own
        owner_of_the_account = Client()
        owner_of_the_account.force_login(manager)
        client.force_login(manager)
        client.post("/api/admin/two-step/setup")
        device = TOTPDevice.objects.get(user=manager)
        # when: their app's code without the password, then with a wrong one
        for typed in ("", "not-the-password"):
            _unthrottle(device)
            response = client.post("/api/admin/two-step/confirm", {"code": _code(device), "password": typed},
                                   content_type=JSON)
            # then: refused on the password field; the account stays as it was, its owner stays signed in
            assert response.status_code == 400 and response.json()["field"] == "password"
            assert not two_step_enabled(manager)
            assert owner_of_the_account.get("/api/admin/verify").status_code == 200
        # and the wrong password counts toward the sign-in lockout, as at sign-in
        assert AccessAttempt.objects.filter(username="manager").exists()
        # when: the staff member themselves, with the password
        _unthrottle(device)
        device.last_t = -1
        device.save(update_fields=["last_t"])
        response = client.post("/api/admin/two-step/confirm", {"code": _code(device), "password": password},
                               content_type=JSON)
        # then
        assert response.status_code == 200 and two_step_enabled(manager)

    def test_an_unconfirmed_app_does_not_ask_for_a_code_at_sign_in(self, client, manager, password):
        enrolment_start(user=manager)
        response = client.post("/api/admin/login", {"username": "manager", "password": password}, content_type=JSON)
        assert response.status_code == 200

    def test_turning_it_off_needs_the_password_and_a_code(self, client, support, password):
        # given
        device, _codes = _enrol(support)
        client.force_login(support)
        # when / then: a wrong password, then a wrong code, leave it on
        bad_password = client.post("/api/admin/two-step/disable", {"password": "nope", "code": _code(device)},
                                   content_type=JSON)
        assert bad_password.status_code == 400 and bad_password.json()["field"] == "password"
        bad_code = client.post("/api/admin/two-step/disable", {"password": password, "code": _wrong(device)},
                               content_type=JSON)
        assert bad_code.status_code == 400 and bad_code.json()["field"] == "code"
        assert two_step_enabled(support)
        # when: both right (later: django-otp slows down tries after a wrong one)
        _unthrottle(device)
        off = client.post("/api/admin/two-step/disable", {"password": password, "code": _code(device)},
                          content_type=JSON)
        # then
        assert off.status_code == 200 and off.json()["enabled"] is False
        assert not TOTPDevice.objects.filter(user=support).exists()
        assert not StaticToken.objects.filter(device__user=support).exists()


@pytest.mark.django_db
class TestSignInNeedsTheCode:
    def test_admin_login_api_asks_for_the_code_and_gives_no_token(self, client, owner, password):
        _enrol(owner)
        response = client.post("/api/admin/login", {"username": "owner", "password": password}, content_type=JSON)
        assert response.status_code == 401
        assert response.json()["field"] == "code"
        assert "code" in response.json()["message"]
        assert not AuthToken.objects.filter(user=owner).exists()
        assert client.get("/api/admin/verify").status_code == 401

    def test_the_token_the_sign_in_answers_is_never_stored_by_a_cache(self, client, owner, password):
        device, _codes = _enrol(owner)
        response = client.post("/api/admin/login", {"username": "owner", "password": password, "code": _code(device)},
                               content_type=JSON)
        assert response.status_code == 200 and response.json()["sessionToken"]
        assert "no-store" in response.headers.get("Cache-Control", "")

    def test_an_app_code_seen_once_opens_nothing_again(self, owner, password):
        # given: the owner signed in with the app's code, which someone saw (over the shoulder, a phishing
        # page passing it on)
        device, _codes = _enrol(owner)
        code = _code(device)
        assert Client().post("/api/admin/login", {"username": "owner", "password": password, "code": code},
                             content_type=JSON).status_code == 200
        # when: they use it at once, from elsewhere, on every way in
        api = Client(REMOTE_ADDR="198.51.100.7").post(
            "/api/admin/login", {"username": "owner", "password": password, "code": code}, content_type=JSON)
        page = Client(REMOTE_ADDR="198.51.100.8")
        page.post("/adminauth", {"username": "owner", "password": password, "code": code})
        # then: refused (django-otp keeps the last time step used), no token, no session
        assert api.status_code == 401 and api.json()["field"] == "code"
        assert page.get("/admindash").status_code == 302
        assert AuthToken.objects.filter(user=owner).count() == 1

    def test_admin_login_api_in_arabic(self, client, owner, password):
        _enrol(owner)
        response = client.post("/api/admin/login", {"username": "owner", "password": password}, content_type=JSON,
                               HTTP_ACCEPT_LANGUAGE="ar")
        assert response.status_code == 401 and "رمز" in response.json()["message"]

    def test_admin_login_api_signs_in_with_the_right_code(self, client, owner, password):
        device, _codes = _enrol(owner)
        response = client.post("/api/admin/login", {"username": "owner", "password": password,
                                                    "code": _code(device)}, content_type=JSON)
        assert response.status_code == 200
        token = response.json()["sessionToken"]
        assert client.get("/api/admin/verify", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200

    def test_the_adminauth_page_asks_for_the_code_and_signs_in_with_it(self, client, manager, password):
        # given
        device, _codes = _enrol(manager)
        # when: the password alone
        response = client.post("/adminauth", {"username": "manager", "password": password})
        # then: the form comes back with a code field, nobody signed in
        body = response.content.decode()
        assert response.status_code == 401 and 'name="code"' in body
        assert "authenticator app" in body
        assert not _signed_in_to_dashboard(client)
        # when: with the code
        response = client.post("/adminauth", {"username": "manager", "password": password, "code": _code(device)})
        # then
        assert response.status_code == 302 and response["Location"] == "/admindash"
        assert _signed_in_to_dashboard(client)

    def test_the_adminauth_page_asks_in_arabic(self, client, manager, password):
        _enrol(manager)
        body = client.post("/ar/adminauth", {"username": "manager", "password": password}).content.decode()
        assert 'name="code"' in body and "رمز" in body and "authenticator" not in body

    def test_django_admin_asks_for_the_code(self, client, owner, password):
        # given: the Owner is a superuser, who may use /django-admin/
        owner.is_superuser = True
        owner.save()
        device, _codes = _enrol(owner)
        # when: the password alone
        response = client.post("/django-admin/login/", {"username": "owner", "password": password,
                                                        "next": "/django-admin/"})
        # then
        assert response.status_code == 200 and "authenticator app" in response.content.decode()
        assert client.get("/django-admin/").status_code == 302
        assert not _signed_in_to_dashboard(client)
        # when: with the code
        response = client.post("/django-admin/login/", {"username": "owner", "password": password,
                                                        "code": _code(device), "next": "/django-admin/"})
        # then
        assert response.status_code == 302
        assert client.get("/django-admin/").status_code == 200

    def test_the_customer_sign_in_page_gives_staff_no_session(self, client, owner, password):
        _enrol(owner)
        for username in ("owner", "owner@staff.example"):
            client.post("/login", {"email": username, "password": password})
            assert not _signed_in_to_dashboard(client)
            assert client.get("/api/admin/verify").status_code == 401

    def test_the_customer_sign_in_api_gives_staff_no_token(self, client, owner, password):
        _enrol(owner)
        for username in ("owner", "owner@staff.example"):
            response = client.post("/api/auth/login", {"email": username, "password": password}, content_type=JSON)
            assert response.status_code == 401
        assert not AuthToken.objects.filter(user=owner).exists()
        assert not _signed_in_to_dashboard(client)

    def test_password_reset_is_no_way_around_it(self, client, owner, password):
        # given
        _enrol(owner)
        # when: a reset is asked for the staff address
        client.post("/forgot-password", {"email": "owner@staff.example"})
        client.post("/api/auth/forgot-password", {"email": "owner@staff.example"}, content_type=JSON)
        # then: no link is sent, and a link made for the account does not work
        assert mail.outbox == []
        token = reset_token_make(owner)
        response = client.post("/api/auth/reset-password", {"token": token, "password": "N3w-long-password!",
                                                            "confirmPassword": "N3w-long-password!"},
                               content_type=JSON)
        assert response.status_code == 400
        owner.refresh_from_db()
        assert owner.check_password(password)

    def test_a_staff_member_without_the_app_signs_in_as_before(self, client, support, password):
        response = client.post("/adminauth", {"username": "support", "password": password})
        assert response.status_code == 302 and _signed_in_to_dashboard(client)


@pytest.mark.django_db
class TestWrongCodesAndRecoveryCodes:
    def test_guesses_from_many_addresses_share_the_devices_slow_down(self, owner, password):
        # given: the password known, and code guesses spread over many addresses (each under its lockout)
        device, codes = _enrol(owner)

        def sign_in(address, code):
            return Client(REMOTE_ADDR=address).post(
                "/api/admin/login", {"username": "owner", "password": password, "code": code}, content_type=JSON)

        for n in range(10):
            assert sign_in(f"198.51.100.{n}", _wrong(device)).status_code == 401
        # then: only the first was tried against the app; the rest waited out django-otp's slow-down, so a
        # million guesses cannot be shared out between addresses
        device.refresh_from_db()
        assert device.throttling_failure_count == 1
        # and even the right code from yet another address waits for it (as do recovery codes, slowed apart)
        assert sign_in("203.0.113.1", _code(device)).status_code == 401
        for n in range(10):
            sign_in(f"198.51.100.{n}", "aaaa-bbbb")
        assert sign_in("203.0.113.2", codes[0]).status_code == 401
        assert not AuthToken.objects.filter(user=owner).exists()

    def test_the_password_step_leaves_nothing_in_the_session_and_the_sign_in_gets_a_new_one(self, client, owner,
                                                                                            password):
        # given: a visitor's session, its id known to whoever planted it (session fixation)
        device, _codes = _enrol(owner)
        client.get("/adminauth")
        client.session.save()
        planted = client.cookies["sessionid"].value
        # when: the right password without the code
        client.post("/api/admin/login", {"username": "owner", "password": password}, content_type=JSON)
        # then: nobody is signed in on it, and nothing remembers the password step
        assert "_auth_user_id" not in client.session
        assert client.get("/admindash").status_code == 302
        # when: password and code
        assert client.post("/api/admin/login", {"username": "owner", "password": password, "code": _code(device)},
                           content_type=JSON).status_code == 200
        # then: signed in on a new session id, not the planted one
        assert client.cookies["sessionid"].value != planted
        assert client.get("/admindash").status_code == 200

    @override_settings(AXES_FAILURE_LIMIT=3)
    def test_a_wrong_code_counts_toward_the_lockout(self, client, owner, password):
        # given
        device, _codes = _enrol(owner)
        # when: the right password with wrong codes
        for _ in range(2):
            response = client.post("/api/admin/login", {"username": "owner", "password": password,
                                                        "code": _wrong(device)}, content_type=JSON)
            assert response.status_code == 401 and response.json()["field"] == "code"
        assert AccessAttempt.objects.get(username="owner").failures_since_start == 2
        # and one wrong password
        client.post("/api/admin/login", {"username": "owner", "password": "wrong"}, content_type=JSON)
        # then: locked out, even with the right password and code
        _unthrottle(device)
        response = client.post("/api/admin/login", {"username": "owner", "password": password,
                                                    "code": _code(device)}, content_type=JSON)
        assert response.status_code == 429
        assert not AuthToken.objects.filter(user=owner).exists()

    @pytest.mark.parametrize("path", ["/adminauth", "/django-admin/login/"])
    def test_a_wrong_code_on_the_pages_is_counted_too(self, client, owner, password, path):
        owner.is_superuser = True
        owner.save()
        device, _codes = _enrol(owner)
        response = client.post(path, {"username": "owner", "password": password, "code": _wrong(device)})
        assert "code is not right" in response.content.decode()
        assert AccessAttempt.objects.get(username="owner").failures_since_start == 1
        assert not _signed_in_to_dashboard(client)

    def test_the_password_alone_is_not_counted_as_a_failure(self, client, owner, password):
        _enrol(owner)
        client.post("/api/admin/login", {"username": "owner", "password": password}, content_type=JSON)
        assert not AccessAttempt.objects.filter(username="owner", failures_since_start__gt=0).exists()

    def test_a_recovery_code_works_once(self, client, owner, password):
        # given
        _device, codes = _enrol(owner)
        # when
        first = client.post("/api/admin/login", {"username": "owner", "password": password,
                                                 "code": codes[0].upper()}, content_type=JSON)
        # then
        assert first.status_code == 200
        assert client.get("/api/admin/two-step").json()["recoveryCodesLeft"] == RECOVERY_CODES - 1
        client.post("/api/admin/logout")
        again = client.post("/api/admin/login", {"username": "owner", "password": password,
                                                 "code": codes[0]}, content_type=JSON)
        assert again.status_code == 401 and again.json()["field"] == "code"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/admin/two-step/confirm", "/api/admin/two-step/disable"])
def test_a_session_cannot_guess_the_password_past_the_lockout(client, manager, password, settings, path):
    # given: a session of the account in other hands, the password unknown; turning on needs a pending
    # set-up, turning off an app already on
    if path.endswith("confirm"):
        enrolment_start(user=manager)
        device = TOTPDevice.objects.get(user=manager)
    else:
        device, _codes = _enrol(manager)
    client.force_login(manager)
    # when: as many wrong passwords as lock a sign-in out
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(path, {"password": f"guess {attempt}", "code": _code(device)}, content_type=JSON)
        assert response.status_code == (400 if attempt < settings.AXES_FAILURE_LIMIT - 1 else 429)
    # then: the right one is refused too until the lockout ends, as at sign-in (not 20 times as many
    # guesses an hour through these forms as the sign-in allows)
    _unthrottle(device)
    response = client.post(path, {"password": password, "code": _code(device)}, content_type=JSON)
    assert response.status_code == 429
    assert two_step_enabled(manager) is path.endswith("disable")


@pytest.mark.django_db
class TestOwnerReset:
    def test_the_owner_resets_a_lost_phone_and_it_is_audited(self, client, owner, manager, password):
        # given
        _enrol(manager)
        client.force_login(owner)
        staff = client.get("/api/admin/users/admin").json()
        assert next(u for u in staff if u["username"] == "manager")["twoStep"] is True
        # when
        response = client.post(f"/api/admin/users/admin/{manager.pk}/two-step/reset")
        # then
        assert response.status_code == 200
        assert not two_step_enabled(manager)
        entry = AuditEntry.objects.get(action="staff.two_step_reset")
        assert entry.actor == owner and entry.target_id == str(manager.pk)
        client.logout()
        assert client.post("/api/admin/login", {"username": "manager", "password": password},
                           content_type=JSON).status_code == 200

    @pytest.mark.parametrize("kind", ["second owner", "superuser"])
    def test_an_owner_account_is_not_reset_from_the_dashboard(self, client, owner, django_user_model, kind):
        # given: an account the dashboard may not edit (an Owner, a superuser), with two-step sign-in on
        other = django_user_model.objects.create_user(
            username="other", email="other@staff.example", password=PASSWORD, is_staff=True, role="owner",
            is_superuser=kind == "superuser")
        if kind == "superuser":
            other.role = "manager"
            other.save(update_fields=["role"])
        _enrol(other)
        client.force_login(owner)
        assert next(u for u in client.get("/api/admin/users/admin").json() if u["username"] == "other")["isOwner"]
        # when: the Owner resets it (one who knows its password would then need nothing more)
        response = client.post(f"/api/admin/users/admin/{other.pk}/two-step/reset")
        # then: refused as editing it is; it stays on
        assert response.status_code == 403
        assert two_step_enabled(other)
        assert not AuditEntry.objects.filter(action="staff.two_step_reset").exists()
        arabic = client.post(f"/api/admin/users/admin/{other.pk}/two-step/reset", HTTP_ACCEPT_LANGUAGE="ar")
        assert arabic.status_code == 403 and "المالك" in arabic.json()["message"]

    def test_an_owner_without_phone_or_recovery_codes_gets_a_code_on_the_server(self, client, owner, password):
        # given: the Owner's app lost and every recovery code spent; nobody on the dashboard may reset it
        _enrol(owner)
        StaticToken.objects.filter(device__user=owner).delete()
        # when: someone with the server runs django-otp's command (README)
        out = io.StringIO()
        call_command("addstatictoken", "owner", stdout=out)
        code = out.getvalue().strip()
        # then: that one code signs the Owner in, once
        signed_in = client.post("/api/admin/login", {"username": "owner", "password": password, "code": code},
                                content_type=JSON)
        assert signed_in.status_code == 200
        again = Client().post("/api/admin/login", {"username": "owner", "password": password, "code": code},
                              content_type=JSON)
        assert again.status_code == 401

    def test_an_owner_without_phone_gets_a_new_phone_with_a_second_server_code(self, client, owner, password):
        # given: the Owner's app lost and every recovery code spent; two codes from the server (README: one
        # signs in, the other turns two-step sign-in off, as a new phone cannot be set up while it is on)
        _enrol(owner)
        StaticToken.objects.filter(device__user=owner).delete()
        codes = []
        for _ in range(2):
            out = io.StringIO()
            call_command("addstatictoken", "owner", stdout=out)
            codes.append(out.getvalue().strip())
        assert client.post("/adminauth", {"username": "owner", "password": password,
                                          "code": codes[0]}).status_code == 302
        # a new phone cannot be set up while two-step sign-in is on
        assert client.post("/api/admin/two-step/setup").status_code == 409
        # when: the second code turns it off
        off = client.post("/api/admin/two-step/disable", {"password": password, "code": codes[1]},
                          content_type=JSON)
        # then: the new phone can be set up
        assert off.status_code == 200, off.content
        assert not two_step_enabled(owner)
        assert client.post("/api/admin/two-step/setup").status_code == 200

    def test_the_owner_cannot_reset_their_own(self, client, owner):
        # given: the Owner's session in other hands (no phone, no password)
        _enrol(owner)
        client.force_login(owner)
        # when: it resets the Owner's own two-step sign-in, the way around the code
        response = client.post(f"/api/admin/users/admin/{owner.pk}/two-step/reset")
        # then: refused; only the password and a code turn it off
        assert response.status_code == 400 and "password and a code" in response.json()["message"]
        assert two_step_enabled(owner)
        assert not AuditEntry.objects.filter(action="staff.two_step_reset").exists()

    def test_nobody_else_may_reset_it(self, client, manager, support):
        _enrol(support)
        client.force_login(manager)
        response = client.post(f"/api/admin/users/admin/{support.pk}/two-step/reset")
        assert response.status_code == 403
        assert two_step_enabled(support)
        assert not AuditEntry.objects.filter(action="staff.two_step_reset").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/admin/two-step", "/api/admin/two-step/setup", "/api/admin/two-step/confirm",
                                  "/api/admin/two-step/disable"])
def test_only_a_signed_in_staff_member_reaches_their_two_step_settings(client, alice, path):
    method = client.get if path == "/api/admin/two-step" else client.post
    assert method(path).status_code == 401
    client.force_login(alice)
    assert method(path).status_code == 401
    assert not TOTPDevice.objects.exists()


@pytest.mark.django_db
def test_the_secret_and_the_recovery_codes_are_never_stored_by_a_cache(client, manager):
    # the set-up answer holds the app's secret, the confirmation the recovery codes: no browser or proxy
    # cache may keep them (a shared computer's back button, a disk cache read later)
    client.force_login(manager)
    setup = client.post("/api/admin/two-step/setup")
    device = TOTPDevice.objects.get(user=manager)
    confirm = client.post("/api/admin/two-step/confirm", {"code": _code(device), "password": PASSWORD},
                          content_type=JSON)
    for response in (setup, confirm):
        assert response.status_code == 200
        assert "no-store" in response.headers.get("Cache-Control", "")


@pytest.mark.django_db
def test_no_secret_or_code_reaches_the_log_or_the_audit_log(client, manager, password, caplog):
    # given: everything two-step sign-in does, logged at every level
    with caplog.at_level(logging.DEBUG):
        client.force_login(manager)
        setup = client.post("/api/admin/two-step/setup").json()
        device = TOTPDevice.objects.get(user=manager)
        enrol_code = _code(device)
        codes = client.post("/api/admin/two-step/confirm", {"code": enrol_code, "password": password},
                            content_type=JSON).json()["recoveryCodes"]
        client.logout()
        wrong = _wrong(device)
        Client().post("/api/admin/login", {"username": "manager", "password": password, "code": wrong},
                      content_type=JSON)
        Client().post("/django-admin/login/", {"username": "manager", "password": password, "code": codes[1]})
        Client().post("/adminauth", {"username": "manager", "password": password, "code": codes[0]})
    # then: the log has the requests, but none of the secrets or codes
    text = caplog.text + "".join(str(record.__dict__) for record in caplog.records)
    assert "/api/admin/two-step/confirm" in text and "/adminauth" in text
    audit = "".join(f"{e.details}{e.changes}" for e in AuditEntry.objects.all())
    assert "staff.two_step_on" in {e.action for e in AuditEntry.objects.all()}
    for secret in (setup["secret"], setup["secret"].lower(), "otpauth", enrol_code, wrong, *codes, password):
        assert secret not in text
        assert secret not in audit


@pytest.mark.django_db
def test_another_site_cannot_turn_it_on_off_or_reset_it_through_a_signed_in_browser(owner, support, password):
    # given: a browser signed in to the dashboard (session cookie), a form on another site posting
    # without the page's CSRF token
    support_device, _codes = _enrol(support)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner)
    attempts = [
        ("/api/admin/two-step/setup", {}),
        ("/api/admin/two-step/confirm", {"code": "123456", "password": password}),
        (f"/api/admin/users/admin/{support.pk}/two-step/reset", {}),
    ]
    for path, body in attempts:
        response = browser.post(path, body, content_type=JSON)
        # then: refused for the missing token (the Owner may do all three), nothing changed
        assert response.status_code == 403 and response.json()["error"] == CSRF_REFUSED, path
    assert not TOTPDevice.objects.filter(user=owner).exists()
    assert two_step_enabled(support)
    # and turning one's own off
    own = Client(enforce_csrf_checks=True)
    own.force_login(support)
    response = own.post("/api/admin/two-step/disable", {"password": password, "code": _code(support_device)},
                        content_type=JSON)
    assert response.status_code == 403 and response.json()["error"] == CSRF_REFUSED and two_step_enabled(support)


@pytest.mark.django_db
def test_turning_it_on_with_a_token_keeps_that_token(manager, password):
    # given: an API client signed in with a bearer token (no cookie), and another token elsewhere
    key = Client().post("/api/admin/login", {"username": "manager", "password": password},
                        content_type=JSON).json()["sessionToken"]
    other = Client().post("/api/admin/login", {"username": "manager", "password": password},
                          content_type=JSON).json()["sessionToken"]
    api = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
    api.post("/api/admin/two-step/setup")
    device = TOTPDevice.objects.get(user=manager)
    # when
    response = api.post("/api/admin/two-step/confirm", {"code": _code(device), "password": password},
                        content_type=JSON)
    # then: as a session that turns it on stays signed in, the token that did stays valid; the other ends
    assert response.status_code == 200
    assert api.get("/api/admin/verify").status_code == 200
    assert Client().get("/api/admin/verify", HTTP_AUTHORIZATION=f"Bearer {other}").status_code == 401


@pytest.fixture
def root(django_user_model):
    """A superuser with no role: made in Django's admin by ticking "superuser status", or before roles
    existed (`createsuperuser` gives the Owner's role)."""
    return django_user_model.objects.create_user(username="root", email="root@staff.example", password=PASSWORD,
                                                 is_staff=True, is_superuser=True, role="")


@pytest.mark.django_db
def test_a_superuser_without_a_role_turns_it_on_as_an_owner_does(client, root, password):
    # given: the superuser signs in where the Owner does and opens the Roles screen's two-step section
    signed_in = client.post("/api/admin/login", {"username": "root", "password": password}, content_type=JSON)
    assert signed_in.status_code == 200 and signed_in.json()["role"] == "owner"
    assert client.get("/admindash/roles").status_code == 200
    assert client.get("/api/admin/verify").json()["permissions"]["system"]
    assert client.get("/api/admin/two-step").json() == {"enabled": False, "recoveryCodesLeft": 0}
    # when: the set-up and a code from the app, with the password
    setup = client.post("/api/admin/two-step/setup")
    assert setup.status_code == 200 and setup.json()["uri"].startswith("otpauth://totp/")
    device = TOTPDevice.objects.get(user=root)
    confirmed = client.post("/api/admin/two-step/confirm", {"code": _code(device), "password": password},
                            content_type=JSON)
    # then: on, with its recovery codes, and the password alone opens nothing any more, here or in Django's admin
    assert confirmed.status_code == 200 and len(confirmed.json()["recoveryCodes"]) == RECOVERY_CODES
    assert two_step_enabled(root)
    assert AuditEntry.objects.filter(action="staff.two_step_on", target_id=str(root.pk)).exists()
    other = Client()
    refused = other.post("/api/admin/login", {"username": "root", "password": password}, content_type=JSON)
    assert refused.status_code == 401 and refused.json()["field"] == "code"
    other.post("/django-admin/login/", {"username": "root", "password": password, "next": "/django-admin/"})
    assert other.get("/django-admin/").status_code == 302
    device.refresh_from_db()
    device.last_t -= 1  # the set-up used the current code, which the app refuses twice
    device.save(update_fields=["last_t"])
    assert other.post("/api/admin/login", {"username": "root", "password": password, "code": _code(device)},
                      content_type=JSON).status_code == 200


@pytest.mark.django_db
def test_a_superuser_without_a_role_has_the_owners_dashboard(client, root):
    # given
    client.force_login(root)
    # when
    page = client.get("/admindash/settings")
    # then: every section the Owner has, and the Owner's rights in the API
    assert page.status_code == 200
    assert client.get("/api/admin/users/admin").status_code == 200


@pytest.mark.django_db
def test_an_app_code_in_other_digits_than_ascii_is_not_the_code(owner):
    # given: Python's \d also takes "𝟏" and other scripts' digits, which django-otp's int() reads as 1
    device, _codes = _enrol(owner)
    code = _code(device)
    bold = code.translate(str.maketrans("0123456789", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"))
    # when / then
    assert not code_verify(user=owner, code=bold)
    assert code_verify(user=owner, code=code)
