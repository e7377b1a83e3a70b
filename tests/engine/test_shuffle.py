"""The seeded shuffle and its commitment (R-DEAL-1, R-DEAL-5)."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import Card, format_cards, parse_cards, shoe
from games.engine.shuffle import (
    SEED_BYTES,
    SeedError,
    commitment,
    new_seed,
    seed_from_hex,
    seed_hex,
    shuffled,
    verify,
)

seeds = st.binary(min_size=16, max_size=48)


def deterministic_seed(i: int) -> bytes:
    return hashlib.sha256(b"test-seed" + i.to_bytes(4, "big")).digest()


def reference_shuffle(cards: list[Card], seed: bytes) -> list[Card]:
    """A second implementation written from the module docstring alone, as a verifier would."""
    buffer = b""
    counter = 0
    position = 0

    def draw() -> int:
        nonlocal buffer, counter, position
        if position + 4 > len(buffer):
            buffer += hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            counter += 1
        r = int.from_bytes(buffer[position : position + 4], "big")
        position += 4
        return r

    a = list(cards)
    for i in range(len(a) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        r = draw()
        while r >= limit:
            r = draw()
        j = r % n
        a[i], a[j] = a[j], a[i]
    return a


def test_new_seed_is_32_fresh_bytes__R_DEAL_1() -> None:
    first, second = new_seed(), new_seed()
    assert len(first) == SEED_BYTES == 32
    assert first != second


def test_known_answer_zero_seed_two_packs__R_DEAL_5() -> None:
    """Pinned: anyone re-implementing the documented algorithm must get these 10 cards."""
    deck = shuffled(shoe(2), bytes(32))
    assert format_cards(deck[:10]) == "2D 5D JD KC 9H 9D 9S 8C AH QH"
    assert len(deck) == 106


def test_known_answer_zero_seed_three_packs__R_DEAL_5() -> None:
    deck = shuffled(shoe(3), bytes(32))
    assert format_cards(deck[:10]) == "2D 2D 8C 9C AC QS 7H 3S 8C AD"
    assert len(deck) == 159


def test_commitment_of_zero_seed_is_plain_sha256__R_DEAL_5() -> None:
    assert commitment(bytes(32)) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


@settings(deadline=None, max_examples=40)
@given(seed=seeds)
def test_docstring_algorithm_matches_reference_implementation__R_DEAL_5(seed: bytes) -> None:
    assert list(shuffled(shoe(2), seed)) == reference_shuffle(list(shoe(2)), seed)


@settings(deadline=None, max_examples=50)
@given(seed=seeds)
def test_same_seed_same_order_and_a_permutation__R_DEAL_1(seed: bytes) -> None:
    cards = shoe(2)
    first = shuffled(cards, seed)
    assert shuffled(cards, seed) == first
    assert Counter(first) == Counter(cards)
    assert len(first) == len(cards)


@settings(deadline=None, max_examples=50)
@given(a=seeds, b=seeds)
def test_different_seeds_different_orders__R_DEAL_1(a: bytes, b: bytes) -> None:
    if a != b:
        # 106! orders: two seeds giving the same one would mean the stream ignores the seed.
        assert shuffled(shoe(2), a) != shuffled(shoe(2), b)


@settings(deadline=None, max_examples=100)
@given(seed=seeds)
def test_commit_then_reveal_round_trip__R_DEAL_5(seed: bytes) -> None:
    published = commitment(seed)
    assert len(published) == 64
    assert verify(published, seed)
    assert verify(published.upper(), seed)
    revealed = seed_from_hex(seed_hex(seed))
    assert revealed == seed
    assert verify(published, revealed)
    assert not verify(published, seed + b"\x00")
    assert not verify(published[:-1] + ("0" if published[-1] != "0" else "1"), seed)


def test_verify_rejects_garbage_commitment_without_raising__R_DEAL_5() -> None:
    seed = deterministic_seed(1)
    assert not verify("", seed)
    assert not verify("zz" * 32, seed)
    assert not verify("\u20b9" * 64, seed)


def test_bad_seeds_are_refused__R_DEAL_5() -> None:
    with pytest.raises(SeedError, match="at least 16 bytes"):
        shuffled(shoe(1), b"short")
    with pytest.raises(SeedError, match="not a hex seed"):
        seed_from_hex("not hex")
    with pytest.raises(SeedError, match="at least 16 bytes"):
        seed_from_hex("abcd")
    with pytest.raises(SeedError, match="must be bytes"):
        commitment("00" * 32)  # type: ignore[arg-type]


def test_shuffle_leaves_input_alone_and_handles_tiny_decks__R_DEAL_1() -> None:
    cards = parse_cards("AS 2S 3S")
    seed = deterministic_seed(2)
    shuffled(cards, seed)
    assert cards == parse_cards("AS 2S 3S")
    assert shuffled([], seed) == ()
    assert shuffled(parse_cards("KH"), seed) == (Card.parse("KH"),)


def test_all_orders_of_three_cards_about_equally_likely__R_DEAL_1() -> None:
    """The classic off-by-one shuffle (j below n, not below i + 1) makes some of the 6 orders
    1.25 times likelier than others; over 6000 fixed seeds that shows as a huge chi-square."""
    cards = parse_cards("AS 2S 3S")
    counts = Counter(shuffled(cards, deterministic_seed(i)) for i in range(6000))
    assert set(counts) == set(permutations(cards))
    expected = 6000 / 6
    chi_square = sum((c - expected) ** 2 / expected for c in counts.values())
    # 5 degrees of freedom: P(chi2 > 30) < 2e-5; the biased shuffle gives about 60.
    assert chi_square < 30, counts


def test_position_of_one_card_about_uniform__R_DEAL_1() -> None:
    cards = shoe(1)  # 53 cards; follow the ace of spades
    trials = 3000
    positions = Counter(shuffled(cards, deterministic_seed(i)).index(cards[0]) for i in range(trials))
    expected = trials / len(cards)
    chi_square = sum((positions.get(p, 0) - expected) ** 2 / expected for p in range(len(cards)))
    # 52 degrees of freedom: mean 52, sd about 10; the bound is more than 6 sd away.
    assert chi_square < 120, positions
