"""Whistling Captures over whole games: an independent naive chain generator, 1,000
seeded random self-play games, golden playthroughs, and a real match of subprocess
random bots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.core import Termination
from referee.games.hex import DIRECTIONS, bits
from referee.games.whistling import WhistlingCaptures, WhistlingState
from referee.games.whistling.notation import BOARD, LETTERS
from tests.golden import check_golden
from tests.golden import playthrough as golden_playthrough
from tests.matches import play_and_adjudicate

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "whistling-captures"
ROOT = Path(__file__).resolve().parents[2]

Cell = tuple[int, int]


# --- an independent, deliberately naive move generator -----------------------------------


def naive_moves(state: WhistlingState, closer_captures: bool) -> set[str]:
    """The legal moves as text, straight from docs/rules/whistling-captures.md on axial coordinates:
    every chain prefix is enumerated, then the maximum is applied."""
    radius = 10
    cells = {
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if abs(q + r) <= radius
    }

    def name(cell: Cell) -> str:
        q, r = cell
        return f"{LETTERS[2 * q + r + 20]}{r + 11}"

    def touch(a: Cell, b: Cell) -> bool:
        dq, dr = a[0] - b[0], a[1] - b[1]
        return max(abs(dq), abs(dr), abs(dq + dr)) == 1

    def d2(a: Cell, b: Cell) -> int:
        dq, dr = a[0] - b[0], a[1] - b[1]
        return dq * dq + dq * dr + dr * dr

    seat = state.to_move
    assert seat is not None
    mine = {BOARD.coords[s] for s in bits(state.stones[seat])}
    theirs = {BOARD.coords[s] for s in bits(state.stones[1 - seat])}
    found: list[tuple[str, int]] = []

    def extend(
        p0: Cell, here: Cell, last: int, enemies: set[Cell], path: list[Cell], n: int
    ) -> None:
        friends = mine - {p0}
        for d, (dq, dr) in enumerate(DIRECTIONS):
            if d == last:
                continue
            interior: list[Cell] = []
            end = (here[0] + dq, here[1] + dr)
            while end in cells and end not in friends and end not in enemies:
                victims = {
                    y
                    for y in enemies
                    if any(touch(y, c) for c in interior)
                    and not touch(y, here)
                    and not touch(y, end)
                }
                if victims:
                    total = n + len(victims)
                    if not closer_captures or any(d2(end, y) < d2(p0, y) for y in theirs):
                        found.append(("-".join(name(c) for c in [*path, end]), total))
                    extend(p0, end, d, enemies - victims, [*path, end], total)
                interior.append(end)
                end = (end[0] + dq, end[1] + dr)

    crushes = []
    for p0 in mine:
        extend(p0, p0, -1, theirs, [p0], 0)
        crushes += [f"{name(p0)}x{name(y)}" for y in theirs if touch(p0, y)]
    best = max([n for _, n in found] + [1 if crushes else 0])
    if best:
        return {text for text, n in found if n == best} | (set(crushes) if best == 1 else set())
    plain = set()
    for p0 in mine:
        for dq, dr in DIRECTIONS:
            end = (p0[0] + dq, p0[1] + dr)
            while end in cells and end not in mine and end not in theirs:
                if any(d2(end, y) < d2(p0, y) for y in theirs):
                    plain.add(f"{name(p0)}-{name(end)}")
                end = (end[0] + dq, end[1] + dr)
    return plain


@pytest.mark.parametrize("closer", ["yes", "no"])
def test_naive_generator_agrees(closer: str) -> None:
    game = WhistlingCaptures({"closer-applies-to-captures": closer})
    rng = random.Random(31)
    positions = captures = 0
    for _ in range(3 if closer == "yes" else 2):
        state = game.initial_state(2)
        while state.to_move is not None:
            got = [game.format_move(state, m) for m in state.legal_moves()]
            assert len(set(got)) == len(got)
            assert set(got) == naive_moves(state, closer == "yes"), game.encode(state)
            positions += 1
            captures += state.max_capture() > 0
            state = state.play(rng.choice(state.legal_moves()))
    assert positions > 40 and captures > 15


# --- 1,000 random games -------------------------------------------------------------------

GAMES = 1000
MAX_PLIES = 1000


@pytest.mark.marathon
def test_thousand_random_games_end_and_keep_the_contract() -> None:
    game = WhistlingCaptures()
    endings = {"win": 0, "draw": 0}
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = game.initial_state(2)
        checked = seed % 50 == 0  # the heavier invariants on every 50th game
        while state.to_move is not None:
            moves = state.legal_moves()
            assert moves and state.outcome() is None
            need = state.max_capture()
            if checked:
                assert game.decode(game.encode(state)) == state
                assert len(set(moves)) == len(moves)
                for move in moves[:20]:
                    assert game.parse_move(state, game.format_move(state, move)) == move
                    assert state.is_legal(move)
            mover = state.to_move
            before = state.stones[1 - mover].bit_count()
            move = moves[rng.randrange(len(moves))]
            state = state.play(move) if checked else state._apply(move)
            assert state.ply <= MAX_PLIES
            assert before - state.stones[1 - mover].bit_count() == need  # exactly M taken
        outcome = state.outcome()
        assert outcome is not None and outcome.termination is Termination.RULES
        assert state.legal_moves() == ()
        if outcome.ranks == (1, 1):
            assert state.quiet == 40
            endings["draw"] += 1
        else:
            loser = outcome.ranks.index(2)
            assert state.stones[loser] == 0 and state.stones[1 - loser]
            endings["win"] += 1
    assert endings["win"] + endings["draw"] == GAMES and endings["win"] > 0


# --- golden playthroughs --------------------------------------------------------------------

GOLDEN = {
    "default": ({}, 2),
    "no-closer-captures": ({"closer-applies-to-captures": "no"}, 4),
    "draw-10": ({"no-capture-draw": "10"}, 56),  # seed 56 ends in the draw at ply 36
}


def _must_take(state: WhistlingState) -> str:
    return f" must-take {state.max_capture()}"


def playthrough(options: dict[str, str], seed: int) -> str:
    """A seeded random game, ply by ply, as text."""
    return golden_playthrough(
        WhistlingCaptures(options), 2, seed, legal_note=_must_take, scores=False
    )


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_playthrough(name: str) -> None:
    options, seed = GOLDEN[name]
    path = GOLDEN_DIR / f"{name}.txt"
    text = playthrough(options, seed)
    check_golden(path, text)


# --- a real match ---------------------------------------------------------------------------


@pytest.mark.processes
def test_random_bots_match_is_adjudicated_confirmed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, verdicts = play_and_adjudicate(capsys, tmp_path / "games.tgn", "whistling-captures", 2)
    assert len(verdicts) == 4
    assert all(line["verdict"] == "confirmed" for line in verdicts), verdicts
