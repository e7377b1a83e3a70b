"""The engine is a dependency-free package: standard library only, never Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_imports_only_the_standard_library_and_itself():
    sources = sorted(ENGINE.rglob("*.py"))
    assert len(sources) >= 10
    for path in sources:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if name.startswith("games.engine") or top == "__future__":
                continue
            assert top in sys.stdlib_module_names, (
                f"{path.name} imports {name}, not from the standard library"
            )


def test_engine_imports_with_django_unavailable():
    modules = [f"games.engine.{path.stem}" for path in sorted(ENGINE.glob("*.py")) if path.stem != "__main__"]
    code = "import sys; sys.modules['django'] = None\n" + "".join(f"import {m}\n" for m in modules)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ENGINE.parents[1], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_games_package_imports_nothing_from_django():
    assert imported_modules(ENGINE.parent / "__init__.py") == set()
