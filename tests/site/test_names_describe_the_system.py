"""Names, comments and docs describe the system as it is, never the work that built it: no file
in the tree names an issue or a work session by number, and no test module is named after one.
A reader has neither; history belongs in ``git log``. Migrations already applied keep their
names and texts: databases record them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The word, then a number: an issue or a session named by number, singular or plural, with or
#: without "#" (built in two parts so that this file does not match itself).
HISTORY = re.compile(r"\b(" + "issue|" + r"session)s? #?[0-9]{1,3}\b", re.IGNORECASE)
NAMED_AFTER_AN_ISSUE = re.compile(r"(^|/)test_i[0-9]+_")
#: Generated or binary files, and the dependency locks (hashes can hold any digits).
SKIPPED = re.compile(r"(^|/)migrations/|\.(png|svg|jsonl|ico|woff2?)$|^requirements.*\.txt$")


def tracked_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [name for name in listed if not SKIPPED.search(name) and (ROOT / name).is_file()]


def test_no_file_names_an_issue_or_a_session_by_number():
    found = []
    for name in tracked_files():
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, "say what the code does, not which task brought it:\n" + "\n".join(found)


def test_no_test_module_is_named_after_an_issue():
    named = [name for name in tracked_files() if NAMED_AFTER_AN_ISSUE.search(name)]
    assert not named, f"name each test module by what it proves: {named}"


def test_the_pattern_finds_what_it_is_meant_to():
    # Each example is split inside its word, so that this line does not match itself.
    for text in ("see iss" + "ue 13", "Iss" + "ues 17 and 18", "before sess" + "ion 4", "Sess" + "ion #12's"):
        assert HISTORY.search(text), text
    for text in ("a session of 30 minutes", "the issue of a card", "sessions end at log-out"):
        assert not HISTORY.search(text), text
    assert NAMED_AFTER_AN_ISSUE.search("tests/api/test_i13_input.py")
    assert not NAMED_AFTER_AN_ISSUE.search("tests/api/test_input.py")
