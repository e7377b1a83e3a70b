"""Fixtures of the back-office tests: the seeded ledger (``support.seed``), and a support
member signed in."""

from __future__ import annotations

import pytest

from tests.backoffice.support import seed
from tests.conftest import make_user


@pytest.fixture
def seeded(monkeypatch):
    return seed(monkeypatch)


@pytest.fixture
def support(client):
    """A member of the support role, signed in with ``client``."""
    member = make_user("helper", staff=True, role="support")
    client.force_login(member)
    return member
