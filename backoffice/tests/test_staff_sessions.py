"""The Owner's changes to a staff member hold at once: in their open dashboard session and on their token."""

import pytest
from django.test import Client

from accounts.models import AuthToken
from backoffice.auth import STAFF_TOKEN_LIFETIME

pytestmark = pytest.mark.django_db


def _signed_in(user):
    """A dashboard session of `user` and a bearer token of theirs, as the island and the API use them."""
    session = Client()
    session.force_login(user)
    _token, key = AuthToken.issue(user=user, lifetime=STAFF_TOKEN_LIFETIME)
    return session, {"HTTP_AUTHORIZATION": f"Bearer {key}"}


@pytest.mark.parametrize("change", [{"isActive": False}, {"password": "a brand new pass phrase 4"}, "delete"])
def test_deactivating_deleting_or_a_new_password_ends_a_staff_members_session_and_token(client, owner, manager,
                                                                                       change):
    # given a Manager signed in twice (dashboard session, bearer token)
    session, bearer = _signed_in(manager)
    assert session.get("/api/admin/settings").status_code == 200
    client.force_login(owner)
    # when the Owner deactivates them, deletes them or sets a new password
    if change == "delete":
        assert client.delete(f"/api/admin/users/admin/{manager.pk}").status_code == 204
    else:
        assert client.put(f"/api/admin/users/admin/{manager.pk}", change,
                          content_type="application/json").status_code == 200
    # then neither opens the admin API any more
    assert session.get("/api/admin/settings").status_code == 401
    assert Client().get("/api/admin/settings", **bearer).status_code == 401


def test_a_demoted_manager_loses_the_managers_rights_on_the_next_call(client, owner, manager):
    # given
    session, bearer = _signed_in(manager)
    client.force_login(owner)
    # when
    client.put(f"/api/admin/users/admin/{manager.pk}", {"role": "support"}, content_type="application/json")
    # then settings are closed to them at once, in the session and on the token
    assert session.get("/api/admin/settings").status_code == 403
    assert Client().get("/api/admin/settings", **bearer).status_code == 403


def test_a_reactivated_staff_member_signs_in_again_rather_than_resuming_an_old_session(client, owner, manager):
    # given a Manager's open session, then the Owner deactivating them (a lost laptop, a suspicion)
    session, bearer = _signed_in(manager)
    client.force_login(owner)
    client.put(f"/api/admin/users/admin/{manager.pk}", {"isActive": False}, content_type="application/json")
    # when the Owner lets them back in
    client.put(f"/api/admin/users/admin/{manager.pk}", {"isActive": True}, content_type="application/json")
    # then the session and token opened before the deactivation are over: only a new sign-in opens the dashboard
    assert session.get("/api/admin/settings").status_code == 401
    assert Client().get("/api/admin/settings", **bearer).status_code == 401
    fresh = Client()
    manager.refresh_from_db()  # a sign-in reads the account as it is now
    fresh.force_login(manager)
    assert fresh.get("/api/admin/settings").status_code == 200
