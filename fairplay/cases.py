"""Opening the risk desk's cases: the one way a detector or a staff member files a suspicion."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction

from fairplay.models import Case
from fairplay.words import CASE_KINDS


@transaction.atomic
def open_case(
    kind: str,
    subjects: Iterable[Any],
    evidence: Mapping[str, Any],
    *,
    score: float = 0.0,
    key: str | None = None,
    opened_by: Any = None,
) -> Case:
    """File a case about ``subjects`` (users or their ids). With a ``key`` (a detector's finding),
    the same key again updates that case's evidence and score instead of opening another; a case
    staff already closed or dismissed stays as they left it."""
    if kind not in CASE_KINDS:
        raise ValueError(f"unknown case kind {kind!r}")
    ids = sorted({getattr(s, "pk", s) for s in subjects})
    if key is not None:
        case = Case.objects.select_for_update().filter(key=key).first()
        if case is not None:
            if case.status == "open":
                case.evidence, case.score = dict(evidence), score
                case.save(update_fields=["evidence", "score", "updated_at"])
            return case
    case = Case.objects.create(kind=kind, key=key, evidence=dict(evidence), score=score, opened_by=opened_by)
    case.subjects.set(ids)
    return case
