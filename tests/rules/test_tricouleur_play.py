"""Tricouleur over whole games: an independent naive move generator, 1,000 seeded random
self-play games, golden playthroughs, and a real match of subprocess random bots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.core import Termination
from referee.games.hex import DIRECTIONS, bits
from referee.games.tricouleur import Tricouleur, TricouleurState
from referee.games.tricouleur.notation import BOARD
from tests.golden import check_golden
from tests.golden import playthrough as golden_playthrough
from tests.matches import play_and_adjudicate

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "tricouleur"
ROOT = Path(__file__).resolve().parents[2]

Cell = tuple[int, int]


# --- an independent, deliberately naive move generator -----------------------------------


def naive_moves(state: TricouleurState, closer_captures: bool, metric: str) -> set[str]:
    """The legal moves as text, from docs/rules/tricouleur.md (its definitions) on axial coordinates
    (sets of cells, no bit masks, no precomputed tables)."""
    radius = 7
    cells = {
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if abs(q + r) <= radius
    }

    def name(cell: Cell) -> str:
        q, r = cell
        return f"{chr(ord('a') + q + r + 7)}{q + 8}"

    def steps(a: Cell, b: Cell) -> int:
        dq, dr = a[0] - b[0], a[1] - b[1]
        return max(abs(dq), abs(dr), abs(dq + dr))

    def dist(a: Cell, b: Cell) -> int:
        if metric == "steps":
            return steps(a, b)
        dq, dr = a[0] - b[0], a[1] - b[1]
        return dq * dq + dq * dr + dr * dr

    owner: dict[Cell, tuple[int, int]] = {}
    for kind, mask in enumerate(state.stones):
        for slot in bits(mask):
            owner[BOARD.coords[slot]] = (kind // 3, kind % 3)
    seat = state.to_move
    assert seat is not None
    enemies = {c for c, (s, _) in owner.items() if s != seat}
    captures: set[str] = set()
    plain: set[str] = set()
    for start, (s, colour) in owner.items():
        if s != seat:
            continue
        prey = (colour + 1) % 3  # red -> white -> blue -> red
        for dq, dr in DIRECTIONS:
            target = (start[0] + dq, start[1] + dr)
            if target in enemies:
                captures.add(f"{name(start)}x{name(target)}")
            interior: list[Cell] = []
            end = target
            while end in cells and end not in owner:
                victims = {
                    y
                    for y in enemies
                    if owner[y][1] == prey
                    and any(steps(y, c) == 1 for c in interior)
                    and steps(y, start) != 1
                    and steps(y, end) != 1
                }
                closer = any(dist(end, y) < dist(start, y) for y in enemies)
                text = f"{name(start)}-{name(end)}"
                if victims and (closer or not closer_captures):
                    captures.add(text)
                elif not victims and closer:
                    plain.add(text)
                interior.append(end)
                end = (end[0] + dq, end[1] + dr)
    return captures or plain


OPTION_SETS = [
    {},
    {"closer-applies-to-captures": "no"},
    {"closer-metric": "steps"},
    {"closer-applies-to-captures": "no", "closer-metric": "steps"},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o.values()) or "default")
def test_naive_generator_agrees(options: dict[str, str]) -> None:
    game = Tricouleur(options)
    closer_captures = game.options["closer-applies-to-captures"] == "yes"
    metric = game.options["closer-metric"]
    rng = random.Random(21)
    positions = 0
    for _ in range(4):
        state = game.initial_state(2)
        while state.to_move is not None:
            got = [game.format_move(state, m) for m in state.legal_moves()]
            assert len(set(got)) == len(got)
            assert set(got) == naive_moves(state, closer_captures, metric), game.encode(state)
            positions += 1
            state = state.play(rng.choice(state.legal_moves()))
    assert positions > 150


# --- 1,000 random games -------------------------------------------------------------------

GAMES = 1000
MAX_PLIES = 2000
"""No game comes near this: a capture every 40 plies at most, 36 stones."""


@pytest.mark.marathon
def test_thousand_random_games_end_and_keep_the_contract() -> None:
    game = Tricouleur()
    endings = {"win": 0, "draw": 0}
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = game.initial_state(2)
        checked = seed % 50 == 0  # the heavier invariants on every 50th game
        while state.to_move is not None:
            moves = state.legal_moves()
            assert moves and state.outcome() is None
            if checked:
                assert game.decode(game.encode(state)) == state
                assert len(set(moves)) == len(moves)
                for move in moves[:20]:
                    assert game.parse_move(state, game.format_move(state, move)) == move
                    assert state.is_legal(move)
            before = state
            move = moves[rng.randrange(len(moves))]
            state = state.play(move) if checked else state._apply(move)
            assert state.ply == before.ply + 1 <= MAX_PLIES
            mover = 0 if before.to_move == 0 else 1
            # the mover never loses a stone on its own move
            assert state.armies(mover).bit_count() == before.armies(mover).bit_count()
        outcome = state.outcome()
        assert outcome is not None and outcome.termination is Termination.RULES
        assert state.legal_moves() == ()
        if outcome.ranks == (1, 1):
            assert state.quiet == 40
            endings["draw"] += 1
        else:
            loser = outcome.ranks.index(2)
            assert state.armies(loser) == 0 and state.armies(1 - loser)
            endings["win"] += 1
    assert endings["win"] + endings["draw"] == GAMES and endings["win"] > 0


# --- golden playthroughs --------------------------------------------------------------------

GOLDEN = {
    "default": ({}, 3),
    "steps-no-closer-captures": (
        {"closer-metric": "steps", "closer-applies-to-captures": "no"},
        5,
    ),
    "draw-12": ({"no-capture-draw": "12"}, 15),  # seed 15 ends in the draw at ply 44
}


def playthrough(options: dict[str, str], seed: int) -> str:
    """A seeded random game, ply by ply, as text."""
    return golden_playthrough(Tricouleur(options), 2, seed, scores=False)


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
    _, _, verdicts = play_and_adjudicate(capsys, tmp_path / "games.tgn", "tricouleur", 2)
    assert len(verdicts) == 4
    assert all(line["verdict"] == "confirmed" for line in verdicts), verdicts
