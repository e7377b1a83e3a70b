"""The player's API: lobby and tables, join and leave, the table view, wallet, history; token auth.

Views only parse input and call the service layer (``games.services``, ``wallet.cashier``);
refusals come back as JSON errors through ``api.errors.exception_handler``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from axes.exceptions import AxesBackendPermissionDenied
from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import (
    APIException,
    AuthenticationFailed,
    NotFound,
    ValidationError,
)
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import totp
from accounts.forms import SignUpForm
from accounts.models import User
from accounts.registration import register
from api import serializers as s
from api.throttling import AnonThrottle, UserThrottle
from backoffice.deals import deal_window, shuffle_verified
from fairplay import signals
from games import access, arrivals, services
from games.lobby import lobby, rows
from games.models import Deal, DealHand, Seat, Table, TableTemplate
from games.views_state import events_for, table_view
from protection import exclusions, kyc, limits, money_play
from protection.models import LimitKind
from wallet import cashier
from wallet import limits as wallet_limits
from wallet import reports as wallet_reports
from wallet.ledger import balance_of, balances_of, user_spec, withdrawal_hold_spec
from wallet.models import Currency, Deposit, Withdrawal

#: The header fair play reads at each log-in and seat (docs/FAIRPLAY.md, "Signals").
DEVICE_HEADER = OpenApiParameter(
    "X-Device-Id",
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="Your installation's own random id (22 to 64 letters, digits, - or _), the same on "
    "every request; anything else is ignored.",
)


def errors(*codes: int) -> dict[int, Any]:
    """The documented error responses of an endpoint (401 and 429 everywhere)."""
    return dict.fromkeys((*codes, 401, 429), s.ErrorSerializer)


class LockedOut(APIException):
    """django-axes: too many failed log-ins from this address for this username."""

    status_code = 429
    default_code = "locked_out"
    default_detail = "Too many failed log-ins: this account is locked here for a while; try again later."


class TotpRequired(APIException):
    """Staff get a token only with a current code of their authenticator app."""

    status_code = 403
    default_code = "totp_required"
    default_detail = 'Staff need their authenticator code: send it as "totp" with the password.'


def player(request: Request) -> User:
    """The signed-in user of a view behind ``IsAuthenticated`` (every ApiView but sign-up)."""
    user = request.user
    assert isinstance(user, User), "IsAuthenticated lets no anonymous caller through"
    return user


class ApiView(APIView):
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes = [UserThrottle, AnonThrottle]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """A body is parsed before any view acts, even one that reads none (play now, join):
        a malformed body is refused, never ignored."""
        super().initial(request, *args, **kwargs)
        if request.META.get("CONTENT_LENGTH") not in (None, "", "0"):
            request.data  # noqa: B018 - parsing is the point


# --- auth -----------------------------------------------------------------------------------


class SignUpView(ApiView):
    """Open a player account with the sign-up page's own checks, and get an API token."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_signup",
        parameters=[DEVICE_HEADER],
        summary="Open a player account and get an API token",
        request=s.SignUpSerializer,
        responses={201: s.SignedUpSerializer, **errors(400)},
        auth=[],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        body = s.SignUpSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        form = SignUpForm(
            data={
                "username": data["username"],
                "display_name": data.get("display_name", ""),
                "date_of_birth": data["date_of_birth"].isoformat(),
                "region": data["region"],
                "password1": data["password"],
                "password2": data["password"],
            }
        )
        if not form.is_valid():
            fields = {
                ("password" if name.startswith("password") else name): e for name, e in form.errors.items()
            }
            raise ValidationError({name: [str(error) for error in errors] for name, errors in fields.items()})
        user = register(form)
        token = Token.objects.create(user=user)
        signals.logged_in(request, user)
        return Response(
            {"user": user.pk, "username": user.username, "token": token.key}, status=status.HTTP_201_CREATED
        )


