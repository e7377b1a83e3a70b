"""What players and staff read for the tournaments' internal names (the one mapping for this app)."""

from __future__ import annotations

STATUSES = {
    "announced": "Announced",
    "registering": "Registering",
    "running": "Running",
    "finished": "Finished",
    "cancelled": "Cancelled",
    "voided": "Voided",
}

REGISTRATION_STATUSES = {
    "registered": "Registered",
    "unregistered": "Unregistered",
    "refunded": "Buy-in given back",
}

CURRENCIES = {
    "CHIPS": "Practice chips",
    "INR": "Rupees",
}

STAFF_REQUESTS = {
    "cancel": "Cancel before the start",
    "void": "Void while running",
}

#: The reasons players read when a tournament ends without a winner.
REASONS = {
    "short": "fewer players registered than the tournament needs: it is cancelled, every buy-in given back",
}


def status_words(status: str) -> str:
    return STATUSES.get(status, status.replace("_", " ").capitalize())


def start_words(sit_and_go: bool) -> str:
    return "Starts when full" if sit_and_go else "Scheduled start"


#: A tournament with no buy-in.
FREE = "Free"
