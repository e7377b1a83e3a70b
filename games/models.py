"""Tables and their history: templates staff define, tables, seats, deals and the event log."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from games.engine.variants import DEALS_CHOICES, variant_named
from games.engine.variants import Variant as EngineVariant
from games.words import VARIANTS
from wallet.models import Currency

#: Bounds of a template's stakes in paise (settings of the same name override them): a pool or
#: deals table's entry fee, a points table's point value. The rake is always 0 to 25%.
DEFAULT_BOUNDS = {
    "TABLE_ENTRY_FEE_BOUNDS": (100, 10_000_00),  # ₹1 to ₹10,000
    "TABLE_POINT_VALUE_BOUNDS": (5, 100_00),  # 5 paise to ₹100 a point
}
MAX_RAKE_PERCENT = 25


def bounds(name: str) -> tuple[int, int]:
    low, high = getattr(settings, name, DEFAULT_BOUNDS[name])
    return int(low), int(high)


class Variant(models.TextChoices):
    """The variants, named as players read them (``games.words.VARIANTS``, the one mapping)."""

    POOL101 = "pool101", VARIANTS["pool101"]
    POOL201 = "pool201", VARIANTS["pool201"]
    POOL61 = "pool61", VARIANTS["pool61"]
    POINTS21 = "points21", VARIANTS["points21"]
    POINTS13 = "points13", VARIANTS["points13"]
    DEALS = "deals", VARIANTS["deals"]

    @property
    def rules(self) -> EngineVariant:
        """The engine's table of numbers for this variant."""
        return variant_named(self.value)


class TableTemplate(models.Model):
    """A kind of table staff offer: variant, stakes and timers. Players play_now on one."""

    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=16, choices=Variant.choices)
    currency = models.CharField(max_length=5, choices=Currency.choices, default=Currency.CHIPS)
    seats = models.PositiveSmallIntegerField(
        default=6, validators=[MinValueValidator(2), MaxValueValidator(6)]
    )
    entry_fee = models.PositiveIntegerField(default=0, help_text="Pool and deals: entry fee in paise.")
    point_value = models.PositiveIntegerField(
        default=0, help_text="Points (13 or 21 cards): paise per point."
    )
    deals = models.PositiveSmallIntegerField(
        default=0, help_text="Deals rummy: the number of deals, 2, 3 or 6 (best of). Other variants: 0."
    )
    rake_percent = models.PositiveSmallIntegerField(
        default=10, validators=[MaxValueValidator(MAX_RAKE_PERCENT)], help_text="0 to 25% of the pool."
    )
    move_seconds = models.PositiveSmallIntegerField(default=30)
    extra_seconds = models.PositiveSmallIntegerField(default=30)
    show_seconds = models.PositiveSmallIntegerField(default=30)
    rejoin_seconds = models.PositiveSmallIntegerField(default=20)
    start_countdown_seconds = models.PositiveSmallIntegerField(default=10)
    packs = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: the variant's default.")
    bots_allowed = models.BooleanField(default=False, help_text="Practice (CHIPS) tables only.")
    active = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(bots_allowed=False) | models.Q(currency="CHIPS"),
                name="bots_only_on_chips_tables",
            ),
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=6), name="template_seats_2_to_6"
            ),
            models.CheckConstraint(
                # 2 to 6: a tournament round plays as many deals as it seats players (R-TOUR-3);
                # the templates staff offer are best of 2, 3 or 6 (``clean``, R-DEALS-1).
                condition=models.Q(variant="deals", deals__gte=2, deals__lte=6)
                | (~models.Q(variant="deals") & models.Q(deals=0)),
                name="template_deals_only_for_deals_rummy",
            ),
            models.CheckConstraint(
                condition=models.Q(rake_percent__gte=0, rake_percent__lte=MAX_RAKE_PERCENT),
                name="template_rake_0_to_25",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Stakes within the configured bounds; variant and currency fixed once tables exist
        (a table keeps the rest of its settings itself, R-MONEY-6)."""
        errors: dict[str, Any] = {}
        if not 0 <= (self.rake_percent or 0) <= MAX_RAKE_PERCENT:
            errors["rake_percent"] = f"The rake is 0 to {MAX_RAKE_PERCENT}%."
        rules = variant_named(self.variant) if self.variant in Variant.values else None
        if rules is not None and rules.is_points:
            low, high = bounds("TABLE_POINT_VALUE_BOUNDS")
            if not low <= (self.point_value or 0) <= high:
                errors["point_value"] = f"A point is worth {low} to {high} paise."
        elif rules is not None:
            low, high = bounds("TABLE_ENTRY_FEE_BOUNDS")
            if not low <= (self.entry_fee or 0) <= high:
                errors["entry_fee"] = f"The entry fee is {low} to {high} paise."
        if rules is not None and rules.is_deals and self.deals not in DEALS_CHOICES:
            errors["deals"] = "Deals rummy is best of 2, 3 or 6 deals."
        if rules is not None and not rules.is_deals and self.deals:
            errors["deals"] = "Only deals rummy has a number of deals."
        if self.pk is not None:
            before = TableTemplate.objects.filter(pk=self.pk).values("variant", "currency").first()
            if before and self.tables.exists():
                for field in ("variant", "currency"):
                    if before[field] != getattr(self, field):
                        errors[field] = "Tables were opened with this template: make a new template instead."
        if errors:
            raise ValidationError(errors)


class TableStatus(models.TextChoices):
    WAITING = "waiting"
    STARTING = "starting"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Table(models.Model):
    """One table; ``state`` is the engine's TableState as JSON, ``version`` its last event."""

    # Indexed by (template, status) below: an index of its own would only slow every move.
    template = models.ForeignKey(
        TableTemplate, on_delete=models.PROTECT, related_name="tables", db_index=False
    )
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.WAITING)
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField()
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_version = models.PositiveIntegerField(null=True, blank=True)
    private = models.BooleanField(
        default=False, help_text="Only players with the invitation may see or join."
    )
    invite_code = models.CharField(
        max_length=12, blank=True, default="", help_text="A private table's invitation code."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["template", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["invite_code"], condition=~models.Q(invite_code=""), name="one_table_per_invite_code"
            )
        ]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.template.name}, {self.status})"

    @property
    def pool_ref(self) -> str:
        return f"pool:table:{self.pk}"

    @property
    def table_ref(self) -> str:
        return f"table:{self.pk}"