class TokenView(ApiView):
    """Trade a username and password for an API token; DELETE forgets the token."""

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    @extend_schema(
        operation_id="auth_token_create",
        parameters=[DEVICE_HEADER],
        summary="Trade your username and password for an API token",
        request=s.CredentialsSerializer,
        responses={200: s.TokenSerializer, **errors(400)},
        auth=[],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        body = s.CredentialsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            user = authenticate(
                request._request,
                username=body.validated_data["username"],
                password=body.validated_data["password"],
            )
        except AxesBackendPermissionDenied:
            raise LockedOut() from None
        if getattr(request._request, "axes_locked_out", False):
            raise LockedOut()
        if user is None or not user.is_active:
            raise AuthenticationFailed("The username or password is wrong.")
        if (
            user.is_staff
            and totp.required()
            and totp.check_code(user, body.validated_data.get("totp", "")) is None
        ):
            raise TotpRequired()
        token, _ = Token.objects.get_or_create(user=user)
        signals.logged_in(request, user)
        return Response({"token": token.key})

    @extend_schema(
        operation_id="auth_token_delete",
        summary="Forget your API token",
        request=None,
        responses={204: None, **errors()},
        tags=["auth"],
    )
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=player(request)).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- lobby and tables -----------------------------------------------------------------------


class LobbyView(ApiView):
    @extend_schema(
        operation_id="lobby",
        summary="The templates on offer by format, stakes low to high, with their players and open tables",
        responses={200: s.LobbyTemplateSerializer(many=True), **errors()},
        tags=["tables"],
    )
    def get(self, request: Request) -> Response:
        # The lobby page's own answer (games.lobby.lobby), its rows in the order of its tabs.
        answer = lobby(player(request), open_tables=True)
        return Response(s.LobbyTemplateSerializer(rows(answer), many=True).data)


def _table_response(table: Table, user: Any, code: int = 200) -> Response:
    """The table as the websocket's snapshot shows it to ``user``, field for field: the one
    builder's answer as it is (``games.views_state.table_view``). ``TableViewSerializer``
    documents it in the schema; it does not filter it."""
    table = Table.objects.select_related("template").get(pk=table.pk)
    return Response(table_view(table, user), status=code)


class PlayNowView(ApiView):
    @extend_schema(
        operation_id="table_play_now",
        parameters=[DEVICE_HEADER],
        summary="Sit at a table of this template that is waiting for players, or open one",
        request=None,
        responses={200: s.TableViewSerializer, **errors(404, 409)},
        tags=["tables"],
    )
    def post(self, request: Request, pk: int) -> Response:
        template = get_object_or_404(TableTemplate, pk=pk, active=True)
        table = services.play_now(request.user, template)
        arrivals.arrived(request, player(request).pk, table.pk)
        return _table_response(table, request.user)


class PrivateTableView(ApiView):
    @extend_schema(
        operation_id="table_open_private",
        parameters=[DEVICE_HEADER],
        summary="Open a private table of this template and sit at it; share its invite_code",
        request=None,
        responses={201: s.TableViewSerializer, **errors(404, 409)},
        tags=["tables"],
    )
    def post(self, request: Request, pk: int) -> Response:
        template = get_object_or_404(TableTemplate, pk=pk, active=True)
        table = services.open_private(request.user, template)
        arrivals.arrived(request, player(request).pk, table.pk)
        response = _table_response(table, request.user, 201)
        response.data = {**response.data, "invite_code": table.invite_code}
        return response


class LeaveAfterDealView(ApiView):
    @extend_schema(
        operation_id="table_leave_after_deal",
        summary="Leave when the running deal ends (DELETE: stay after all)",
        request=None,
        responses={200: s.TableViewSerializer, **errors(404, 409)},
        tags=["tables"],
    )
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        return _table_response(services.leave_after_deal(table.pk, request.user, True), request.user)

    @extend_schema(
        operation_id="table_stay",
        summary="Stay after the running deal after all",
        request=None,
        responses={200: s.TableViewSerializer, **errors(404, 409)},
        tags=["tables"],
    )
    def delete(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        return _table_response(services.leave_after_deal(table.pk, request.user, False), request.user)


class TableView(ApiView):
    @extend_schema(
        operation_id="table_view",
        summary="The table as you may see it: your own cards only",
        responses={200: s.TableViewSerializer, **errors(404)},
        tags=["tables"],
    )
    def get(self, request: Request, pk: int) -> Response:
        return _table_response(_visible(request, pk), request.user)


def _visible(request: Request, pk: int) -> Table:
    """The table, if the user may see it: a private one needs its ``code`` or an earlier seat."""
    table = get_object_or_404(Table, pk=pk)
    code = request.query_params.get("code") or (
        request.data.get("code") if hasattr(request.data, "get") else None
    )
    access.check(table, request.user, code)
    return table


class TableEventsView(ApiView):
    @extend_schema(
        operation_id="table_events",
        summary="The table's events after a version; another player's private event is only its version",
        parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="The last version you have.")],
        responses={200: s.TableEventSerializer(many=True), **errors(400, 404)},
        tags=["tables"],
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _visible(request, pk)
        after = request.query_params.get("after", "0")
        if not after.isdigit():
            raise ValidationError({"after": ["A version: a whole number from 0."]})
        return Response(s.TableEventSerializer(events_for(table, request.user, int(after)), many=True).data)


