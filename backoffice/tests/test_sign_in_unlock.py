"""The Owner sees sign-in lockouts and lifts them from the dashboard; axes_reset works on every setup."""

import pytest
from django.core.management import call_command

from backoffice.models import AuditEntry

pytestmark = pytest.mark.django_db


def _lock(client, email, address="203.0.113.9"):
    for _ in range(5):
        client.post("/login", {"email": email, "password": "wrong-guess-1"}, REMOTE_ADDR=address)


def test_the_owner_sees_a_locked_pair_and_unlocks_it(client, owner, alice, password):
    # given alice locked out from her address
    _lock(client, "alice@example.com")
    assert client.post("/login", {"email": "alice@example.com", "password": password},
                       REMOTE_ADDR="203.0.113.9").status_code == 429
    client.force_login(owner)
    # when the Owner lists lockouts and unlocks her
    listed = client.get("/api/admin/lockouts").json()
    unlocked = client.post("/api/admin/lockouts/unlock", {"username": "Alice@Example.com"},
                           content_type="application/json")
    client.logout()
    # then
    assert [(row["username"], row["ipAddress"]) for row in listed] == [("alice@example.com", "203.0.113.9")]
    assert listed[0]["failures"] >= 5
    assert unlocked.status_code == 200 and unlocked.json()["cleared"] >= 1
    assert client.post("/login", {"email": "alice@example.com", "password": password},
                       REMOTE_ADDR="203.0.113.9").status_code == 302
    assert AuditEntry.objects.filter(action="sign_in.unlock", details="Alice@Example.com").exists()


def test_a_manager_cannot_unlock(client, manager, alice):
    _lock(client, "alice@example.com")
    client.force_login(manager)
    response = client.post("/api/admin/lockouts/unlock", {"username": "alice@example.com"},
                           content_type="application/json")
    assert response.status_code == 403


def test_unlock_needs_a_username(client, owner):
    client.force_login(owner)
    response = client.post("/api/admin/lockouts/unlock", {}, content_type="application/json")
    assert response.status_code == 400 and response.json()["field"] == "username"


def test_axes_reset_clears_every_lockout_with_the_configured_handler(client, alice, password):
    # given a lockout recorded by the handler the settings choose (with or without Redis)
    _lock(client, "alice@example.com")
    # when
    call_command("axes_reset", verbosity=0)
    # then
    assert client.post("/login", {"email": "alice@example.com", "password": password},
                       REMOTE_ADDR="203.0.113.9").status_code == 302
