"""The browser's shuffle check (static/table/verify.js) is tested by ``node --test`` against a
fixture of decks; this test keeps that fixture the Python engine's answer (R-DEAL-5)."""

from __future__ import annotations

import json
from pathlib import Path

from games.engine.cards import shoe
from games.engine.shuffle import commitment, seed_from_hex, shuffled

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "shuffle_fixture.json"


def test_the_js_fixture_is_the_engines_deck_for_its_seed_r_deal_5():
    data = json.loads(FIXTURE.read_text())
    seed = seed_from_hex(data["seed"])
    assert commitment(seed) == data["commitment"]
    for packs, deck in data["decks"].items():
        assert [card.code for card in shuffled(shoe(int(packs)), seed)] == deck
        assert len(deck) == 53 * int(packs)