class JoinView(ApiView):
    @extend_schema(
        operation_id="table_join",
        parameters=[DEVICE_HEADER],
        summary="Sit here: pool and deals charge the entry fee, points hold 80 points (21-card: 200)",
        request=None,
        responses={200: s.TableViewSerializer, **errors(404, 409)},
        tags=["tables"],
    )
    def post(self, request: Request, pk: int) -> Response:
        table = _visible(request, pk)
        joined = services.join(table.pk, request.user, code=table.invite_code)
        arrivals.arrived(request, player(request).pk, joined.pk)
        return _table_response(joined, request.user)


class LeaveView(ApiView):
    @extend_schema(
        operation_id="table_leave",
        summary="Leave: refunded before the start, a forfeit after (R-MONEY-5)",
        request=None,
        responses={200: s.TableViewSerializer, **errors(404, 409)},
        tags=["tables"],
    )
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        return _table_response(services.leave(table.pk, request.user), request.user)


# --- wallet ---------------------------------------------------------------------------------


def wallet_of(user: Any) -> dict[str, Any]:
    currencies = (Currency.INR, Currency.CHIPS)
    specs = [spec(user.pk, currency) for currency in currencies for spec in (user_spec, withdrawal_hold_spec)]
    balances = iter(balances_of(*specs))
    return {
        "user": user.pk,
        "username": user.username,
        "balances": [
            {"currency": currency, "balance": next(balances), "withdrawals_held": next(balances)}
            for currency in currencies
        ],
    }


def statement_of(user_id: int, currency: str, limit: int) -> list[dict[str, Any]]:
    lines = wallet_reports.statement(user_id, Currency(currency))[-limit:]
    return [
        {
            "created_at": line.created_at,
            "key": line.key,
            "kind": line.kind,
            "amount": line.amount,
            "balance": line.balance,
            "version": line.version,
        }
        for line in lines
    ]


CURRENCY_PARAM = OpenApiParameter(
    "currency", OpenApiTypes.STR, enum=list(Currency.values), description="Default INR."
)
LIMIT_PARAM = OpenApiParameter(
    "limit", OpenApiTypes.INT, description="The most recent lines (default 200, at most 1000)."
)


def query_currency(request: Request) -> str:
    currency = request.query_params.get("currency", Currency.INR)
    if currency not in Currency.values:
        raise ValidationError({"currency": [f"One of {', '.join(Currency.values)}."]})
    return currency


def query_limit(request: Request) -> int:
    text = request.query_params.get("limit", "200")
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise ValidationError({"limit": ["A whole number from 1 to 1000."]})
    return int(text)


class WalletView(ApiView):
    @extend_schema(
        operation_id="wallet_balance",
        summary="Your balances in paise (chips in hundredths)",
        responses={200: s.WalletSerializer, **errors()},
        tags=["wallet"],
    )
    def get(self, request: Request) -> Response:
        return Response(s.WalletSerializer(wallet_of(request.user)).data)


class StatementView(ApiView):
    @extend_schema(
        operation_id="wallet_statement",
        summary="Every movement of your wallet with the running balance, oldest first",
        parameters=[CURRENCY_PARAM, LIMIT_PARAM],
        responses={200: s.StatementSerializer, **errors(400)},
        tags=["wallet"],
    )
    def get(self, request: Request) -> Response:
        currency = query_currency(request)
        data = {
            "currency": currency,
            "balance": balance_of(user_spec(player(request).id, Currency(currency))),
            "lines": statement_of(player(request).id, currency, query_limit(request)),
        }
        return Response(s.StatementSerializer(data).data)


def _deposit(deposit: Deposit) -> dict[str, Any]:
    return dict(s.DepositSerializer(deposit).data)


