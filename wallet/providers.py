"""Payment providers: the gateway a deposit is paid through and a payout is sent by.

Only the sandbox exists (development, tests and demos); a real gateway implements
:class:`PaymentProvider` and is named by ``WALLET_PAYMENT_PROVIDER``. Its ``send_payout`` must
be idempotent per withdrawal (real gateways take an idempotency key for this): ``wallet.payouts``
sends again a payout whose answer it never recorded.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings

from wallet.errors import Code, WalletError
from wallet.models import Withdrawal


class PaymentProvider(Protocol):
    """A payment gateway: starts deposits (the user pays there) and sends payouts."""

    name: str

    def start_deposit(self, user_id: int, amount: int, currency: str) -> str:
        """Open a payment at the provider; return its reference (confirmed later by callback)."""
        ...

    def send_payout(self, withdrawal: Withdrawal) -> str:
        """Send an approved withdrawal to the user's bank; return the provider's reference.

        Called after the approval has committed, with no lock held, and called again for the
        same withdrawal when its answer was not recorded (a failure, a process that died): the
        same withdrawal must be paid once (its id is the payout's idempotency key)."""
        ...


@dataclass
class SandboxProvider:
    """A provider for development and tests: no real gateway. A deposit's reference is random, a
    payout's is its withdrawal's (sent twice, paid once). It confirms each deposit itself at
    once, as a real provider's callback would later; it works only while ``PAYMENTS_SANDBOX``
    is on (default: DEBUG)."""

    name: str = "sandbox"
    confirms_itself: bool = True

    def start_deposit(self, user_id: int, amount: int, currency: str) -> str:
        return f"sandbox-dep-{uuid.uuid4().hex}"

    def send_payout(self, withdrawal: Withdrawal) -> str:
        return f"sandbox-pay-{withdrawal.pk}"  # one payout a withdrawal, however often it is sent


def get_provider(name: str | None = None) -> PaymentProvider:
    """The provider called ``name`` (setting ``WALLET_PAYMENT_PROVIDER``, default the sandbox)."""
    name = name or getattr(settings, "WALLET_PAYMENT_PROVIDER", "sandbox")
    if name == "sandbox":
        if not sandbox_on():
            raise WalletError(
                Code.BAD_REQUEST, "Payments are not available: no payment provider is set up (sandbox off)."
            )
        return SandboxProvider()
    raise WalletError(Code.BAD_REQUEST, f"Unknown payment provider {name!r}.")


def sandbox_on() -> bool:
    """``PAYMENTS_SANDBOX``: play money through the sandbox provider (default: DEBUG)."""
    return bool(getattr(settings, "PAYMENTS_SANDBOX", settings.DEBUG))
