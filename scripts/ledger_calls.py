"""CPU a call of the ledger and the cashier takes in Python, one thread, one connection.

A benchmark, not a test: it prints figures (docs/PERFORMANCE.md, "The ledger"). It creates
players and money in the configured database, so point ``DATABASE_URL`` at a scratch one:

    DEBUG=0 MONEY_PLAY=1 DATABASE_URL=postgresql://.../scratch python scripts/ledger_calls.py [calls]
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from protection import kyc  # noqa: E402
from wallet import cashier, providers  # noqa: E402
from wallet import operations as ops  # noqa: E402
from wallet.errors import WalletError  # noqa: E402
from wallet.ledger import post, user_spec  # noqa: E402
from wallet.models import JournalKind  # noqa: E402


def main(calls: int) -> None:
    run = f"{os.getpid()}-{time.time_ns()}"
    users = get_user_model().objects
    alice = users.create_user(username=f"calls-a-{run}", password=None)
    bob = users.create_user(username=f"calls-b-{run}", password=None)
    staff = users.create_user(username=f"calls-s-{run}", password=None, is_staff=True)
    kyc.submit(alice, "pan", f"CALLS{os.getpid() % 10_000:04d}X", provider=kyc.SandboxKyc())
    kyc.decide(alice, True, by=None, reason="ledger_calls")
    provider = providers.SandboxProvider(confirms_itself=False)
    for player in (alice, bob):
        cashier.confirm_deposit(cashier.create_deposit(player, 1_00_000_00, provider=provider).provider_ref)

    def transfer(i: int) -> None:
        post(f"calls-{run}-{i}", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 1)])

    def join(i: int) -> None:  # a new pool every second join: its account is created
        ops.charge_entry_fee(alice.pk if i % 2 else bob.pk, f"pool:calls-{run}-{i // 2}", 100, capacity=6)

    def refused(i: int) -> None:
        with contextlib.suppress(WalletError):  # insufficient funds
            ops.charge_entry_fee(alice.pk, f"pool:calls-{run}-broke", 10**14, capacity=6)

    def deposit(i: int) -> None:
        cashier.confirm_deposit(cashier.create_deposit(alice, 100_00, provider=provider).provider_ref)

    def withdrawal(i: int) -> None:  # approved or rejected in turn
        requested = cashier.request_withdrawal(alice, 100_00)
        if i % 2:
            cashier.approve_withdrawal(requested.pk, staff, provider=provider)
        else:
            cashier.reject_withdrawal(requested.pk, staff, "ledger_calls")

    benches: list[tuple[str, Callable[[int], None]]] = [
        ("a transfer", transfer),
        ("its retry", transfer),
        ("a join", join),
        ("a refused join", refused),
        ("a deposit, created and confirmed", deposit),
        ("a withdrawal, requested and decided", withdrawal),
    ]
    for name, call in benches:
        for i in range(-50, 0):  # warm: statements prepared, accounts made
            call(i)
        # Eight blocks: on a shared machine the least CPU a block took is the steadiest figure.
        block = max(1, calls // 8)
        cpus, walls = [], []
        for start in range(0, 8 * block, block):
            cpu, wall = time.process_time(), time.perf_counter()
            for i in range(start, start + block):
                call(i)
            cpus.append(1e6 * (time.process_time() - cpu) / block)
            walls.append(1e6 * (time.perf_counter() - wall) / block)
        cpus.sort()
        walls.sort()
        print(
            f"{name:36s} {cpus[0]:5.0f} µs of CPU at least, {cpus[4]:5.0f} the median; "
            f"{walls[4]:5.0f} µs of wall time"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