class DepositsView(ApiView):
    @extend_schema(
        operation_id="deposit_list",
        summary="Your last 50 deposits",
        responses={200: s.DepositSerializer(many=True), **errors()},
        tags=["wallet"],
    )
    def get(self, request: Request) -> Response:
        deposits = Deposit.objects.filter(user=player(request)).order_by("-id")[:50]
        return Response(s.DepositSerializer(deposits, many=True).data)

    @extend_schema(
        operation_id="deposit_create",
        summary="Start a deposit: pending until the provider confirms it (the sandbox: at once)",
        request=s.DepositRequestSerializer,
        responses={201: s.DepositSerializer, **errors(400, 409)},
        tags=["wallet"],
    )
    def post(self, request: Request) -> Response:
        body = s.DepositRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deposit = cashier.create_deposit(
            player(request),
            body.validated_data["amount"],
            instrument=body.validated_data.get("instrument", ""),
        )
        return Response(_deposit(deposit), status=status.HTTP_201_CREATED)


class WithdrawalsView(ApiView):
    @extend_schema(
        operation_id="withdrawal_list",
        summary="Your last 50 withdrawals",
        responses={200: s.WithdrawalSerializer(many=True), **errors()},
        tags=["wallet"],
    )
    def get(self, request: Request) -> Response:
        withdrawals = Withdrawal.objects.filter(user=player(request)).order_by("-id")[:50]
        return Response(s.WithdrawalSerializer(withdrawals, many=True).data)

    @extend_schema(
        operation_id="withdrawal_create",
        summary="Ask to withdraw: the amount is held until staff approve or reject it",
        request=s.WithdrawalRequestSerializer,
        responses={201: s.WithdrawalSerializer, **errors(400, 409)},
        tags=["wallet"],
    )
    def post(self, request: Request) -> Response:
        body = s.WithdrawalRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        withdrawal = cashier.request_withdrawal(
            player(request), body.validated_data["amount"], request_key=body.validated_data.get("request_key")
        )
        return Response(s.WithdrawalSerializer(withdrawal).data, status=status.HTTP_201_CREATED)


class ChipsTopUpView(ApiView):
    @extend_schema(
        operation_id="chips_topup",
        summary="Top your practice chips up (once a day)",
        request=None,
        responses={200: s.TopUpSerializer, **errors(409)},
        tags=["wallet"],
    )
    def post(self, request: Request) -> Response:
        journal = cashier.topup_chips(player(request))
        balance = balance_of(user_spec(player(request).id, Currency.CHIPS))
        return Response(s.TopUpSerializer({"journal": journal.key, "balance": balance}).data)


# --- player protection (docs/RULES.md, section 15) ------------------------------------------


def _protection(user: Any) -> Response:
    used = {room.kind: room.left for room in wallet_limits.rooms(user, tuple(LimitKind))}
    refused = money_play.refusal(user)
    current = exclusions.current(user)
    identity = kyc.of(user)
    body = {
        "money_play": refused is None,
        "money_play_refused": None if refused is None else refused.message,
        "region": user.region,
        "limits": [
            {
                "kind": found.kind.value,
                "amount": found.amount,
                "pending": found.pending,
                "pending_at": found.pending_at,
                "left": used.get(found.kind),
            }
            for found in limits.limits(user)
        ],
        "exclusion": None if current is None else current.kind,
        "exclusion_ends_at": None if current is None else current.ends_at,
        "identity": identity.status,
        "identity_document": (
            f"{identity.get_document_type_display()} ending {identity.last_four}"
            if identity.document_type
            else ""
        ),
    }
    return Response(s.ProtectionSerializer(body).data)


def _change(
    request: Request, serializer: type[s.Serializer], change: Callable[[User, dict[str, Any]], object]
) -> Response:
    """Validate the body, make the one protection change it asks for, answer with the result."""
    body = serializer(data=request.data)
    body.is_valid(raise_exception=True)
    change(player(request), dict(body.validated_data))
    return _protection(player(request))


class ProtectionView(ApiView):
    @extend_schema(
        operation_id="protection_get",
        summary="Your limits, break or self-exclusion, identity check and whether you may play for money",
        responses={200: s.ProtectionSerializer, **errors()},
        tags=["protection"],
    )
    def get(self, request: Request) -> Response:
        return _protection(request.user)


class LimitView(ApiView):
    @extend_schema(
        operation_id="protection_limit",
        summary="Set a limit: lower at once, higher or none after the cooling-off period",
        request=s.LimitRequestSerializer,
        responses={200: s.ProtectionSerializer, **errors(400)},
        tags=["protection"],
    )
    def post(self, request: Request) -> Response:
        return _change(
            request,
            s.LimitRequestSerializer,
            lambda user, data: limits.set_limit(user, data["kind"], data["amount"]),
        )


