"""Tricolor at scale: perft to the end of the game, 1,000 random games per board size, the CLI,
and a real subprocess match adjudicated as confirmed.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.adjudicate import adjudicate
from referee.games.tricolor import Tricolor, TricolorState
from referee.games.tricolor import configs as configs_module
from referee.games.tricolor.configs import (
    Configs,
    acute_sectors,
    cell_masks,
    completed,
    configs_for,
    hexagon_triples,
    on_board,
    triangle_neighbours,
)
from referee.games.tricolor.geometry import (
    Board,
    board_for,
    l_valid,
    position_valid,
    r_valid,
    vertex_interior,
)
from referee.perft import perft
from referee.record import build_record
from tests.clirun import RefereeCli
from tests.cores import interleaved, on_every_core
from tests.matches import play_and_adjudicate
from tests.rules.test_perft import PERFT_DIR, load_cases

ROOT = Path(__file__).resolve().parent.parent.parent
DEEP = PERFT_DIR / "tricolor-deep" / "n2-start.perft"


def perft_profile(state: TricolorState, memo: dict[int, list[int]]) -> list[int]:
    """``[perft(state, d) for d in 0, 1, …]`` up to the first 0.

    Transpositions are merged on the placed pieces, which is exact for Tricolor: the legal
    placements (colour ``ply % 3``, free positions) and the end of the game depend only
    on the pieces on the board, not on scores or seats.
    """
    profile = memo.get(state.placed)
    if profile is None:
        profile = [1]
        for move in state.legal_moves():
            for depth, count in enumerate(perft_profile(state.play(move), memo), 1):
                if depth == len(profile):
                    profile.append(0)
                profile[depth] += count
        profile.append(0)
        memo[state.placed] = profile = profile[: profile.index(0) + 1]
    return profile


@functools.cache
def start_profile(n: int) -> list[int]:
    """The whole perft profile of the empty board of side ``n`` (cached: n = 2 takes a second)."""
    return perft_profile(Tricolor({"n": str(n)}).initial_state(2), {})


def test_n2_perft_to_the_end_of_the_game() -> None:
    cases = load_cases(DEEP)
    assert [c.depth for c in cases] == list(range(1, 14))
    assert all(c.options == Tricolor({"n": "2"}).options and c.pos == "start" for c in cases)
    profile = start_profile(2)
    assert profile[1:] == [c.count for c in cases]
    assert profile[-1] == 0 and len(profile) == 3 * 2 * 2 + 2  # no game outlasts 12 plies


def test_deep_table_agrees_with_the_plain_table() -> None:
    deep = {c.depth: c.count for c in load_cases(DEEP)}
    plain = {
        c.depth: c.count
        for c in load_cases(PERFT_DIR / "tricolor.perft")
        if c.name == "tricolor-start-n2"
    }
    assert plain and all(deep[d] == count for d, count in plain.items())


@pytest.mark.parametrize(("n", "depth"), [(1, 4), (2, 5)])
def test_merged_perft_equals_plain_perft(n: int, depth: int) -> None:
    state = Tricolor({"n": str(n)}).initial_state(3)
    assert start_profile(n)[: depth + 1] == [perft(state, d) for d in range(depth + 1)]


def test_cli_perft_agrees_with_the_table(referee_cli: RefereeCli) -> None:
    # To depth 3: the table's depth 4 (3 million sequences) is test_perft's, a marathon.
    expected = [
        f"{c.depth} {c.count}"
        for c in load_cases(PERFT_DIR / "tricolor.perft")
        if c.name == "tricolor-start-default" and c.depth <= 3
    ]
    done = referee_cli("perft", "tricolor", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected


# --- 1,000 seeded random games per board size -------------------------------------------

GAMES = 1000
ROUND_TRIP_EVERY = 5
"""Plies between the heavier checks (encode/decode, move text)."""


def _self_play(game: Tricolor, seed: int, players: int) -> tuple[TricolorState, int]:
    """One random game, checking the invariants at every ply.

    Returns the final state and the number of extra moves played.
    """
    rng = random.Random(seed)
    n = game.n
    state = game.initial_state(players)
    extras = 0
    for ply in range(3 * n * n + 1):
        moves = state.legal_moves()
        outcome = state.outcome()
        assert state.ply == ply == state.placed.bit_count()
        assert (state.to_move is None) == (outcome is not None) == (moves == ())
        if ply % ROUND_TRIP_EVERY == 0 or not moves:
            text = game.encode(state)
            assert game.decode(text) == state
        if not moves:
            return state, extras
        mover = state.to_move
        assert mover is not None
        move = moves[rng.randrange(len(moves))]
        assert move // game.board.plane == ply % 3  # the global colour cycle
        if ply % ROUND_TRIP_EVERY == 0:
            assert game.parse_move(state, game.format_move(state, move)) == move
        done = completed(state.configs, state.placed, state.covered, move)
        after = state.play(move)
        gain = done.points + (after.to_move is None)
        expected = list(state.scores)
        expected[mover] += gain
        assert list(after.scores) == expected
        if after.to_move is not None:
            assert after.to_move == (mover if done.extra else (mover + 1) % players)
            extras += done.extra
        assert after.last == mover
        state = after
    raise AssertionError(f"seed {seed}: no end after {3 * n * n} placements")


def _random_games(n: int, seeds: Sequence[int]) -> tuple[list[int], int, int]:
    """The games of ``seeds`` on the board of side ``n``, each checked at every ply and
    at its end: their lengths, how many were drawn, how many extra moves were played."""
    game = Tricolor({"n": str(n)})
    lengths: list[int] = []
    draws = extras = 0
    for seed in seeds:
        players = 2 + seed % 3
        final, extra = _self_play(game, seed, players)
        extras += extra
        outcome = final.outcome()
        assert outcome is not None
        assert outcome.scores == tuple(float(s) for s in final.scores)
        assert sum(final.scores) == on_board(game.configs, final.placed, final.covered).points + 1
        assert not game.board.free_cells(final.covered, final.ply % 3)
        best = max(final.scores)
        assert [r == 1 for r in outcome.ranks] == [s == best for s in final.scores]
        draws += outcome.ranks.count(1) > 1
        lengths.append(final.ply)
    return lengths, draws, extras


@pytest.mark.marathon
@pytest.mark.parametrize("n", [2, 3, 4])
def test_thousand_random_games(n: int) -> None:
    # The seeds are shared among the cores (``tests/cores.py``): the same games and checks.
    parts = on_every_core(functools.partial(_random_games, n), interleaved(range(GAMES)))
    lengths = [length for part, _, _ in parts for length in part]
    draws = sum(part_draws for _, part_draws, _ in parts)
    extras = sum(part_extras for _, _, part_extras in parts)
    assert len(lengths) == GAMES
    assert min(lengths) >= 1 and max(lengths) <= 3 * n * n
    assert draws > 0  # equal points share the first rank
    assert extras > 0


# --- big boards: a replay checks each move without listing moves or configurations -------


def _random_texts(game: Tricolor, seed: int, plies: int) -> tuple[list[str], TricolorState]:
    """The move texts of the first ``plies`` plies of a random game (fewer if it ends)."""
    rng = random.Random(seed)
    state = game.initial_state(2)
    texts: list[str] = []
    while len(texts) < plies and state.to_move is not None:
        move = rng.choice(state.legal_moves())
        texts.append(game.format_move(state, move))
        state = state.play(move)
    return texts, state


@pytest.mark.parametrize(("n", "plies"), [(6, 10**6), (64, 300)])
def test_replay_neither_lists_moves_nor_every_configuration(
    monkeypatch: pytest.MonkeyPatch, n: int, plies: int
) -> None:
    """Adjudicating a record (n = 6: to the end; n = 64, the largest: 300 plies) checks each
    move with one bit test (``is_legal``) and each placement's few configurations
    (``Configs.of``): the move lister and the whole-board configuration walks are never
    called. Either one per ply made a 4-move record at n = 64 take ~20 s. A ``Start``
    position is decoded without a walk either: its score check counts the stars, hexagons
    and empty triangles with whole-board bit operations (``configs.on_board``)."""
    game = Tricolor({"n": str(n)})
    texts, final = _random_texts(game, n, plies)
    assert (final.to_move is None) == (n == 6)
    record = build_record(game, ["a", "b"], texts, final.outcome())
    calls: Counter[str] = Counter()

    def counted(owner: object, name: str) -> None:
        original = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapper)

    counted(TricolorState, "legal_moves")
    counted(Board, "moves_of")
    counted(configs_module, "_whole_board")
    counted(configs_module, "_vertex_configs")
    counted(configs_module, "_all_triangles")
    assert adjudicate(record).confirmed
    assert calls == Counter()

    middle = len(texts) // 2
    state = game.initial_state(2)
    for text in texts[:middle]:
        state = state.play(game.parse_move(state, text))
    started = build_record(
        game, ["a", "b"], texts[middle:], final.outcome(), start=game.encode(state)
    )
    assert adjudicate(started).confirmed
    assert calls == Counter()


@pytest.mark.parametrize(("n", "rim"), [(1, True), (2, False), (5, True), (5, False)])
def test_per_move_configurations_match_the_whole_board_lists(n: int, rim: bool) -> None:
    """``Configs.of`` (offsets around a position's vertices) and the whole-board lists
    (a walk over every vertex and triangle) are two derivations of the same sets."""
    cfg = configs_for(n, rim)
    board = cfg.board
    expected: dict[int, list[list[tuple[int, ...]]]] = {}
    for kind, masks in enumerate((cfg.crowns, cfg.stars, cfg.hexagons)):
        for ids in masks:
            for move in ids:
                expected.setdefault(move, [[], [], []])[kind].append(ids)
    bordering: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    neighbours = dict(cfg.triangles)
    for move in board.index.values():
        cover = board.tmask[move]
        own = {cover.bit_length() - 1, (cover & -cover).bit_length() - 1}
        for bit in own:
            for near in neighbours[bit]:
                if near not in own:
                    bordering.setdefault(move, []).append((near, neighbours[near]))
    for move in board.index.values():
        mine = cfg.of(move)
        got = [
            sorted(tuple(sorted((*others, move))) for others in found)
            for found in (mine.crowns, mine.stars, mine.hexagons)
        ]
        assert got == [sorted(ids) for ids in expected.get(move, [[], [], []])], move
        assert sorted((t, tuple(sorted(near))) for t, near in mine.empties) == sorted(
            (t, tuple(sorted(near))) for t, near in bordering.get(move, [])
        )


def _walked(cfg: Configs, placed: int, covered: int) -> tuple[int, int, int, int]:
    """(crowns, stars, hexagons, empty triangles) complete in a position, from the
    whole-board lists (a walk over every vertex and triangle, the way ``on_board``
    counted before its bit operations)."""

    def whole(ids: tuple[int, ...]) -> bool:
        return all(placed >> x & 1 for x in ids)

    return (
        sum(map(whole, cfg.crowns)),
        sum(map(whole, cfg.stars)),
        sum(map(whole, cfg.hexagons)),
        sum(
            1
            for bit, near in cfg.triangles
            if not covered >> bit & 1 and all(covered >> x & 1 for x in near)
        ),
    )


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 9])
@pytest.mark.parametrize("rim", [True, False])
def test_on_board_equals_the_whole_board_walk(n: int, rim: bool) -> None:
    """Every position of random games (each ply) and random piece sets: ``on_board``
    counts what the whole-board lists hold, with and without crowns."""
    cfg = configs_for(n, rim)
    board = cfg.board
    game = Tricolor({"n": str(n), "rim-crowns": "yes" if rim else "no"})
    rng = random.Random(n)
    positions: list[tuple[int, int]] = []
    while len(positions) < 250:
        state = game.initial_state(2)
        positions.append((state.placed, state.covered))
        while state.to_move is not None:
            state = state.play(rng.choice(state.legal_moves()))
            positions.append((state.placed, state.covered))
    moves = list(board.index.values())
    for _ in range(80):
        rng.shuffle(moves)
        keep = rng.random()
        placed = covered = 0
        for move in moves:
            if not covered & board.tmask[move] and rng.random() < keep:
                placed |= 1 << move
                covered |= board.tmask[move]
        positions.append((placed, covered))
    for placed, covered in positions:
        walked = _walked(cfg, placed, covered)
        assert tuple(on_board(cfg, placed, covered)) == walked
        assert tuple(on_board(cfg, placed, covered, crowns=False)) == (0, *walked[1:])


@pytest.mark.parametrize("n", [*range(1, 13), 31, 64])
def test_cell_masks_equal_a_cell_by_cell_derivation(n: int) -> None:
    """``cell_masks`` (shifted whole planes, each kept to the cells where the shift stays
    in range) equals the masks derived cell by cell from the definitions."""
    board = board_for(n)
    stars = r_cells = l_cells = 0
    hexagons = [0, 0]
    lacking: dict[str, list[int]] = {"R": [0, 0, 0], "L": [0, 0, 0]}
    for cell, (a, b) in enumerate(board.coords):
        bit = 1 << cell
        if all(position_valid(n, *p) for p in acute_sectors(a, b)):
            stars |= bit
        if vertex_interior(n, a, b):
            for t, triple in enumerate(hexagon_triples(a, b)):
                if all(position_valid(n, *p) for p in triple):
                    hexagons[t] |= bit
        for kind, valid in (("R", r_valid), ("L", l_valid)):
            if valid(n, a, b):
                if kind == "R":
                    r_cells |= bit
                else:
                    l_cells |= bit
                for k, (other, i, j) in enumerate(triangle_neighbours(kind, a, b)):
                    if not (r_valid if other == "R" else l_valid)(n, i, j):
                        lacking[kind][k] |= bit
    masks = cell_masks(n)
    assert (masks.stars, masks.hexagons, masks.r_cells, masks.l_cells) == (
        stars,
        (hexagons[0], hexagons[1]),
        r_cells,
        l_cells,
    )
    assert [lack for _, lack in masks.r_open] == lacking["R"]
    assert [lack for _, lack in masks.l_open] == lacking["L"]
    assert masks.plane == (1 << board.plane) - 1
    assert (stars > 0, hexagons[0] > 0) == (n >= 2, True)


# --- a real match -----------------------------------------------------------------------


@pytest.mark.processes
@pytest.mark.parametrize(("players", "options"), [(2, []), (3, ["--option", "n=3"])])
def test_subprocess_match_is_confirmed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], players: int, options: list[str]
) -> None:
    shown, text, verdicts = play_and_adjudicate(
        capsys, tmp_path / "games.tgn", "tricolor", players, *options
    )
    assert "Game 4/4" in shown
    assert text.count('[Game "tricolor"]') == 4
    assert text.count(f'[Players "{players}"]') == 4
    assert '[Score "' in text
    assert [v["verdict"] for v in verdicts] == ["confirmed"] * 4
