"""Layers point one way (docs/ARCHITECTURE.md): under everything ``hotpath``, the hot paths'
database access (``hotpath.jsontext``: orjson only; ``hotpath.pgpipe``: psycopg only;
``hotpath.statements``: Django only), then the rules engine and accounts, then player
protection, then the wallet, then games, then fair play and the tournaments (beside each other,
not neighbours), then the back office and the API, then the site. A module may import its own
app, an app of its layer's neighbour beside it (the back office and the API), or a layer below;
never a layer above. And no import cycle among the project's modules.

``KNOWN_UPWARD`` lists the upward imports the project still has, so that CI fails on any new
one; it may only shrink (a test checks that each entry is still real)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Lowest first; a longer name wins (``games.engine`` is not ``games``).
LAYERS = {
    "hotpath.statements": -1,  # Django only: the statements the hot paths build once
    "hotpath.jsontext": -2,  # orjson only: JSON text for the hot paths (statements uses it)
    "hotpath.pgpipe": -2,  # psycopg only: statements pipelined through libpq (statements uses it)
    "hotpath": -3,  # the package itself: its __init__ imports nothing
    "games.engine": 0,
    "accounts": 0,
    "protection": 1,
    "wallet": 2,
    "games": 3,
    "fairplay": 4,
    "tournaments": 4,
    "backoffice": 5,
    "api": 5,
    "rummysite": 6,
    "loadtest": 6,
}

#: Upward imports still there (none: the staff pages of the apps below live in
#: ``backoffice.admin_*``); a new one fails the test.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def app_of(module: str) -> str | None:
    for name in sorted(LAYERS, key=len, reverse=True):
        if module == name or module.startswith(name + "."):
            return name
    return None


def project_modules() -> dict[str, Path]:
    modules = {}
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if relative.parts[0] in (".venv", "tests", "var") or "migrations" in relative.parts:
            continue
        name = ".".join(relative.with_suffix("").parts)
        name = name.removesuffix(".__init__")
        if app_of(name) is not None:
            modules[name] = path
    return modules


def imports_of(path: Path, *, top_level_only: bool) -> set[str]:
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else ast.walk(tree)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # "from games import live" imports the module games.live; "from games.x import y", games.x.
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(
                    submodule if (ROOT / (submodule.replace(".", "/") + ".py")).exists() else node.module
                )
    return found


def upward_imports() -> set[tuple[str, str]]:
    upward = set()
    for module, path in project_modules().items():
        source = app_of(module)
        assert source is not None
        for target in imports_of(path, top_level_only=False):
            app = app_of(target)
            if app is None or app == source or (source == "games" and app == "games.engine"):
                continue
            if LAYERS[app] > LAYERS[source]:
                upward.add((module, app))
            elif LAYERS[app] == LAYERS[source] and {app, source} != {"backoffice", "api"}:
                upward.add((module, app))  # beside, but not neighbours: as bad as upward
    return upward


def test_no_module_imports_a_layer_above_its_own():
    new = upward_imports() - KNOWN_UPWARD
    assert not new, f"upward imports (docs/ARCHITECTURE.md, layers): {sorted(new)}"


def test_the_list_of_known_upward_imports_only_shrinks():
    gone = KNOWN_UPWARD - upward_imports()
    assert not gone, f"fixed: remove these from KNOWN_UPWARD: {sorted(gone)}"


def test_the_rules_engine_imports_nothing_of_the_project():
    for module, path in project_modules().items():
        if app_of(module) == "games.engine":
            outside = {
                t for t in imports_of(path, top_level_only=False) if app_of(t) not in (None, "games.engine")
            }
            assert not outside, f"{module} imports {outside}"


def test_no_import_cycle_among_the_projects_modules():
    modules = project_modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in modules.items():
        for target in imports_of(path, top_level_only=True):
            if target in modules and target != module:
                graph[module].add(target)
    seen: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        seen[module] = 1
        for target in sorted(graph[module]):
            if seen.get(target) == 1:
                cycle = [*path[path.index(target) :], target] if target in path else [module, target]
                raise AssertionError(f"an import cycle: {' -> '.join(cycle)}")
            if target not in seen:
                visit(target, [*path, target])
        seen[module] = 2

    for module in sorted(modules):
        if module not in seen:
            visit(module, [module])
