"""Staff endpoints: the reports, withdrawals to decide, a player's wallet, journals and their
reversal (a four-eyes reversal request withdrawn by its asker or declined by another member),
cancelling a table that has not started. Each action needs a reason and is audited
(``backoffice.actions``). Journals are read-only: there is no endpoint that edits or deletes one.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from api import serializers as s
from api.permissions import IsStaff
from api.views import (
    CURRENCY_PARAM,
    LIMIT_PARAM,
    ApiView,
    errors,
    query_currency,
    query_limit,
    statement_of,
    wallet_of,
)
from backoffice import actions
from backoffice.models import ReversalRequest
from backoffice.reports import REPORTS
from games.models import Table
from wallet.models import Journal, Withdrawal


class StaffView(ApiView):
    permission_classes = [IsStaff]


def staff_errors(*codes: int) -> dict[int, Any]:
    return errors(403, *codes)


class ReportView(StaffView):
    required_permission = "backoffice.view_reports"

    @extend_schema(
        operation_id="staff_report",
        summary="A report over a date range: rows, totals and breakdowns (money in hundredths: paise, "
        "or hundredths of a chip)",
        parameters=[
            OpenApiParameter("report", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(REPORTS)),
            s.ReportQuerySerializer,
        ],
        responses={200: s.ReportSerializer, **staff_errors(400, 404)},
        tags=["staff"],
    )
    def get(self, request: Request, report: str) -> Response:
        if report not in REPORTS:
            raise NotFound(f"No report {report!r}; the reports are {', '.join(REPORTS)}.")
        query = s.ReportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        start, end, currency = (query.validated_data[k] for k in ("start", "end", "currency"))
        result = REPORTS[report][1](start, end, currency)
        return Response(s.ReportSerializer(result.to_json()).data)


class StaffWithdrawalsView(StaffView):
    required_permission = "wallet.view_withdrawal"

    @extend_schema(
        operation_id="staff_withdrawal_list",
        summary="Withdrawals, the oldest waiting first",
        parameters=[
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                enum=list(Withdrawal.Status.values),
                description="Default requested.",
            )
        ],
        responses={200: s.WithdrawalSerializer(many=True), **staff_errors(400)},
        tags=["staff"],
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status", Withdrawal.Status.REQUESTED)
        if wanted not in Withdrawal.Status.values:
            raise ValidationError({"status": [f"One of {', '.join(Withdrawal.Status.values)}."]})
        withdrawals = Withdrawal.objects.filter(status=wanted).order_by("id")[:200]
        return Response(s.WithdrawalSerializer(withdrawals, many=True).data)


def _reason(request: Request) -> str:
    body = s.ReasonSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    return str(body.validated_data["reason"])


class ApproveWithdrawalView(StaffView):
    required_permission = "backoffice.decide_withdrawal"

    @extend_schema(
        operation_id="staff_withdrawal_approve",
        summary="Approve: the held money is paid out through the cashier (audited)",
        request=s.ReasonSerializer,
        responses={200: s.WithdrawalSerializer, **staff_errors(400, 404, 409)},
        tags=["staff"],
    )
    def post(self, request: Request, pk: int) -> Response:
        reason = _reason(request)
        return Response(s.WithdrawalSerializer(actions.approve_withdrawal(pk, reason, request.user)).data)


class RejectWithdrawalView(StaffView):
    required_permission = "backoffice.decide_withdrawal"

    @extend_schema(
        operation_id="staff_withdrawal_reject",
        summary="Reject: the held money goes back to the player's wallet (audited)",
        request=s.ReasonSerializer,
        responses={200: s.WithdrawalSerializer, **staff_errors(400, 404, 409)},
        tags=["staff"],
    )
    def post(self, request: Request, pk: int) -> Response:
        reason = _reason(request)
        return Response(s.WithdrawalSerializer(actions.reject_withdrawal(pk, reason, request.user)).data)


class StaffUserWalletView(StaffView):
    required_permission = "wallet.view_account"

    @extend_schema(
        operation_id="staff_user_wallet",
        summary="A player's balances and statement",
        parameters=[CURRENCY_PARAM, LIMIT_PARAM],
        responses={200: s.StaffUserWalletSerializer, **staff_errors(400, 404)},
        tags=["staff"],
    )
    def get(self, request: Request, pk: int) -> Response:
        user = get_object_or_404(User, pk=pk)
        lines = statement_of(user.pk, query_currency(request), query_limit(request))
        data = {**wallet_of(user), "statement": lines}
        return Response(s.StaffUserWalletSerializer(data).data)


def journal_data(journal: Journal) -> dict[str, Any]:
    reversal = Journal.objects.filter(reverses=journal).values_list("pk", flat=True).first()
    return {
        "id": journal.pk,
        "key": journal.key,
        "kind": journal.kind,
        "currency": journal.currency,
        "created_at": journal.created_at,
        "meta": journal.meta,
        "reverses": journal.reverses_id,
        "reversed_by": reversal,
        "transfers": [
            {"debit": t.debit.ref, "credit": t.credit.ref, "amount": t.amount}
            for t in journal.transfers.select_related("debit", "credit").order_by("id")
        ],
    }


class JournalView(StaffView):
    """Read only: a journal is never changed or deleted (PUT, PATCH, DELETE: 405)."""

    required_permission = "wallet.view_journal"

    @extend_schema(
        operation_id="staff_journal",
        summary="One journal and its transfers",
        responses={200: s.JournalSerializer, **staff_errors(404)},
        tags=["staff"],
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.JournalSerializer(journal_data(get_object_or_404(Journal, pk=pk))).data)


class ReverseJournalView(StaffView):
    required_permission = "backoffice.reverse_journal"

    @extend_schema(
        operation_id="staff_journal_reverse",
        summary="Correct a journal with a new journal moving its money back (audited); above the "
        "four-eyes line (WALLET_SECOND_APPROVAL_OVER) a request a second staff member confirms",
        request=s.ReasonSerializer,
        responses={
            201: s.JournalSerializer,
            202: s.ReversalRequestSerializer,
            **staff_errors(400, 404, 409),
        },
        tags=["staff"],
    )
    def post(self, request: Request, pk: int) -> Response:
        reason = _reason(request)
        journal = get_object_or_404(Journal, pk=pk)
        reversal = actions.reverse_journal(journal, reason, request.user)
        if isinstance(reversal, ReversalRequest):
            waiting = {
                "request": reversal.pk,
                "journal": journal.pk,
                "status": "waiting",
                "message": "A second staff member confirms it in the back office before anything moves.",
            }
            return Response(s.ReversalRequestSerializer(waiting).data, status=202)
        return Response(
            s.JournalSerializer(journal_data(Journal.objects.get(pk=reversal.pk))).data, status=201
        )


class CloseReversalView(StaffView):
    """Close a reversal request waiting for its second staff member, nothing moved (audited)."""

    required_permission = "backoffice.reverse_journal"
    withdraw = True

    def post(self, request: Request, pk: int) -> Response:
        reason = _reason(request)
        get_object_or_404(ReversalRequest, pk=pk)
        close = actions.withdraw_reversal if self.withdraw else actions.decline_reversal
        closed = close(pk, reason, request.user)
        data = {
            "request": closed.pk,
            "journal": closed.journal_id,
            "status": closed.state,
            "message": "Closed: the journal stands; a new reversal of it may be asked for.",
        }
        return Response(s.ReversalRequestSerializer(data).data)


class WithdrawReversalView(CloseReversalView):
    @extend_schema(
        operation_id="staff_reversal_withdraw",
        summary="Withdraw one's own reversal request waiting for a second staff member (audited)",
        request=s.ReasonSerializer,
        responses={200: s.ReversalRequestSerializer, **staff_errors(400, 404, 409)},
        tags=["staff"],
    )
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)


class DeclineReversalView(CloseReversalView):
    withdraw = False

    @extend_schema(
        operation_id="staff_reversal_decline",
        summary="Decline another staff member's reversal request: nothing moves (audited)",
        request=s.ReasonSerializer,
        responses={200: s.ReversalRequestSerializer, **staff_errors(400, 404, 409)},
        tags=["staff"],
    )
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)


class CancelTableView(StaffView):
    required_permission = "backoffice.cancel_table"

    @extend_schema(
        operation_id="staff_table_cancel",
        summary="Cancel a table whose game has not started and refund every player (audited)",
        request=s.ReasonSerializer,
        responses={200: s.CancelledTableSerializer, **staff_errors(400, 404, 409)},
        tags=["staff"],
    )
    def post(self, request: Request, pk: int) -> Response:
        reason = _reason(request)
        get_object_or_404(Table, pk=pk)
        table = actions.cancel_table(pk, reason, request.user)
        return Response(
            s.CancelledTableSerializer(
                {"table": table.pk, "status": table.status, "version": table.version}
            ).data
        )
