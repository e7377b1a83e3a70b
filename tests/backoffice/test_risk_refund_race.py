"""Real concurrency on PostgreSQL: two risk members confirming the same refund at once post one
journal; the other is told it was already confirmed, and the ledger stays balanced."""

from __future__ import annotations

import pytest

from backoffice import risk
from backoffice.models import AuditAction, AuditLog, RefundRequest
from fairplay.cases import open_case
from games.errors import GameError
from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401 (fixtures)
from tests.wallet.test_concurrency import race
from wallet.models import Journal, JournalKind
from wallet.reconcile import reconcile

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_members_confirming_one_refund_at_once_post_it_once():
    alice, carol = make_user("alice"), make_user("carol")
    fund(alice, 50000)
    rita = make_user("rita", staff=True, role="risk")
    confirmers = [make_user(f"risk{i}", staff=True, role="risk") for i in range(4)]
    case = open_case("chip_dumping", [alice], {}, score=5.0)
    request = risk.propose_refund(case.pk, [[alice.pk, carol.pk, 12345]], "carol's losses", rita)

    results = race(len(confirmers), lambda i: risk.confirm_refund(request.pk, "checked", confirmers[i]))

    posted = [r for r in results if isinstance(r, RefundRequest)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(posted) == 1, results
    assert [r.code for r in refused] == ["already_decided"] * 3
    assert Journal.objects.filter(kind=JournalKind.FAIRPLAY_REFUND).count() == 1
    assert (wallet(alice), wallet(carol)) == (50000 - 12345, 12345)
    assert AuditLog.objects.filter(action=AuditAction.CONFIRM_REFUND).count() == 1
    assert reconcile() == []
