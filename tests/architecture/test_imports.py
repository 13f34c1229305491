"""The house plan holds: no import circles, and imports point down the layers only.

The graph is read from the source (every ``import`` and ``from … import`` statement,
including those inside functions and ``TYPE_CHECKING`` blocks: a lazy import is still a
dependency), so the test needs no package to be importable.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("protocol", "referee", "bots", "tournaments")
"""The top-level packages, lowest layer first."""
TOURNAMENT_ROOMS = (
    "results",
    "event",
    "store",
    "play",
    "checks",
    "cluster",
    "runner",
    "html",
    "live",
    "bench",
    "cli",
)
"""``tournaments``' sub-packages, lowest first (as its ``__init__`` docstring lists them)."""
MAX_MODULES_PER_FOLDER = 15


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _imports(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The project modules that ``name`` imports (a ``from pkg import mod`` names ``pkg.mod``)."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            # ``from pkg import mod`` depends on ``pkg.mod``; ``from mod import name`` on ``mod``.
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    # Only written imports count: that importing ``a.b.c`` first runs ``a/b/__init__`` is
    # implied, so a package that re-exports its own modules is not a circle.
    return {name: set(_imports(name, path, known)) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _layer(module: str) -> tuple[int, int]:
    parts = module.split(".")
    top = PACKAGES.index(parts[0])
    room = -1
    if parts[0] == "tournaments" and len(parts) > 1 and parts[1] in TOURNAMENT_ROOMS:
        room = TOURNAMENT_ROOMS.index(parts[1])
    return top, room


def _points_up(source: str, target: str) -> bool:
    """True when ``source`` imports a higher layer: a higher top-level package, or a
    higher room of ``tournaments`` (its ``__init__`` and ``__main__`` stand above them all)."""
    (source_top, source_room), (target_top, target_room) = _layer(source), _layer(target)
    if target_top != source_top:
        return target_top > source_top
    return source_room >= 0 and target_room > source_room


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    cycles = _cycles(_graph())
    assert not cycles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_no_package_imports_a_higher_layer() -> None:
    upward = [
        f"{source} -> {target}"
        for source, targets in sorted(_graph().items())
        for target in sorted(targets)
        if _points_up(source, target)
    ]
    assert not upward, "imports pointing up a layer:\n" + "\n".join(upward)


def test_every_tournaments_module_lives_in_a_room() -> None:
    loose = [
        path.name
        for path in (ROOT / "tournaments").glob("*.py")
        if path.name not in {"__init__.py", "__main__.py"}
    ]
    rooms = sorted(p.name for p in (ROOT / "tournaments").iterdir() if (p / "__init__.py").exists())
    assert loose == []
    assert rooms == sorted(TOURNAMENT_ROOMS)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_folder_holds_more_than_fifteen_modules(package: str) -> None:
    crowded = {
        str(folder.relative_to(ROOT)): count
        for folder in [ROOT / package, *(p for p in (ROOT / package).rglob("*") if p.is_dir())]
        if (count := len([m for m in folder.glob("*.py") if m.name != "__init__.py"]))
        > MAX_MODULES_PER_FOLDER
    }
    assert not crowded, crowded


def test_the_checker_sees_a_circle_and_an_upward_import() -> None:
    """The two checks can fail: fed a made-up graph, each finds what it must."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _points_up("tournaments.results.elo", "tournaments.cli.app")
    assert not _points_up("tournaments.cli.app", "tournaments.results.elo")
    assert _points_up("protocol.codec", "referee.core")
    assert _points_up("bots.engine", "tournaments.event.engines")
    assert not _points_up("tournaments.__main__", "tournaments.cli.app")
    assert _points_up("tournaments.store.journal", "tournaments.play.slot")
    assert not _points_up("tournaments.play.slot", "tournaments.store.transcripts")
