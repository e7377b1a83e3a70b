"""Staff roles: four permission groups, made by a data migration (docs/BACKOFFICE.md, "Roles").

A staff member can do only what their groups allow; ``is_staff`` alone opens the admin's
door but shows nothing. The groups are kept in step with :data:`ROLES` by migration
``backoffice/0003_i13_staff_roles`` (re-run :func:`sync_roles` after adding a permission).
"""

from __future__ import annotations

from typing import Any

#: Custom permissions (on the audit log model, so they live in one app): staff actions.
ACTIONS = {
    "decide_withdrawal": "Can approve or reject withdrawals",
    "reverse_journal": "Can reverse a journal",
    "cancel_table": "Can cancel and refund a table that has not started",
    "ban_user": "Can ban and unban players",
    "view_reports": "Can read the reports",
    "void_game": "Can ask for, or confirm, the void of a running game (R-MONEY-7)",
    "review_identity": "Can verify or reject a player's identity check (R-PROT-7)",
    "view_protection": "Can see players' limits, breaks, self-exclusions and identity checks",
}

_PLAYERS_AND_TABLES = [
    "accounts.view_user",
    "backoffice.view_protection",
    "games.view_tabletemplate",
    "games.view_table",
    "games.view_seat",
    "games.view_deal",
    "games.view_dealhand",
    "games.view_tableevent",
]
_LEDGER = [
    "wallet.view_account",
    "wallet.view_journal",
    "wallet.view_transfer",
    "wallet.view_entry",
]
_CASH = ["wallet.view_deposit", "wallet.view_withdrawal"]
_TOURNAMENTS = [
    "tournaments.view_tournament",
    "tournaments.view_registration",
    "tournaments.view_round",
    "tournaments.view_roundtable",
    "tournaments.view_staffrequest",
]

#: Group name -> permissions ("app.codename"); "*" is every permission there is.
ROLES: dict[str, list[str]] = {
    "support": _PLAYERS_AND_TABLES,
    "cashier": [
        "accounts.view_user",
        *_CASH,
        *_LEDGER,
        "backoffice.decide_withdrawal",
        "backoffice.view_reports",
        "backoffice.view_protection",
    ],
    "risk": [
        *_PLAYERS_AND_TABLES,
        *_CASH,
        *_LEDGER,
        "backoffice.view_auditlog",
        "backoffice.reverse_journal",
        "backoffice.cancel_table",
        "backoffice.ban_user",
        "backoffice.view_reports",
        "backoffice.void_game",
        "backoffice.view_voidrequest",
        "backoffice.review_identity",
        # The risk desk (backoffice.risk): fair-play cases and the refunds of their victims.
        "fairplay.view_case",
        "fairplay.act_on_case",
        "fairplay.confirm_refund",
        *_TOURNAMENTS,
    ],
    "admin": ["*"],
}


def sync_roles(apps: Any) -> None:
    """Create the groups and give each exactly its permissions (idempotent)."""
    from django.contrib.auth.management import create_permissions

    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, verbosity=0, apps=apps)
        config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    for name, wanted in ROLES.items():
        group, _ = group_model.objects.get_or_create(name=name)
        if wanted == ["*"]:
            permissions = list(permission_model.objects.all())
        else:
            permissions = []
            for full in wanted:
                app_label, codename = full.split(".")
                # An earlier migration runs this with today's ROLES: a permission whose model or
                # option a later migration adds is skipped here and given by that migration.
                found = permission_model.objects.filter(
                    content_type__app_label=app_label, codename=codename
                ).first()
                if found is not None:
                    permissions.append(found)
        group.permissions.set(permissions)
