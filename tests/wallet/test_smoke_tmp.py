import pytest
from wallet import operations as ops
from wallet.reconcile import reconcile
from tests.wallet.support import fund, wallet, pool


@pytest.mark.django_db
def test_smoke(alice, bob, carol):
    for u in (alice, bob, carol):
        fund(u, 10000)
    for u in (alice, bob, carol):
        ops.charge_entry_fee(u, "pool:1", 2500, capacity=3, variant="101")
    j = ops.pay_winner("pool:1", bob, rake_percent=10, variant="101")
    assert wallet(bob) == 7500 + 6750
    assert pool("pool:1") == 0
    assert reconcile() == []
    j2 = ops.pay_winner("pool:1", bob, rake_percent=10, variant="101")
    assert j2.pk == j.pk
