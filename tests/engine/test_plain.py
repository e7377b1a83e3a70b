"""The records the states write field by field (games.engine.plain) hold plain values only, so
their JSON is what dataclasses.asdict would give."""

from __future__ import annotations

import dataclasses
from enum import Enum

import pytest

from games.engine.deal import Timing
from games.engine.plain import fields_of
from games.engine.table import Player, Rules, Status
from games.engine.variants import VARIANTS, Variant

PLAIN = (int, str, bool, type(None), Enum)


@pytest.mark.parametrize(
    "record",
    [
        Timing(),
        Player("alice", status=Status.IN, score=40, held=2_000, chips=80),
        *VARIANTS.values(),
    ],
    ids=lambda record: type(record).__name__,
)
def test_a_record_written_field_by_field_is_what_asdict_gives(record):
    written = fields_of(record)

    assert written == dataclasses.asdict(record)
    assert all(isinstance(value, PLAIN) for value in written.values()), written


def test_the_rules_hold_plain_values_besides_their_timing():
    rules = Rules(seats=2, entry_fee=1_000, timing=Timing(move_ms=15_000))

    written = {**fields_of(rules), "timing": fields_of(rules.timing)}

    assert written == dataclasses.asdict(rules)
    assert written["timing"]["move_ms"] == 15_000
    assert all(isinstance(value, PLAIN) for name, value in written.items() if name != "timing")


def test_every_variant_reads_back_from_its_json():
    for variant in VARIANTS.values():
        assert Variant.from_json(variant.to_json()) == variant
