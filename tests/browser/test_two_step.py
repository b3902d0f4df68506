"""Staff two-step sign-in in a real browser, in English and Arabic at phone and desktop widths: turning it
on from the Roles screen (QR code, key, one code, the recovery codes) and the code step of /adminauth."""

import json
import re
from pathlib import Path

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import expect

from backoffice.tests.test_two_step import _code, _enrol
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import open_island, signed_in

pytestmark = pytest.mark.django_db(transaction=True)

I18N = Path(__file__).resolve().parents[2] / "static_src" / "i18n"
CASES = [(PHONE, "en"), (PHONE, "ar"), (DESKTOP, "en"), (DESKTOP, "ar")]


def _strings(language, name):
    return json.loads((I18N / language / f"{name}.json").read_text())


def _prefix(language):
    return "/ar" if language == "ar" else ""


@pytest.mark.parametrize(("viewport", "language"), CASES, ids=[f"{v['width']}-{lang}" for v, lang in CASES])
def test_a_staff_member_turns_two_step_sign_in_on(new_page, live_server, support, password, screenshot, viewport,
                                                 language):
    # given: the support member on the Roles screen, which the sidebar links to (Roles itself is not there)
    st = _strings(language, "admin-roles")
    page = signed_in(new_page, live_server, support, viewport=viewport, locale=language)
    page.goto(f"{_prefix(language)}/admindash")
    if viewport is PHONE:
        page.locator("[data-admin-nav-toggle]").click()
    page.locator("[data-account-security]").click()
    page.locator('[data-island="admin-roles"][data-mounted="true"]').wait_for()
    expect(page).to_have_url(re.compile(r"/admindash/roles#two-step$"))
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if language == "ar" else "ltr")
    # when
    page.get_by_role("button", name=st["twoStepTurnOn"]).click()
    # then: the QR code and the key as text
    qr = page.locator(".admin-two-step__qr svg")
    expect(qr).to_be_visible()
    assert qr.bounding_box()["width"] >= 150
    device = TOTPDevice.objects.get(user=support)
    secret = page.locator(".admin-two-step__secret").inner_text().replace(" ", "")
    assert secret and secret in device.config_url
    screenshot(page, f"two-step-enrol-{viewport['width']}-{language}")
    # when: the password alone, then a wrong code, then the app's code
    page.get_by_label(st["password"]).fill(password)
    page.get_by_role("button", name=st["twoStepConfirm"]).click()
    expect(page.locator(".field__error")).to_have_text(st["twoStepCodeRequired"])
    page.get_by_label(st["twoStepCode"]).fill("000000" if _code(device) != "000000" else "111111")
    page.get_by_role("button", name=st["twoStepConfirm"]).click()
    expect(page.locator(".field__error")).to_be_visible()
    device.refresh_from_db()
    device.throttling_failure_count = 0
    device.save()
    page.get_by_label(st["twoStepCode"]).fill(_code(device))
    page.get_by_role("button", name=st["twoStepConfirm"]).click()
    # then: on, and the ten recovery codes shown once
    expect(page.locator(".admin-two-step__codes li")).to_have_count(10)
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, f"two-step-codes-{viewport['width']}-{language}")
    page.get_by_role("button", name=st["twoStepCodesSaved"]).click()
    expect(page.locator(".admin-two-step__codes")).to_have_count(0)
    expect(page.get_by_text(st["twoStepCodesLeft"].replace("{{count}}", "10"))).to_be_visible()
    # and this browser stays signed in (every other session ended)
    page.reload()
    page.locator('[data-island="admin-roles"][data-mounted="true"]').wait_for()
    expect(page.get_by_text(st["twoStepCodesLeft"].replace("{{count}}", "10"))).to_be_visible()


