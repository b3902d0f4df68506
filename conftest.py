"""Shared fixtures: named personas (healthchecks style) and clean shared state."""

import pytest
from django.core.cache import cache
from django.utils import translation

from accounts.models import Role, User
from catalog.suggest import index_reset
from catalog.views import delivery_estimates_forget

PASSWORD = "correct horse 42"


@pytest.fixture(autouse=True)
def _english_by_default():
    # a request served in Arabic leaves Arabic active in the thread; model
    # fields written afterwards (modeltranslation) would land in *_ar
    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def _clean_shared_cache():
    # store settings, rates and lockout counters live in the shared cache; the search
    # index is keyed by the catalogue version kept there
    cache.clear()
    index_reset()
    delivery_estimates_forget()
    yield
    cache.clear()
    index_reset()
    delivery_estimates_forget()


def _customer(username, first_name, **extra):
    return User.objects.create_user(
        username=username, email=username, password=PASSWORD, first_name=first_name, **extra
    )


def _staff(username, role):
    return User.objects.create_user(
        username=username, email=f"{username}@staff.example", password=PASSWORD,
        is_staff=True, role=role, first_name=username.title(),
    )


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def alice(db):
    """A customer."""
    return _customer("alice@example.com", "Alice", last_name="Hassan", phone="01012345678")


@pytest.fixture
def bob(db):
    """Another customer, who must never see alice's things."""
    return _customer("bob@example.com", "Bob", last_name="Fahmy")


@pytest.fixture
def owner(db):
    return _staff("owner", Role.OWNER)


@pytest.fixture
def manager(db):
    return _staff("manager", Role.MANAGER)


@pytest.fixture
def head_support(db):
    return _staff("headsupport", Role.HEAD_SUPPORT)


@pytest.fixture
def support(db):
    return _staff("support", Role.SUPPORT)
