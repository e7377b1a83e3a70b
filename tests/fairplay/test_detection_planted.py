"""manage.py simulate's planted cheats: each kind a flag, the cheaters listed in the summary,
the honest players' draws untouched when nothing is planted, and a clear refusal of more
cheaters than the crowd can hide."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.simulate import simulate


@pytest.mark.django_db
def test_each_kind_of_cheat_is_a_flag_and_the_summary_lists_the_cheaters():
    out = io.StringIO()
    call_command(
        "simulate",
        *("--games", "2", "--variant", "points13", "--seed", "3", "--players", "20"),
        *(
            "--cheat-soft-play",
            "1",
            "--cheat-chip-dump",
            "1",
            "--cheat-feed",
            "1",
            "--cheat-regular-bot",
            "2",
        ),
        stdout=out,
    )
    text = out.getvalue()
    listed = re.findall(r"planted (\w+): users ([\d, ]+)", text)
    assert [kind for kind, _ in listed] == ["soft_play", "chip_dump", "feed", "regular_bot", "regular_bot"]
    ids = [int(i) for _, users in listed for i in users.split(", ")]
    assert len(ids) == len(set(ids)) == 8, "every cheater a different account"
    assert "all held" in text, "the ledger's invariants hold with cheaters at the tables"


@pytest.mark.django_db
def test_too_many_cheaters_for_the_crowd_are_refused():
    with pytest.raises(CommandError, match="cheaters need at least"):
        call_command(
            "simulate",
            "--games",
            "1",
            "--seed",
            "1",
            "--players",
            "8",
            "--cheat-feed",
            "3",
            stdout=io.StringIO(),
        )
    with pytest.raises(CommandError, match="0 or more"):
        call_command("simulate", "--games", "1", "--seed", "1", "--cheat-feed", "-1", stdout=io.StringIO())


@pytest.mark.django_db
def test_a_run_without_cheats_lists_none_and_plays_as_before():
    summary = simulate(1, "points13", 21)
    assert summary.planted == []
    assert not any(line.startswith("planted") for line in summary.lines())
    assert "planted cheats' moves" not in summary.events


@pytest.mark.django_db
def test_the_proof_command_prints_the_planted_cheat_table():
    out = io.StringIO()
    call_command(
        "fairplay_proof",
        *(
            "--games",
            "2",
            "--variant",
            "points13",
            "--seed",
            "3",
            "--players",
            "12",
            "--cheat-soft-play",
            "1",
        ),
        stdout=out,
    )
    text = out.getvalue()
    assert "kind | case | planted | found | flagged, not planted (honest only) | precision | recall" in text
    assert re.search(r"^soft_play \| soft_play \| 1 \| [01] \| 0 \(0\) \|", text, re.MULTILINE)
    assert "chip_dump | chip_dumping | 0 | 0 | 0 (0) | - | -" in text
    assert "findings naming only honest players: 0" in text
    assert "s per 10,000 deals" in text