class SeatStatus(models.TextChoices):
    SEATED = "seated"
    IN = "in"
    ELIMINATED = "eliminated"
    LEFT = "left"


class Seat(models.Model):
    """One sitting of a user at a table; a user who leaves and comes back gets a new Seat."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=SeatStatus.choices, default=SeatStatus.SEATED)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    #: Open websocket connections of this player to the table (games.presence); 0: offline.
    connections = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(left_at__isnull=True),
                name="one_open_seat_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of table {self.table_id}: user {self.user_id}"

    @property
    def seat_ref(self) -> str:
        return f"seat:{self.pk}"


class Deal(models.Model):
    """One deal's history: the commitment before, the seed and every hand's end after (R-DEAL-5)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    commitment = models.CharField(max_length=64)
    seed = models.CharField(max_length=128, blank=True, help_text="Revealed once the deal is over.")
    players = models.JSONField(default=list)
    dealer = models.CharField(max_length=40, blank=True)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="one_deal_number_per_table")]

    def __str__(self) -> str:
        return f"deal {self.number} of table {self.table_id}"


class DealHand(models.Model):
    """Each player's final hand, grouping and score in a finished deal."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="hands")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    outcome = models.CharField(max_length=20)
    score = models.IntegerField()
    hand = models.JSONField()
    grouping = models.JSONField(null=True, blank=True)
    net = models.IntegerField(null=True, blank=True, help_text="21-card: the deal total in points.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deal", "user"], name="one_hand_per_player_per_deal")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.deal}"


class Visibility(models.TextChoices):
    EVERYONE = "everyone"
    USER = "user"


class TableEvent(models.Model):
    """Append-only log: one row per version of a table. Private events name their one viewer."""

    # Indexed by the unique (table, version): a second index would only slow every event's insert.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events", db_index=False)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.EVERYONE)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="one_event_per_table_version")
        ]
        ordering = ["table", "version"]

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version} {self.type}"


class ActionReceipt(models.Model):
    """The answer given to one action a websocket client sent, by the id the client chose.

    A repeated id gets this answer again instead of being applied twice, whichever server
    process the client reconnected to. Written in the transaction of the action itself.
    """

    # Indexed by the unique (table, user, client id): a second index would only slow every action.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    client_id = models.CharField(max_length=64)
    type = models.CharField(max_length=20)
    version = models.PositiveIntegerField(null=True, blank=True, help_text="The table's version after it.")
    error = models.CharField(max_length=40, blank=True, help_text="The refusal's code, when refused.")
    message = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "user", "client_id"], name="one_receipt_per_action_id")
        ]

    def __str__(self) -> str:
        return f"{self.type} {self.client_id!r} of user {self.user_id} at table {self.table_id}"

    def answer(self) -> dict[str, object]:
        """The frame the client got for this id."""
        if self.error:
            return {"error": self.error, "message": self.message, "id": self.client_id}
        return {"ack": self.client_id, "v": self.version}