@pytest.mark.parametrize(("viewport", "language"), CASES, ids=[f"{v['width']}-{lang}" for v, lang in CASES])
def test_the_sign_in_asks_for_the_code(new_page, live_server, owner, password, screenshot, viewport, language):
    # given
    device, _codes = _enrol(owner)
    admin = _strings(language, "admin")
    page = new_page(viewport=viewport, locale=language)
    open_island(page, f"{_prefix(language)}/adminauth", "admin-login")
    page.locator("#admin-username").fill("owner")
    page.locator("#admin-password").fill(password)
    # when: the password alone
    page.locator(".admin-auth__submit").click()
    # then: the code field, and nobody signed in
    code = page.locator("#admin-code")
    expect(code).to_be_visible()
    expect(code).to_be_focused()
    expect(page.get_by_text(admin["codeHint"])).to_be_visible()
    expect(page).to_have_url(re.compile(r"/adminauth$"))
    screenshot(page, f"two-step-code-step-{viewport['width']}-{language}")
    # when: a wrong code
    code.fill("000000" if _code(device) != "000000" else "111111")
    page.locator(".admin-auth__submit").click()
    # then
    expect(page.get_by_role("alert")).to_contain_text("رمز" if language == "ar" else "code is not right")
    # when: the app's code
    device.refresh_from_db()
    device.throttling_failure_count = 0
    device.save()
    code.fill(_code(device))
    page.locator(".admin-auth__submit").click()
    # then
    expect(page).to_have_url(re.compile(r"/admindash$"))


@pytest.mark.parametrize(("viewport", "language"), [(DESKTOP, "en"), (PHONE, "ar")], ids=["1280-en", "360-ar"])
def test_the_owner_resets_a_lost_phone(new_page, live_server, owner, manager, screenshot, viewport, language):
    # given
    _enrol(manager)
    st = _strings(language, "admin-roles")
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale=language)
    open_island(page, f"{_prefix(language)}/admindash/roles", "admin-roles")
    row = page.locator("tr", has_text="manager@staff.example")
    expect(row.get_by_text(st["twoStepOn"], exact=True)).to_be_visible()
    # when
    row.get_by_role("button", name=st["twoStepReset"]).click()
    screenshot(page, f"two-step-owner-reset-{viewport['width']}-{language}")
    page.locator("[data-confirm]").click()
    # then
    expect(row.get_by_text(st["twoStepOff"], exact=True)).to_be_visible()
    assert not TOTPDevice.objects.filter(user=manager).exists()


def test_a_superuser_without_a_role_turns_it_on_from_the_roles_screen(new_page, live_server, django_user_model,
                                                                      password):
    # given: a superuser with no role (the superuser box ticked in Django's admin) signs in at /adminauth
    root = django_user_model.objects.create_user(username="root", email="root@staff.example", password=password,
                                                 is_staff=True, is_superuser=True, role="")
    st = _strings("en", "admin-roles")
    page = new_page(viewport=DESKTOP, locale="en")
    open_island(page, "/adminauth", "admin-login")
    page.locator("#admin-username").fill("root")
    page.locator("#admin-password").fill(password)
    page.locator(".admin-auth__submit").click()
    expect(page).to_have_url(re.compile(r"/admindash$"))
    # when: from the header's account link to the Roles screen's two-step section, as the Owner does
    page.locator("[data-account-security]").click()
    page.locator('[data-island="admin-roles"][data-mounted="true"]').wait_for()
    page.get_by_role("button", name=st["twoStepTurnOn"]).click()
    expect(page.locator(".admin-two-step__qr svg")).to_be_visible()
    device = TOTPDevice.objects.get(user=root)
    page.get_by_label(st["password"]).fill(password)
    page.get_by_label(st["twoStepCode"]).fill(_code(device))
    page.get_by_role("button", name=st["twoStepConfirm"]).click()
    # then: on, and the recovery codes shown once
    expect(page.locator(".admin-two-step__codes li")).to_have_count(10)
    device.refresh_from_db()
    assert device.confirmed
