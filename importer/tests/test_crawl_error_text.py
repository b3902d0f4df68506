"""A crawl's error details (a page's HTTP status, a timeout, a page the parsers choked on, a refused address)
are kept in English and read by staff and Owners in their language, the URL and the status code isolated
left-to-right inside an Arabic sentence."""

import re

import pytest
import requests
from django.utils import translation

from importer import crawl_errors, tasks
from importer.crawl_errors import crawl_error_text
from importer.fetch import _network_error
from importer.models import ImporterRun, RunFailure, RunStatus
from importer.tests.fake_site import Answer
from importer.tests.test_failed_crawls import _failure_mails, _status, imported  # noqa: F401 (a fixture)
from shop.models import OutboundEmail

LRI, PDI = "\u2066", "\u2069"
ARABIC = re.compile(r"[\u0600-\u06ff]")
SAMPLE = {"status": "503", "attempts": "5", "seconds": "30", "size": "3072", "number": "2", "total": "4",
          "url": "https://producer.example/shop/?page=2", "error": "ReadTimeout", "type": "text/html",
          "host": "producer.example", "address": "10.0.0.7"}


def _down(site):
    """Every page of the site answers 500 (robots.txt still served)."""
    for path in list(site.routes):
        if path != "/robots.txt":
            site.routes[path] = Answer(500, "<html>Internal Server Error</html>")


@pytest.mark.parametrize("template", crawl_errors.TEMPLATES)
def test_it_reads_every_stored_error_back_in_english_unchanged_and_in_arabic_with_its_codes_isolated(template):
    # given an error as the crawl stores it
    params = {name: SAMPLE[name] for name in re.findall(r"%\((\w+)\)s", template)}
    stored = template % params
    # then an English reader reads it as stored
    with translation.override("en"):
        assert crawl_error_text(stored) == stored
    # and an Arabic reader reads Arabic words, each technical part isolated left-to-right
    with translation.override("ar"):
        arabic = crawl_error_text(stored)
    assert ARABIC.search(arabic) and arabic != stored
    for value in params.values():
        assert f"{LRI}{value}{PDI}" in arabic


def test_it_leaves_words_no_template_wrote_as_they_are():
    with translation.override("ar"):
        assert crawl_error_text("RuntimeError: disk full") == "RuntimeError: disk full"
        assert crawl_error_text("HTTP ok: nothing") == "HTTP ok: nothing"


def test_a_timeout_is_told_as_one():
    url = "https://producer.example/shop/"
    assert _network_error(requests.ReadTimeout(), url) == f"timed out (ReadTimeout): {url}"
    assert _network_error(requests.ConnectionError(), url) == f"network error (ConnectionError): {url}"
    with translation.override("ar"):
        assert crawl_error_text(_network_error(requests.ConnectTimeout(), url)).startswith(
            "لم يردّ الموقع في الوقت المحدد")


@pytest.mark.django_db
def test_staff_reading_the_panel_in_arabic_read_each_failed_page_in_arabic(imported, owner, crawl, monkeypatch):  # noqa: F811
    monkeypatch.setattr("importer.fetch.FIRST_BACKOFF", 0.01)
    # given the producer's site answers 500 everywhere
    _down(imported)
    # when staff crawl it
    run = crawl(user=owner, max_pages=3)
    assert (run.status, run.failure) == (RunStatus.FAILED, RunFailure.UNREACHABLE)
    assert run.errors[0].startswith("HTTP 500 after 5 attempts: ")  # stored in English
    # then the Arabic panel lists every failed page in Arabic, its status and URL isolated left-to-right
    job = _status(owner, "ar")["job"]
    assert len(job["errors"]) == len(run.errors) > 0
    for error in job["errors"]:
        assert error.startswith(f"لم تُقرأ الصفحة، ردّ الموقع برمز الحالة {LRI}500{PDI} بعد {LRI}5{PDI} محاولات: "
                                f"{LRI}{imported.url}")
        assert "HTTP" not in error and "attempts" not in error
    # and why the run failed names the first of them in Arabic
    assert "ردّ الموقع برمز الحالة" in job["error"] and "attempts" not in job["error"]
    # and the English panel reads as stored
    assert _status(owner, "en")["job"]["errors"] == run.errors


@pytest.mark.django_db
def test_an_arabic_owner_reads_the_failed_page_in_the_failure_e_mail_in_arabic(imported, owner, monkeypatch):  # noqa: F811
    monkeypatch.setattr("importer.fetch.FIRST_BACKOFF", 0.01)
    owner.language = "ar"
    owner.save(update_fields=["language"])
    ImporterRun.objects.update(started_by=None)
    # given the producer's site answers 500 everywhere
    _down(imported)
    # when the scheduled crawl runs and fails
    assert tasks.auto_import_tick() == "started"
    # then the Owner's e-mail says why in Arabic, the status and the URL isolated left-to-right
    [mail] = OutboundEmail.objects.filter(to=owner.email, subject__contains="فشل التحديث المجدول")
    assert f"ردّ الموقع برمز الحالة {LRI}500{PDI} بعد {LRI}5{PDI} محاولات: {LRI}{imported.url}" in mail.text
    assert "HTTP 500" not in mail.text and "attempts" not in mail.text
    assert not _failure_mails().exists()  # no English subject either
