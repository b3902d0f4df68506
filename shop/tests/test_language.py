import pytest
from django.http import HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


@pytest.mark.django_db
class TestLanguage:
    def test_it_serves_english_unprefixed(self, client):
        response = client.get("/")
        assert response.status_code == 200
        assert b'<html lang="en" dir="ltr">' in response.content

    def test_it_serves_arabic_right_to_left_under_ar(self, client):
        response = client.get("/ar/")
        assert response.status_code == 200
        assert b'<html lang="ar" dir="rtl">' in response.content
        assert "الرئيسية".encode() in response.content

    def test_it_follows_the_browser_on_a_first_visit(self, client):
        response = client.get("/", HTTP_ACCEPT_LANGUAGE="ar-EG,ar;q=0.9,en;q=0.5")
        assert response.status_code == 302
        assert response["Location"] == "/ar/"

    def test_it_keeps_english_for_an_english_browser(self, client):
        response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
        assert response.status_code == 200

    def test_the_cookie_beats_the_browser(self, client, settings):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        response = client.get("/", HTTP_ACCEPT_LANGUAGE="ar")
        assert response.status_code == 200

    def test_an_arabic_cookie_sends_root_to_ar(self, client, settings):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
        response = client.get("/?x=1")
        assert response.status_code == 302
        assert response["Location"] == "/ar/?x=1"

    def test_the_toggle_sets_the_cookie_and_keeps_the_page(self, client, settings):
        response = client.get("/lang/ar/?next=/")
        assert response.status_code == 302
        assert response["Location"] == "/ar/"
        assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ar"

        response = client.get("/lang/en/?next=/ar/")
        assert response["Location"] == "/"
        assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"

    def test_the_toggle_refuses_to_leave_the_site(self, client):
        response = client.get("/lang/en/?next=https://evil.example/")
        assert response["Location"] == "/"

    @pytest.mark.parametrize("target", ["//evil.example/", "/\\evil.example/", "https:evil.example",
                                        "\t//evil.example/", "http://testserver/shop"])
    def test_the_toggle_on_https_never_leaves_the_site_nor_https(self, client, target):
        # a same-host address with http:// would take a shopper off HTTPS (as sign-in's `next` already refuses)
        response = client.get("/lang/ar/", {"next": target}, secure=True)
        assert response["Location"] == "/ar/"

    def test_pages_link_both_language_versions(self, client):
        body = client.get("/").content.decode()
        assert 'hreflang="ar" href="http://testserver/ar/"' in body
        assert 'hreflang="en" href="http://testserver/"' in body

    def test_the_api_answers_in_the_requested_language(self, client):
        response = client.get("/api/nowhere", HTTP_ACCEPT_LANGUAGE="ar")
        assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("path, status", [("/api/cart", 200), ("/api/nothing-here", 404), ("/healthz", 200)])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_path_outside_the_prefix_gets_djangos_language_headers(client, path, status, language):
    """ShopLocaleMiddleware answers these paths itself (no language lookup in them): the same headers as
    Django's LocaleMiddleware gives."""
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == status
    assert response["Content-Language"] == language
    with translation.override(language):
        djangos = LocaleMiddleware(lambda request: None).process_response(response.wsgi_request, HttpResponse(
            status=status, headers={"Vary": response["Vary"]}))
    assert djangos["Vary"] == response["Vary"] and "Accept-Language" in response["Vary"]
    assert djangos["Content-Language"] == response["Content-Language"]


@pytest.mark.django_db
def test_a_path_outside_the_prefix_gets_djangos_language_for_every_cookie_and_header(client, settings):
    """The language of an API call, worked out once per cookie and Accept-Language, is Django's choice for
    that request, whatever came before it in the process."""
    asked = [(None, ""), (None, "ar"), ("en", "ar"), ("ar", "en"), ("xx", "ar-EG,en;q=0.5"), (None, "fr, en;q=0.1"),
             (None, "fr"), ("ar", ""), (None, "ar")]
    answered = set()
    for cookie, accept in asked * 2:
        client.cookies.clear()
        if cookie is not None:
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
        response = client.get("/api/cart", HTTP_ACCEPT_LANGUAGE=accept)
        expected = translation.get_language_from_request(response.wsgi_request, check_path=False)
        assert response["Content-Language"] == response.wsgi_request.LANGUAGE_CODE == expected, (cookie, accept)
        answered.add(expected)
    assert answered == {"en", "ar"}


@pytest.mark.django_db
def test_a_changed_language_setting_is_seen_by_paths_outside_the_prefix(client, settings):
    assert client.get("/api/cart", HTTP_ACCEPT_LANGUAGE="ar")["Content-Language"] == "ar"
    settings.LANGUAGES = [("en", "English")]
    assert client.get("/api/cart", HTTP_ACCEPT_LANGUAGE="ar")["Content-Language"] == "en"
