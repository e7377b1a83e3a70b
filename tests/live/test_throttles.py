"""The API's rate limits with several daphnes: counted in Redis, so the daphnes serving one port
(``rummysite.daphnes``) hold one limit between them, not one each."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis

from tests.live.stack import Stack

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.usefixtures("live_db")]


def _ask_for_a_token(port: int) -> int:
    """An anonymous request (counted by address): POST /api/auth/token/ with no password."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/auth/token/",
        data=json.dumps({}).encode(),
        headers={"Host": "127.0.0.1", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:  # noqa: S310 (our own server)
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_two_daphnes_hold_one_api_rate_limit_between_them(tmp_path: Path):
    stack = Stack(tmp_path, API_THROTTLE_ANON="3/min", GAME_TIMERS="off")
    try:
        stack.redis()
        ports = [stack.daphne("one"), stack.daphne("two")]
        answers = [_ask_for_a_token(ports[turn % 2]) for turn in range(6)]
    finally:
        stack.close()
    assert 429 not in answers[:3], answers  # three from the address, across both daphnes
    assert answers[3:] == [429, 429, 429], answers  # one limit: each daphne alone had room


def test_a_daphne_counts_over_the_redis_connections_it_has(tmp_path: Path):
    """Not a new connection to Redis for each request: Django's ``caches`` gives each ASGI
    request a cache of its own, with a connection pool of its own (``api.throttling.counts``)."""
    stack = Stack(tmp_path, API_THROTTLE_ANON="1000/min", GAME_TIMERS="off")
    try:
        stack.redis()
        port = stack.daphne()
        assert _ask_for_a_token(port) == 400  # the first count connects
        probe = redis.Redis(port=stack.redis_port, socket_timeout=5)
        before = probe.info("stats")["total_connections_received"]
        answers = [_ask_for_a_token(port) for _ in range(20)]
        after = probe.info("stats")["total_connections_received"]
        probe.close()
    finally:
        stack.close()
    assert answers == [400] * 20, answers
    assert after - before <= 2, f"{after - before} new connections to Redis for 20 requests"
