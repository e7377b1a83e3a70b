"""The columns of the back office's tables and what they hold, and their CSV.

A column is text (a day, a name, a code shown in words), money (hundredths of the table's
currency: paise for rupees, hundredths of a chip for chips) or a count. The page and the CSV
read the same columns: the CSV's header is each column's label, with the unit of a money column
("Rake (paise)", "Rake (hundredths of a chip)"), so a download says what its numbers are.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse

from accounts.text import csv_cell
from games.words import word

TEXT, MONEY, COUNT = "text", "money", "count"

#: A currency that is neither rupees nor chips: the rows carry their own (a ledger summary).
MIXED = "mixed"


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    kind: str = TEXT
    """:data:`TEXT`, :data:`MONEY` (in the report's currency) or :data:`COUNT`."""
    words: str = ""
    """A table of games.words (``"variant"``): the page shows its words for the code; the CSV
    keeps the code, which stays the same when the words change."""
    summed: bool = True
    """A number summed into the totals row; False for one whose total is not the sum of the
    rows (the players seen over a range), which the report's query gives."""

    @property
    def money(self) -> bool:
        return self.kind == MONEY

    @property
    def total(self) -> bool:
        """Summed into the totals row."""
        return self.kind != TEXT and self.summed

    def header(self, currency: str) -> str:
        """The CSV header: the label, and a money column's unit ("Rake (paise)")."""
        return f"{self.label} ({word('unit', currency)})" if self.money else self.label


def totals(columns: Sequence[Column], rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Every column marked :attr:`Column.total` summed over the rows."""
    rows = list(rows)
    return {c.key: sum(int(row[c.key] or 0) for row in rows) for c in columns if c.total}


def unit_of(currency: str) -> str:
    """What a download's amounts are in: "paise", "hundredths of a chip", or both."""
    return word("unit", currency if currency in ("INR", "CHIPS") else MIXED)


def csv_download(
    filename: str,
    columns: Sequence[Column],
    rows: Iterable[Mapping[str, Any]],
    currency: str,
    total: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """The rows as a CSV attachment: a header of the columns' labels (money with its unit in
    ``currency``: "INR", "CHIPS", or :data:`MIXED` when the rows carry their own), one line a
    row, then, given ``total``, a line starting ``total``. Money stays integers in hundredths; dates are
    ISO; text cells are escaped against spreadsheet formulas."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response, lineterminator="\n")
    unit = currency if currency in ("INR", "CHIPS") else MIXED
    writer.writerow([c.header(unit) for c in columns])
    for row in rows:
        writer.writerow([csv_value(row.get(c.key, "")) for c in columns])
    if total is not None:
        line = [csv_value(total.get(c.key, "")) for c in columns]
        line[0] = "total"
        writer.writerow(line)
    return response


def csv_value(value: Any) -> Any:
    """Dates as ISO text; text cells escaped against formulas; numbers left as numbers."""
    return value.isoformat() if hasattr(value, "isoformat") else csv_cell(value)
