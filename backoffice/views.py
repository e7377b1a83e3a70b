"""The staff report pages: a range form, totals, an inline SVG chart and a CSV download each."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from backoffice.access import staff_page
from backoffice.columns import csv_download
from backoffice.forms import RangeForm
from backoffice.live import live_tables
from backoffice.models import RefundRequest, VoidRequest
from backoffice.report_form import Report
from backoffice.reports import REPORTS, quick_ranges
from backoffice.reversals import REVERSE, waiting_for
from fairplay.models import Case
from games.words import word
from protection.models import KycStatus, Verification
from tournaments.models import StaffRequest
from wallet.models import Withdrawal

#: The reports' pages (the staff API's reports name the same permission).
REPORTS_PERMISSION = "backoffice.view_reports"


@staff_page(
    "accounts.view_user",
    "games.view_table",
    "wallet.view_withdrawal",
    "backoffice.view_reports",
    "fairplay.view_case",
)
def home(request: HttpRequest) -> HttpResponse:
    """The start of a staff member's day: what waits for them."""
    return render(
        request,
        "backoffice/home.html",
        {
            "voids_pending": VoidRequest.waiting().count(),
            "tournament_requests_pending": StaffRequest.waiting().count(),
            "identity_pending": Verification.objects.filter(status=KycStatus.PENDING).count(),
            "payouts_unsent": Withdrawal.objects.filter(
                status=Withdrawal.Status.PAID, provider_ref=""
            ).count(),
            "stuck": sum(row.stuck for row in live_tables())
            if request.user.has_perm("games.view_table")
            else 0,
            "reversals": waiting_for() if request.user.has_perm(REVERSE) else [],
            "cases_open": Case.objects.filter(status="open").count()
            if request.user.has_perm("fairplay.view_case")
            else 0,
            "refunds_waiting": RefundRequest.waiting().count()
            if request.user.has_perm("fairplay.confirm_refund")
            else 0,
        },
    )


@staff_page(REPORTS_PERMISSION)
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "backoffice/index.html",
        {"reports": [(slug, title) for slug, (title, _) in REPORTS.items()]},
    )


@staff_page(REPORTS_PERMISSION)
def report(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in REPORTS:
        raise Http404("No such report.")
    form = RangeForm(request.GET)
    if not form.is_valid():
        return render(
            request,
            "backoffice/report.html",
            {
                "form": form,
                "title": REPORTS[slug][0],
                "slug": slug,
                "reports": REPORTS,
                "quick_ranges": _quick_ranges(request),
            },
            status=400,
        )
    result = REPORTS[slug][1](
        form.cleaned_data["start"], form.cleaned_data["end"], form.cleaned_data["currency"]
    )
    if request.GET.get("format") == "csv":
        return csv_response(result)
    return render(
        request,
        "backoffice/report.html",
        {
            "form": form,
            "title": result.title,
            "slug": slug,
            "report": result,
            "table": table_rows(result),
            "reports": REPORTS,
            "csv_query": _csv_query(request),
            "quick_ranges": _quick_ranges(request),
        },
    )


def _quick_ranges(request: HttpRequest) -> list[tuple[str, str, bool]]:
    """Links to the report over the usual ranges, in the same currency: (label, query, current)."""
    out = []
    for label, start, end in quick_ranges():
        query = request.GET.copy()
        query.pop("format", None)
        query["start"], query["end"] = start.isoformat(), end.isoformat()
        current = request.GET.get("start") == query["start"] and request.GET.get("end") == query["end"]
        out.append((label, query.urlencode(), current))
    return out


def _csv_query(request: HttpRequest) -> str:
    query = request.GET.copy()
    query["format"] = "csv"
    return query.urlencode()


def table_rows(result: Report) -> dict[str, Any]:
    """The main table as display cells (value, money?, currency): money formatted from
    hundredths in the row's own currency when it has one (the reconciliation lists rupees and
    chips together: chips never as ₹), the totals row last (no money total across currencies)."""
    mixed = result.currency not in ("INR", "CHIPS")

    def cells(row: dict[str, Any], columns: Any) -> list[tuple[Any, bool, str]]:
        currency = str(row.get("currency") or result.currency)
        return [(shown(c, row.get(c.key, "")), c.money, currency) for c in columns]

    totals = [
        ("" if (mixed and c.money) else result.totals.get(c.key, ""), c.money, result.currency)
        for c in result.columns
    ]
    return {
        "rows": [cells(row, result.columns) for row in result.rows],
        "totals": totals,
        "breakdowns": [
            {"title": b.title, "columns": b.columns, "rows": [cells(row, b.columns) for row in b.rows]}
            for b in result.breakdowns
        ],
    }


def shown(column: Any, value: Any) -> Any:
    """A cell as staff read it: a code in words (games.words) where the column says so."""
    return word(column.words, value) if column.words and value else value


def csv_response(result: Report) -> HttpResponse:
    """The main table as CSV, from the report's own columns, then a ``total`` row."""
    filename = f"{result.slug}_{result.currency}_{result.start}_{result.end}.csv"
    currency = "mixed" if result.mixed else result.currency
    return csv_download(filename, result.columns, result.rows, currency, total=result.totals)
