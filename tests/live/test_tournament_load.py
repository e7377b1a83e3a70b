"""The tournament load harness in CI, small: a sit-and-go of 12 registered over the API, seated
from the page socket's frames, two rounds played at their tables beside ordinary tables, against
a real daphne (the embedded default); it fails on an error, a failed registration or an
unexpected close, never on speed (docs/PERFORMANCE.md, "Tournaments")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.live.test_loadtest import scratch_daphne, scratch_site
from tests.live.test_multiprocess import ROOT


def test_a_small_tournament_is_registered_seated_and_played_through_two_rounds(tmp_path: Path):
    """R-TOUR-3: 12 players at tables of 3, one through from each: round 1 at 4 tables, round 2
    at 2, each player finding their table from the seating frame of their own page socket."""
    env = scratch_site(tmp_path / "load.sqlite3")
    with scratch_daphne(env, tmp_path / "daphne.log") as (port, _):
        figures = tmp_path / "tournament.json"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "loadtest.tournament",
                f"--url=http://127.0.0.1:{port}",
                "--players=12",
                "--table-size=3",
                "--qualify=1",
                "--rate=5",
                "--drop=0.6",
                "--others=2",
                "--move-seconds=20",
                f"--json={figures}",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert run.returncode == 0, run.stdout + run.stderr[-3000:]
        report = json.loads(figures.read_text())
        assert report["tables_by_round"] == [4, 2]
        assert report["registration_failures"] == 0
        assert report["errors"] == {}
        assert report["closes"] == 0
        assert report["actions"] > 12  # at least a drop or a move by each table's players
        assert report["others_tables"] == 2
        assert len(report["reseat_seconds"]) == 2
        assert report["end"] == "voided"
