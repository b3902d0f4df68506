"""`manage.py check --deploy` with production settings gives no warnings (issue 11)."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST_ONLY = ("SECURE_", "CSP_", "DJANGO_ALLOW_ASYNC_UNSAFE", "IMPORTER_ALLOW_PRIVATE_HOSTS", "PAYMENT_",
             "REDIS_URL", "DATABASE_URL")


def _deploy_check(tmp_path, **overrides):
    production = {
        "DJANGO_SETTINGS_MODULE": "shop.settings", "DATA_DIR": str(tmp_path), "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "shop.example",
        "CSRF_TRUSTED_ORIGINS": "https://shop.example", "SITE_URL": "https://shop.example",
        "SESSION_COOKIE_SECURE": "1", "SECURE_SSL_REDIRECT": "1", **overrides,
    }
    # the machine's environment less what the test run itself sets (never set in production)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(TEST_ONLY)}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT,
                            env={**environment, **production}, capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    return sorted(set(re.findall(r"\(([a-z_]+\.[EW]\d+)\)", output))), output


def test_production_settings_pass_the_deploy_check_without_a_warning(tmp_path):
    found, output = _deploy_check(tmp_path)
    assert found == [], output


def test_the_check_names_what_production_forgot(tmp_path):
    # the settings a production install must set are the ones the check asks for
    found, output = _deploy_check(tmp_path, SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0", DEBUG="1")
    assert found == ["security.W008", "security.W012", "security.W016", "security.W018"], output
