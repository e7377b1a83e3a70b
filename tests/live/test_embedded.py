"""The embedded default (as ``make run``: SQLite, no Redis, no Celery): daphne's own scheduler
applies deadlines and moves bots, and the players see it on the wire."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from websockets.asyncio.client import connect

from tests.live.test_multiprocess import ROOT, free_port, wait_for_port

SETUP = """
import json
from django.test import Client
from accounts.models import User
from games.models import TableTemplate
from wallet.cashier import topup_chips

alice = User.objects.create_user("alice")
robo = User.objects.create_user("robo", is_bot=True)
for user in (alice, robo):
    topup_chips(user)
template = TableTemplate.objects.create(
    name="practice", variant="pool101", currency="CHIPS", seats=2, entry_fee=1000,
    move_seconds=3, extra_seconds=0, bots_allowed=True,
)
client = Client()
client.force_login(alice)
print(json.dumps({"cookie": client.cookies["sessionid"].value, "alice": str(alice.pk), "robo": str(robo.pk)}))
"""

# Run once daphne is up, so that alice's first deadline falls while she watches: seated before,
# a slow start-up could see her miss three moves and leave before the test connects.
SEAT = """
import json
from accounts.models import User
from games import services
from games.models import TableTemplate

template = TableTemplate.objects.get(name="practice")
services.play_now(User.objects.get(username="alice"), template)
table = services.play_now(User.objects.get(username="robo"), template)
print(json.dumps({"table": table.pk}))
"""


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_embedded_scheduler_times_out_moves_and_moves_bots_inside_daphne(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "GAME_TIMERS")}
    env.update(
        DEBUG="1", SQLITE_PATH=str(tmp_path / "embedded.sqlite3"), DJANGO_SETTINGS_MODULE="rummysite.settings"
    )
    manage(env, "migrate", "--noinput")
    setup = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    port = free_port()
    log = (tmp_path / "daphne.log").open("wb")
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "rummysite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, daphne)
        setup.update(json.loads(manage(env, "shell", "-c", SEAT).strip().splitlines()[-1]))

        async def watch() -> list[dict]:
            frames = []
            async with connect(
                f"ws://127.0.0.1:{port}/ws/tables/{setup['table']}/",
                additional_headers={
                    "Cookie": f"sessionid={setup['cookie']}",
                    "Origin": f"http://127.0.0.1:{port}",
                },
                open_timeout=10,
            ) as socket_:
                end = time.monotonic() + 60  # a bound for a busy machine; done when both are seen
                while time.monotonic() < end:
                    try:
                        frames.append(
                            json.loads(await asyncio.wait_for(socket_.recv(), end - time.monotonic()))
                        )
                    except TimeoutError:
                        break
                    data = [
                        f.get("data", {})
                        for f in frames
                        if f.get("type") in ("missed_move", "drew", "dropped")
                    ]
                    missed = any(d.get("player") == setup["alice"] and "missed" in d for d in data)
                    bot_moved = any(d.get("player") == setup["robo"] and "missed" not in d for d in data)
                    if missed and bot_moved:
                        break
            return frames

        frames = asyncio.run(watch())
    finally:
        daphne.terminate()
        try:
            daphne.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daphne.kill()
            daphne.wait(timeout=10)
    moves = [
        (f["type"], f["data"].get("player"))
        for f in frames
        if f.get("type") in ("missed_move", "drew", "dropped")
    ]
    logs = f"{moves}\n--- daphne\n{(tmp_path / 'daphne.log').read_text()[-3000:]}"
    assert ("missed_move", setup["alice"]) in moves, f"alice's move timed out with no Celery running\n{logs}"
    assert any(player == setup["robo"] and kind != "missed_move" for kind, player in moves), (
        f"the bot moved\n{logs}"
    )
