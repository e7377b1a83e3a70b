"""What the API reads and writes. Money is always an integer number of paise (hundredths for chips)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from rest_framework import serializers

from accounts.text import visible
from backoffice.reports import MAX_DAYS, REPORTS, default_range
from wallet.amounts import MAX_PAISE
from wallet.models import Currency

# DRF's serializers are generic only to the type checker (djangorestframework-stubs).
if TYPE_CHECKING:
    Serializer = serializers.Serializer[Any]
else:
    Serializer = serializers.Serializer


class TextField(serializers.CharField):
    """A JSON string, never a number or bool turned into one (a reason of 42 is no reason)."""

    default_error_messages = {"not_text": "Send a JSON string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_text")
        return str(super().to_internal_value(data))


class PaiseField(serializers.IntegerField):
    """An amount in paise: a JSON integer from 1 to MAX_PAISE. Never a float, a bool or a
    string (not even of digits: "¹²³" and "１２３" are digits to Python)."""

    default_error_messages = {
        "not_paise": "Amounts are whole paise: send a JSON integer, e.g. 2500 for ₹25.00.",
        "out_of_range": f"Amounts are 1 to {MAX_PAISE} paise.",
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=MAX_PAISE, **kwargs)  # for the schema

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("not_paise")
        if not 1 <= data <= MAX_PAISE:
            self.fail("out_of_range")
        return data


class ErrorSerializer(Serializer):
    error = serializers.CharField(help_text="A machine-readable code, e.g. insufficient_funds, not_found.")
    message = serializers.CharField(help_text="What went wrong, in plain words.")
    field_errors = serializers.DictField(
        required=False,
        help_text="Validation errors only: the messages per field.",
        child=serializers.JSONField(),
    )


# --- auth -----------------------------------------------------------------------------------


class CredentialsSerializer(Serializer):
    username = TextField(max_length=150)
    password = TextField(style={"input_type": "password"}, trim_whitespace=False, max_length=1024)
    totp = TextField(
        required=False, max_length=16, help_text="Staff: the current code of their authenticator app."
    )


class SignUpSerializer(Serializer):
    username = TextField(max_length=150)
    password = TextField(style={"input_type": "password"}, trim_whitespace=False, max_length=1024)
    date_of_birth = serializers.DateField(help_text="YYYY-MM-DD; players must be 18 or older.")
    display_name = TextField(
        required=False,
        max_length=40,
        help_text="The name the site greets you by. At the tables everyone sees your username.",
    )
    region = TextField(max_length=6, help_text='Where the player lives: an ISO 3166-2 code, e.g. "IN-KA".')


class SignedUpSerializer(Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField(help_text='Send as "Authorization: Token <token>".')


class TokenSerializer(Serializer):
    token = serializers.CharField(help_text='Send as "Authorization: Token <token>".')


# --- lobby and tables -----------------------------------------------------------------------


class OpenTableSerializer(Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    seats_taken = serializers.IntegerField()


class LobbyTemplateSerializer(Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    variant = serializers.CharField()
    variant_words = serializers.CharField(help_text='The variant as players read it: "101 Pool", "Deals".')
    format = serializers.ChoiceField(
        choices=["points", "pool", "deals", "points21"],
        help_text="The lobby's tab: 13-card points, pool (101, 201, 61), deals, or 21-card points.",
    )
    currency = serializers.CharField()
    seats = serializers.IntegerField()
    entry_fee = serializers.IntegerField(help_text="Pool and deals: the entry fee in paise.")
    point_value = serializers.IntegerField(help_text="Points (13 or 21 cards): paise per point.")
    deals = serializers.IntegerField(help_text="Deals rummy: the number of deals (best of); else 0.")
    rake_percent = serializers.IntegerField()
    bots_allowed = serializers.BooleanField()
    stake = serializers.IntegerField(
        help_text="What the lobby sorts by, low to high: the point value (points) or the entry fee, in paise."
    )
    stake_words = serializers.CharField(help_text='"₹1.00 a point", "₹25.00 entry · best of 2".')
    playing = serializers.IntegerField(help_text="Players in a game at the template's public tables.")
    waiting = serializers.IntegerField(help_text="Players seated at its public tables that have not started.")
    who_words = serializers.CharField(help_text='The players in words: "4 playing · 1 waiting".')
    open_tables = OpenTableSerializer(many=True, help_text="Tables you may join (at most 20), oldest first.")


class TablePlayerSerializer(Serializer):
    player = serializers.CharField(help_text="The player's user id, as a string.")
    name = serializers.CharField()
    connected = serializers.BooleanField(help_text="Has a websocket open to the table (a bot always).")
    status = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)
    drops_left = serializers.IntegerField(allow_null=True)
    auto_drop = serializers.BooleanField()
    leaving = serializers.BooleanField(help_text="Leaves when the running deal ends.")
    rejoins = serializers.IntegerField()
    held = serializers.IntegerField(allow_null=True, help_text="Points tables: paise held on the seat.")
    chips = serializers.IntegerField(
        allow_null=True, help_text="Deals rummy: the player's game chips (a score, never money)."
    )


class SplitOfferSerializer(Serializer):
    players = serializers.ListField(child=serializers.CharField())
    amounts = serializers.ListField(child=serializers.IntegerField())
    accepted = serializers.ListField(child=serializers.CharField())
    drops_left = serializers.ListField(child=serializers.IntegerField())
    why = serializers.CharField(help_text="How the amounts were worked out, in words.")
    each = serializers.ListField(child=serializers.CharField(), help_text="Each player's amount, in words.")


class TableViewSerializer(Serializer):
    """The table as the requesting user may see it: their own hand only (a spectator sees none).
    The same object, field for field, as the websocket snapshot's ``table`` (docs/PROTOCOL.md)."""

    table = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    template = serializers.CharField()
    currency = serializers.CharField(help_text="INR (money) or CHIPS (practice chips).")
    variant = serializers.CharField()
    phase = serializers.CharField()
    waiting_for = serializers.CharField(allow_blank=True)
    deadline_ms = serializers.IntegerField(allow_null=True)
    now_ms = serializers.IntegerField()
    deal_number = serializers.IntegerField()
    deals = serializers.IntegerField(allow_null=True, help_text="Deals rummy: the deals in the game.")
    tie_break = serializers.ListField(
        child=serializers.CharField(),
        help_text="Deals rummy: the players tied at the cut, who play the tie-breaker deal.",
    )
    qualified = serializers.ListField(
        child=serializers.CharField(),
        help_text="Deals rummy, once over: the players the game decided, most chips first.",
    )
    players = TablePlayerSerializer(many=True)
    prize_pool = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(
        allow_null=True, help_text="What the winner is paid: the prize pool less the rake (pool and deals)."
    )
    rejoin_open = serializers.ListField(child=serializers.CharField())
    split_offer = SplitOfferSerializer(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    payouts = serializers.ListField(child=serializers.ListField(child=serializers.JSONField()))
    deal = serializers.JSONField(allow_null=True, help_text="The running deal as this user sees it.")
    last_result = serializers.JSONField(required=False, help_text="The last deal's result, once it is over.")
    verify = serializers.JSONField(
        required=False, help_text="With the last result: what re-derives its shuffle (R-DEAL-5)."
    )
    invite_code = serializers.CharField(
        required=False, help_text="A private table you opened: the code your friends join with."
    )


class TableEventSerializer(Serializer):
    v = serializers.IntegerField()
    type = serializers.CharField(required=False, help_text="Missing for an event meant for someone else.")
    # A field named ``data`` shadows Serializer.data for the type checker only: it is the
    # event's payload on the wire (docs/PROTOCOL.md), so the name stays.
    data = serializers.JSONField(required=False)  # type: ignore[assignment]


# --- wallet ---------------------------------------------------------------------------------


class BalanceSerializer(Serializer):
    currency = serializers.ChoiceField(choices=Currency.choices)
    balance = serializers.IntegerField()
    withdrawals_held = serializers.IntegerField(help_text="Requested withdrawals waiting for approval.")


class WalletSerializer(Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    balances = BalanceSerializer(many=True)


class StatementLineSerializer(Serializer):
    created_at = serializers.DateTimeField()
    key = serializers.CharField()
    kind = serializers.CharField()
    amount = serializers.IntegerField(help_text="Signed paise: negative when money left the wallet.")
    balance = serializers.IntegerField(help_text="The balance after this line.")
    version = serializers.IntegerField()


class StatementSerializer(Serializer):
    currency = serializers.CharField()
    balance = serializers.IntegerField()
    lines = StatementLineSerializer(many=True)


class StaffUserWalletSerializer(WalletSerializer):
    statement = StatementLineSerializer(many=True)


class DepositSerializer(Serializer):
    id = serializers.IntegerField()
    amount = serializers.IntegerField()
    currency = serializers.CharField()
    status = serializers.CharField()
    provider = serializers.CharField()
    provider_ref = serializers.CharField()
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class AmountSerializer(Serializer):
    amount = PaiseField(help_text="Paise.")


class WithdrawalRequestSerializer(AmountSerializer):
    request_key = TextField(
        required=False, max_length=100, help_text="Optional: a repeated key returns the first request."
    )


class DepositRequestSerializer(AmountSerializer):
    instrument = TextField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="The sandbox's stand-in for what a real provider reports: the UPI id or card that pays.",
    )


class WithdrawalSerializer(Serializer):
    id = serializers.IntegerField()
    user = serializers.IntegerField(source="user_id")
    amount = serializers.IntegerField()
    currency = serializers.CharField()
    status = serializers.CharField()
    payout_pending = serializers.BooleanField(
        help_text="Paid out of the wallet, not yet taken by the payment provider (sent again every minute)."
    )
    reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class LimitSerializer(Serializer):
    kind = serializers.CharField(help_text="deposit_day, deposit_week, deposit_month or stake_day.")
    amount = serializers.IntegerField(allow_null=True, help_text="In force now, paise; null: no limit.")
    pending = serializers.IntegerField(allow_null=True, help_text="A raise or removal waiting, paise.")
    pending_at = serializers.DateTimeField(allow_null=True, help_text="When the waiting change takes effect.")
    left = serializers.IntegerField(allow_null=True, help_text="What the period leaves, paise.")


class ProtectionSerializer(Serializer):
    money_play = serializers.BooleanField(help_text="May you play for money now?")
    money_play_refused = serializers.CharField(allow_null=True, help_text="Why not, in words.")
    region = serializers.CharField()
    limits = LimitSerializer(many=True)
    exclusion = serializers.CharField(allow_null=True, help_text="break or self_exclusion in force.")
    exclusion_ends_at = serializers.DateTimeField(
        allow_null=True, help_text="Null with an exclusion: for good."
    )
    identity = serializers.CharField(help_text="unverified, pending, verified or rejected.")
    identity_document = serializers.CharField(allow_blank=True, help_text="Its type and last four only.")


class LimitRequestSerializer(Serializer):
    kind = TextField(max_length=20, help_text="deposit_day, deposit_week, deposit_month or stake_day.")
    amount = PaiseField(
        allow_null=True, help_text="Paise; null: no limit. Lower: at once; higher: after cooling off."
    )


class BreakRequestSerializer(Serializer):
    choice = TextField(
        max_length=20,
        help_text="break_1d, break_7d, break_30d, exclude_6m or exclude_forever. Cannot be undone.",
    )


class IdentityRequestSerializer(Serializer):
    document_type = TextField(max_length=20, help_text="pan, aadhaar, passport, driving_licence or voter_id.")
    number = TextField(max_length=40, help_text="Checked by the provider; only its last four are kept.")


class TopUpSerializer(Serializer):
    journal = serializers.CharField()
    balance = serializers.IntegerField(help_text="Chips balance after the top-up, in hundredths.")


# --- history --------------------------------------------------------------------------------


class HistoryDealSerializer(Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    score = serializers.IntegerField(allow_null=True, help_text="Your score in the deal, once over.")
    outcome = serializers.CharField(allow_null=True)


class HistoryGameSerializer(Serializer):
    table = serializers.IntegerField()
    template = serializers.CharField()
    variant = serializers.CharField()
    currency = serializers.CharField()
    status = serializers.CharField()
    joined_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    payouts = serializers.ListField(child=serializers.ListField(child=serializers.JSONField()))
    deals = HistoryDealSerializer(many=True)


class DealHandSerializer(Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    outcome = serializers.CharField()
    score = serializers.IntegerField()
    net = serializers.IntegerField(allow_null=True)
    hand = serializers.ListField(child=serializers.CharField())
    grouping = serializers.JSONField(allow_null=True)


class DealDetailSerializer(Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    commitment = serializers.CharField()
    seed = serializers.CharField(allow_blank=True, help_text="Revealed once the deal is over.")
    verified = serializers.BooleanField(allow_null=True, help_text="sha256(seed) == commitment; null before.")
    winner = serializers.CharField(allow_null=True)
    hands = DealHandSerializer(many=True)
    events = TableEventSerializer(many=True)


# --- staff ----------------------------------------------------------------------------------


class ReasonSerializer(Serializer):
    reason = TextField(max_length=500, help_text="Why: it goes into the audit log.")

    def validate_reason(self, value: str) -> str:
        """Something a reader can see: not only spaces or zero-width characters."""
        reason = visible(value)
        if not reason:
            raise serializers.ValidationError("Say why: a reason needs visible words.")
        return reason


class JournalTransferSerializer(Serializer):
    debit = serializers.CharField()
    credit = serializers.CharField()
    amount = serializers.IntegerField()


class JournalSerializer(Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    kind = serializers.CharField()
    currency = serializers.CharField()
    created_at = serializers.DateTimeField()
    meta = serializers.JSONField()
    reverses = serializers.IntegerField(allow_null=True)
    reversed_by = serializers.IntegerField(allow_null=True)
    transfers = JournalTransferSerializer(many=True)


class ReversalRequestSerializer(Serializer):
    request = serializers.IntegerField(help_text="The four-eyes reversal request.")
    journal = serializers.IntegerField()
    status = serializers.CharField(
        help_text='"waiting": nothing has moved yet; "withdrawn" or "declined": closed, nothing moved.'
    )
    message = serializers.CharField()


class CancelledTableSerializer(Serializer):
    table = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()


class ReportColumnSerializer(Serializer):
    key = serializers.CharField()
    # ``label`` shadows Field.label for the type checker only; it is the report column's name.
    label = serializers.CharField()  # type: ignore[assignment]
    money = serializers.BooleanField()


class ReportBreakdownSerializer(Serializer):
    title = serializers.CharField()
    rows = serializers.ListField(child=serializers.DictField(child=serializers.JSONField()))


class ReportSerializer(Serializer):
    report = serializers.ChoiceField(choices=list(REPORTS))
    title = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()
    currency = serializers.CharField()
    columns = ReportColumnSerializer(many=True)
    rows = serializers.ListField(
        child=serializers.DictField(child=serializers.JSONField()),
        help_text="One object per row, keyed by column.",
    )
    totals = serializers.DictField(child=serializers.JSONField())
    breakdowns = ReportBreakdownSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField(allow_blank=True, help_text='Reconciliation only: "ok" or "problems".')


class ReportQuerySerializer(Serializer):
    start = serializers.DateField(required=False, help_text="Default: 29 days before the end.")
    end = serializers.DateField(required=False, help_text="Default: today.")
    currency = serializers.ChoiceField(choices=Currency.choices, required=False, default=Currency.INR)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = default_range()
        end = attrs.get("end") or end
        start = attrs.get("start") or end - timedelta(days=29)
        if start > end:
            raise serializers.ValidationError("The start date must not be after the end date.")
        if (end - start).days >= MAX_DAYS:
            raise serializers.ValidationError(f"Choose at most {MAX_DAYS} days.")
        return {**attrs, "start": start, "end": end}


# --- tournaments ------------------------------------------------------------------------------


class AmountWordsSerializer(Serializer):
    amount = serializers.IntegerField(help_text="Paise (hundredths of a chip).")
    words = serializers.CharField(help_text='As players read it: "₹1,250.00", "50 chips", "Free".')


class TournamentSummarySerializer(Serializer):
    """A tournament's row: the read model ``tournaments.views_state.summary``, field for field."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(
        help_text="announced, registering, running, finished, cancelled or voided."
    )
    status_words = serializers.CharField()
    currency = serializers.CharField(help_text="INR (money) or CHIPS (practice chips).")
    currency_words = serializers.CharField()
    free = serializers.BooleanField()
    buy_in = AmountWordsSerializer()
    guarantee = AmountWordsSerializer()
    prize_pool = AmountWordsSerializer(help_text="As it stands with the players registered now, or as paid.")
    players = serializers.IntegerField(help_text="Registered now (at the end: every player who played).")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    table_size = serializers.IntegerField()
    qualify = serializers.IntegerField(help_text="Players who go through from each table.")
    sit_and_go = serializers.BooleanField(help_text="Starts when full (no start time).")
    start_words = serializers.CharField()
    start_at = serializers.DateTimeField(allow_null=True)
    registration_opens_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    end_reason = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField(help_text="Bumped by every change (the page socket's ``v``).")


class TournamentRowSerializer(TournamentSummarySerializer):
    entered = serializers.BooleanField(help_text="You are registered.")


class PrizePlaceSerializer(Serializer):
    place = serializers.IntegerField()
    share_bps = serializers.IntegerField(help_text="The place's share of the pool, in basis points.")
    share_words = serializers.CharField()
    prize = AmountWordsSerializer()


class StandingSerializer(Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    # ``in`` is a Python keyword: the field is declared under another name and renamed below.
    in_ = serializers.BooleanField(help_text="Still in a running tournament.")
    out_in_round = serializers.IntegerField(allow_null=True)
    won = serializers.BooleanField(help_text="Won the final.")
    chips = serializers.IntegerField(allow_null=True, help_text="Game chips at the end of their last round.")
    rank = serializers.IntegerField(allow_null=True, help_text="Once the tournament is over: 1 first.")
    prize = AmountWordsSerializer(allow_null=True)

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["in"] = fields.pop("in_")
        return fields


class RoundTableSerializer(Serializer):
    table = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.IntegerField(), help_text="User ids, as seated.")
    qualify = serializers.IntegerField()
    qualified = serializers.ListField(child=serializers.IntegerField(), help_text="Most chips first.")
    over = serializers.BooleanField()


class RoundSerializer(Serializer):
    number = serializers.IntegerField()
    players = serializers.IntegerField()
    final = serializers.BooleanField()
    over = serializers.BooleanField()
    seed = serializers.CharField(help_text="Revealed at once: re-derive the seating (R-TOUR-3).")
    tables = RoundTableSerializer(many=True)


class TournamentEntrySerializer(Serializer):
    registered = serializers.BooleanField()
    status_words = serializers.CharField(allow_null=True)
    out_in_round = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    prize = AmountWordsSerializer(allow_null=True)
    table = serializers.IntegerField(
        allow_null=True, help_text="The table you play at now: /api/tables/<id>/."
    )


class TournamentSerializer(TournamentSummarySerializer):
    """One tournament: ``tournaments.views_state.tournament``, the page's read model."""

    prize_table = PrizePlaceSerializer(many=True)
    standings = StandingSerializer(many=True)
    rounds = RoundSerializer(many=True)
    me = TournamentEntrySerializer(allow_null=True)
