"""Tests run with timers off unless they turn them on: a write sends no deadline task."""

from __future__ import annotations

from django.conf import settings


def test_timers_are_off_in_tests():
    assert settings.GAME_TIMERS == "off"


def test_a_test_can_turn_the_timers_on(settings):
    settings.GAME_TIMERS = "celery"
    from games import timers

    assert timers.mode() == "celery"