class BreakView(ApiView):
    @extend_schema(
        operation_id="protection_break",
        summary="Take a break or exclude yourself from money play (nobody can end it early)",
        request=s.BreakRequestSerializer,
        responses={200: s.ProtectionSerializer, **errors(400, 409)},
        tags=["protection"],
    )
    def post(self, request: Request) -> Response:
        return _change(
            request, s.BreakRequestSerializer, lambda user, data: exclusions.take(user, data["choice"])
        )


class IdentityView(ApiView):
    @extend_schema(
        operation_id="protection_identity",
        summary="Send an identity document for checking (withdrawals need a verified identity)",
        request=s.IdentityRequestSerializer,
        responses={200: s.ProtectionSerializer, **errors(400, 409)},
        tags=["protection"],
    )
    def post(self, request: Request) -> Response:
        return _change(
            request,
            s.IdentityRequestSerializer,
            lambda user, data: kyc.submit(user, data["document_type"], data["number"]),
        )


# --- history --------------------------------------------------------------------------------


class HistoryView(ApiView):
    @extend_schema(
        operation_id="history_list",
        summary="Your last 50 tables, with your deals and scores",
        responses={200: s.HistoryGameSerializer(many=True), **errors()},
        tags=["history"],
    )
    def get(self, request: Request) -> Response:
        name = str(request.user.pk)
        seats = list(
            Seat.objects.filter(user=player(request)).select_related("table__template").order_by("-joined_at")
        )
        games: dict[int, dict[str, Any]] = {}
        for seat in seats:
            if seat.table_id in games or len(games) >= 50:
                continue
            state = seat.table.state or {}
            games[seat.table_id] = {
                "table": seat.table_id,
                "template": seat.table.template.name,
                "variant": seat.table.template.variant,
                "currency": seat.table.template.currency,
                "status": seat.table.status,
                "joined_at": seat.joined_at,
                "left_at": seat.left_at,
                "winner": state.get("winner"),
                "payouts": state.get("payouts", []),
                "deals": [],
            }
        mine = {
            hand.deal_id: hand
            for hand in DealHand.objects.filter(user=player(request), deal__table_id__in=list(games))
        }
        for deal in Deal.objects.filter(table_id__in=list(games)).order_by("table_id", "number"):
            if name not in (deal.players or []):
                continue
            hand = mine.get(deal.pk)
            games[deal.table_id]["deals"].append(
                {
                    "id": deal.pk,
                    "number": deal.number,
                    "started_at": deal.started_at,
                    "finished_at": deal.finished_at,
                    "score": None if hand is None else hand.score,
                    "outcome": None if hand is None else hand.outcome,
                }
            )
        return Response(s.HistoryGameSerializer(list(games.values()), many=True).data)


class DealDetailView(ApiView):
    @extend_schema(
        operation_id="history_deal",
        summary="One of your deals: every hand once it is over, the seed and its verification, the replay",
        responses={200: s.DealDetailSerializer, **errors(404)},
        tags=["history"],
    )
    def get(self, request: Request, pk: int) -> Response:
        deal = get_object_or_404(Deal.objects.select_related("table"), pk=pk)
        if str(request.user.pk) not in (deal.players or []):
            raise NotFound("You did not play in this deal.")
        hands = (
            [
                {
                    "player": hand.user_id,
                    "name": hand.user.username,
                    "outcome": hand.outcome,
                    "score": hand.score,
                    "net": hand.net,
                    "hand": hand.hand,
                    "grouping": hand.grouping,
                }
                for hand in DealHand.objects.filter(deal=deal).select_related("user").order_by("id")
            ]
            if deal.seed
            else []
        )
        events: list[dict[str, Any]] = []
        window = deal_window(deal)
        if window is not None:
            start, end = window
            events = [
                event
                for event in events_for(deal.table, request.user, start - 1)
                if end is None or event["v"] <= end
            ]
        data = {
            "id": deal.pk,
            "table": deal.table_id,
            "number": deal.number,
            "started_at": deal.started_at,
            "finished_at": deal.finished_at,
            "commitment": deal.commitment,
            "seed": deal.seed,
            "verified": shuffle_verified(deal.commitment, deal.seed),
            "winner": (deal.result or {}).get("winner") if deal.seed else None,
            "hands": hands,
            "events": events,
        }
        return Response(s.DealDetailSerializer(data).data)
