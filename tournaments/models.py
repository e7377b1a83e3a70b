"""Tournaments, their registrations, rounds and round tables, and the staff's four-eyes requests.

Everything R-TOUR-1 names is a column of :class:`Tournament`, written once at its creation
(R-MONEY-6): nothing in :mod:`tournaments.services` changes it afterwards. A round's tables are
ordinary ``games.Table`` rows (free deals-rummy tables); :class:`RoundTable` links each one to
its round from this side, since the games cannot know of the tournaments.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from games.four_eyes import WAITING, SecondStaffRequest
from tournaments.words import REGISTRATION_STATUSES, STAFF_REQUESTS, STATUSES
from wallet.models import Currency


class Tournament(models.Model):
    """One knock-out tournament (R-TOUR-1): its settings, fixed at creation, and where it is."""

    name = models.CharField(max_length=80)
    currency = models.CharField(max_length=5, choices=Currency.choices, default=Currency.CHIPS)
    buy_in = models.PositiveBigIntegerField(default=0, help_text="Paise (or hundredths of a chip); 0: free.")
    rake_percent = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(25)])
    guarantee = models.PositiveBigIntegerField(
        default=0, help_text="The least prize pool, paise; the house pays any difference (overlay)."
    )
    min_players = models.PositiveIntegerField(validators=[MinValueValidator(2)])
    max_players = models.PositiveIntegerField(validators=[MinValueValidator(2)])
    table_size = models.PositiveSmallIntegerField(validators=[MinValueValidator(2), MaxValueValidator(6)])
    qualify = models.PositiveSmallIntegerField(help_text="Players who go through from each table.")
    prize_bps = models.JSONField(
        help_text="Each paid place's share of the pool, in basis points, first first."
    )
    start_at = models.DateTimeField(null=True, blank=True, help_text="Empty: sit and go (starts when full).")
    registration_opens_at = models.DateTimeField(null=True, blank=True, help_text="Empty: at once.")
    bots_allowed = models.BooleanField(default=False, help_text="Practice tournaments only.")
    move_seconds = models.PositiveSmallIntegerField(default=30)
    template = models.ForeignKey(
        "games.TableTemplate",
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The free deals-rummy tables its rounds are played at (not offered in the lobby).",
    )

    status = models.CharField(max_length=12, choices=list(STATUSES.items()), default="announced")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=300, blank=True)
    #: The money as paid at the finish (R-TOUR-5): rake kept, overlay added, pool paid out.
    rake = models.PositiveBigIntegerField(default=0)
    overlay = models.PositiveBigIntegerField(default=0)
    pool = models.PositiveBigIntegerField(default=0)
    #: Bumped by every change, so a page can tell it has the latest.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["status", "start_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=6), name="tournament_tables_of_2_to_6"
            ),
            models.CheckConstraint(
                condition=models.Q(min_players__gte=2, max_players__gte=models.F("min_players")),
                name="tournament_min_max_players",
            ),
            models.CheckConstraint(
                condition=models.Q(bots_allowed=False) | models.Q(currency="CHIPS"),
                name="tournament_bots_only_for_chips",
            ),
        ]

    def __str__(self) -> str:
        return f"tournament {self.pk} ({self.name}, {self.status})"

    @property
    def sit_and_go(self) -> bool:
        return self.start_at is None

    @property
    def pool_ref(self) -> str:
        """The ledger account holding its buy-ins until the prizes (``pool:tournament:<id>``)."""
        return f"pool:tournament:{self.pk}"

    @property
    def ref(self) -> str:
        return f"tournament:{self.pk}"


class Registration(models.Model):
    """One player's entry: a new row for each registration (one unregistered stays as it was)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="registrations")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(
        max_length=12, choices=list(REGISTRATION_STATUSES.items()), default="registered"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    unregistered_at = models.DateTimeField(null=True, blank=True)
    buy_in = models.PositiveBigIntegerField(default=0, help_text="What was paid, paise.")
    #: Set as the tournament goes on: the round the player went out in (None while in), their
    #: game chips at the end of that round, whether they won the final; at the finish their
    #: rank (1 first) and prize.
    knocked_out_round = models.PositiveSmallIntegerField(null=True, blank=True)
    chips = models.IntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    rank = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(status="registered"),
                name="one_registration_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "rank"],
                condition=models.Q(rank__isnull=False),
                name="one_player_per_rank",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in tournament {self.tournament_id} ({self.status})"


class Round(models.Model):
    """One round: its players seated at random (R-TOUR-3) from ``seed``, revealed at once (the
    seating is public as soon as it is made), so anyone can re-derive it
    (``tournaments.engine.seat``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    players = models.PositiveIntegerField()
    final = models.BooleanField(default=False)
    seed = models.CharField(max_length=64)
    apart = models.JSONField(default=list, help_text="The pairs kept apart, as fair play answered.")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number_per_tournament")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"


class RoundTable(models.Model):
    """A round's table: the ``games.Table`` it is played at, who sat there, how many go
    through, and once it is over who did (most chips first) and everyone's chips."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="tables")
    table = models.OneToOneField(
        "games.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    players = models.JSONField(help_text="The players' user ids, as seated.")
    qualify = models.PositiveSmallIntegerField()
    qualified = models.JSONField(default=list)
    chips = models.JSONField(default=dict, help_text="Each player's game chips at the end.")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "id"]

    def __str__(self) -> str:
        return f"table {self.table_id} of {self.round}"


class StaffRequest(SecondStaffRequest):
    """Four eyes (R-MONEY-7, R-TOUR-6), a kind of :class:`games.four_eyes.SecondStaffRequest`:
    one staff member asks to cancel or void a tournament (``step``), with the reason the players
    will read; a different one confirms, and only then is it done. Until then the asker may
    withdraw it, or a different member decline it, each with a reason: nothing is done, and a
    new request for the tournament may be asked."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="staff_requests")
    #: What is asked: ``cancel`` (not yet running) or ``void`` (running); a ``tournaments.engine.Step``.
    step = models.CharField(max_length=8, choices=list(STAFF_REQUESTS.items()), db_column="what")
    reason = models.TextField(help_text="Why, as the players will read it.")

    what, of = "cancel or void", "tournament"
    # The audit actions are backoffice.models.AuditAction's (the tournaments cannot import it).
    withdraw_action, decline_action = "withdraw_tournament_end", "decline_tournament_end"

    class Meta:
        ordering = ["requested_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=WAITING,
                name="one_open_request_per_tournament",
            )
        ]

    def __str__(self) -> str:
        state = self.state_words(STATUSES["cancelled" if self.step == "cancel" else "voided"].lower())
        return f"{self.step} of tournament {self.tournament_id}: {state}"

    @property
    def target(self) -> str:
        return f"tournament:{self.tournament_id}"
