"""Perft tables from tests/data/perft/*.perft, one test per ``perft`` line.

On a mismatch the test prints the divide (the count under each first move).
Shallow Trike entries are also recounted by a naive generator written
independently of ``referee.games.trike`` (coordinates and sets, no precomputed
rays), so a table computed with a buggy generator cannot go unnoticed.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.core import Game, State
from referee.perft import divide, perft
from referee.registry import make_game
from tests.cores import interleaved, on_every_core

PERFT_DIR = Path(__file__).resolve().parent.parent / "data" / "perft"


@dataclass(frozen=True)
class PerftCase:
    name: str
    game: str
    options: dict[str, str]
    pos: str
    depth: int
    count: int
    players: int | None = None


def _parse_options(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split(",")) if text else {}


def load_cases(path: Path) -> list[PerftCase]:
    """Parse one .perft file; a malformed line fails loudly with its line number."""
    cases: list[PerftCase] = []
    block: dict[str, str] = {}
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            block = {"id": value}
        elif key in ("game", "options", "pos", "players"):
            block[key] = value
        elif key == "perft":
            depth, count = value.split()
            cases.append(
                PerftCase(
                    name=block["id"],
                    game=block["game"],
                    options=_parse_options(block.get("options", "")),
                    pos=block["pos"],
                    depth=int(depth),
                    count=int(count),
                    players=int(block["players"]) if "players" in block else None,
                )
            )
        else:
            raise AssertionError(f"{path.name}:{number}: unknown line {raw!r}")
    return cases


CASES = [case for path in sorted(PERFT_DIR.glob("*.perft")) for case in load_cases(path)]
DEEP = 300_000
"""A case counting this many move sequences or more is a marathon (seconds each): the fast
tier keeps every table's shallower depths."""


def _start(case: PerftCase) -> tuple[Game[Any, Any], State[Any]]:
    game = make_game(case.game, case.options)
    players = case.players or game.player_counts[0]
    state = game.initial_state(players) if case.pos == "start" else game.decode(case.pos)
    return game, state


def _perft_under(case: PerftCase, firsts: Sequence[int]) -> int:
    """``perft`` of ``case`` counted under its first moves of indices ``firsts`` only
    (``perft`` is the sum over the first moves: ``test_divide_sums_to_perft``)."""
    _, state = _start(case)
    moves = state.legal_moves()
    return sum(perft(state.play(moves[i]), case.depth - 1) for i in firsts)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=f"{c.name}-d{c.depth}", marks=[pytest.mark.marathon] * (c.count >= DEEP))
        for c in CASES
    ],
)
def test_perft(case: PerftCase) -> None:
    game, state = _start(case)
    if case.count >= DEEP:  # the first moves' subtrees shared among the cores
        firsts = interleaved(range(len(state.legal_moves())))
        got = sum(on_every_core(functools.partial(_perft_under, case), firsts))
    else:
        got = perft(state, case.depth)
    if got != case.count:
        lines = "\n".join(f"  {move}: {n}" for move, n in divide(game, state, case.depth))
        pytest.fail(
            f"{case.name} depth {case.depth}: perft {got}, expected {case.count}\ndivide:\n{lines}"
        )


def test_table_has_the_given_facts() -> None:
    default = {c.depth: c.count for c in CASES if c.name == "start-default"}
    assert default[1] == 45
    assert default[2] == 765
    assert 3 in default


def test_divide_sums_to_perft() -> None:
    game = make_game("trike")
    state = game.initial_state(2)
    split = divide(game, state, 3)
    assert len(split) == 45
    assert split[0][0] == "a1"
    assert sum(n for _, n in split) == perft(state, 3)


def test_perft_rejects_negative_depth() -> None:
    state = make_game("trike").initial_state(2)
    with pytest.raises(ValueError):
        perft(state, -1)
    with pytest.raises(ValueError):
        divide(make_game("trike"), state, 0)


# --- an independent, deliberately naive Trike move counter ------------------------------

Cell = tuple[int, int]


@dataclass(frozen=True)
class NaiveTrike:
    """Occupancy only: who owns a checker never changes how many moves exist."""

    size: int
    mode: str
    pie: bool

    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.size) for c in range(r + 1)]

    def moves(self, occupied: frozenset[Cell], pawn: Cell | None, ply: int) -> list[Any]:
        empty = [cell for cell in self.cells() if cell not in occupied]
        if pawn is None:
            return empty
        targets: list[Any] = []
        for dr, dc in ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)):
            r, c = pawn
            while True:
                r, c = r + dr, c + dc
                if not (0 <= c <= r < self.size) or (r, c) in occupied:
                    break
                targets.append((r, c))
        if targets:
            return targets + (["swap"] if self.pie and ply == 1 else [])
        return [] if self.mode == "zero" else empty

    def count(self, occupied: frozenset[Cell], pawn: Cell | None, ply: int, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in self.moves(occupied, pawn, ply):
            if move == "swap":
                total += self.count(occupied, pawn, ply + 1, depth - 1)
            else:
                total += self.count(occupied | {move}, move, ply + 1, depth - 1)
        return total


def _naive_start(case: PerftCase) -> tuple[NaiveTrike, frozenset[Cell], Cell | None, int]:
    options = {"size": "9", "mode": "zero", "pie": "yes", **case.options}
    naive = NaiveTrike(int(options["size"]), options["mode"], options["pie"] == "yes")
    if case.pos == "start":
        return naive, frozenset(), None, 0
    fields = case.pos.split(":")
    rows = fields[3].split("/")
    occupied = frozenset(
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."
    )
    pawn_text = fields[4]
    pawn = None if pawn_text == "-" else (ord(pawn_text[0]) - ord("a"), int(pawn_text[1:]) - 1)
    return naive, occupied, pawn, int(fields[6])


SHALLOW_TRIKE = [c for c in CASES if c.game == "trike" and c.depth <= 3]


@pytest.mark.parametrize("case", SHALLOW_TRIKE, ids=[f"{c.name}-d{c.depth}" for c in SHALLOW_TRIKE])
def test_naive_generator_agrees(case: PerftCase) -> None:
    naive, occupied, pawn, ply = _naive_start(case)
    assert naive.count(occupied, pawn, ply, case.depth) == case.count


def test_naive_generator_checks_start_sizes() -> None:
    for size in (7, 8, 9, 10):
        game = make_game("trike", {"size": str(size)})
        naive = NaiveTrike(size, "zero", True)
        for depth in (1, 2, 3):
            assert perft(game.initial_state(2), depth) == naive.count(frozenset(), None, 0, depth)
