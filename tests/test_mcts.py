"""The mcts engine in-process: values, the search's contract, time budgets, info items."""

from __future__ import annotations

import gc
import io
import random
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.engine import EngineLoop
from bots.mcts import timeman
from bots.mcts.brain import MctsBrain
from bots.mcts.search import Limits, Search
from bots.mcts.search import Report as SearchReport
from bots.mcts.values import (
    SHUFFLE_FLOOR,
    Valuer,
    default_scale,
    pairwise_points,
    placement_points,
    shares,
)
from protocol.codec import parse_reply
from protocol.messages import Go, Info, NewGame
from protocol.search_info import ForcedWin, SearchInfo, Shares, parse_info
from referee.core import ranks_from_scores
from referee.registry import GAMES, make_game


def _cases() -> list[Any]:
    return [
        pytest.param(cls.name, players, id=f"{cls.name}-{players}p")
        for cls in GAMES
        for players in cls.player_counts
    ]


def midgame(name: str, players: int, plies: int, seed: int = 1) -> Any:
    """A position about ``plies`` random plies in with a choice of moves (random games
    are replayed with other seeds until one gets there)."""
    game = make_game(name)
    for attempt in range(100):
        state = game.initial_state(players)
        rng = random.Random(seed + 1000 * attempt)
        while state.to_move is not None and (state.ply < plies or len(state.legal_moves()) < 2):
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
        if state.to_move is not None:
            return state
    raise AssertionError(f"no {name} game lasts {plies} plies")


def new_brain(name: str, players: int, seed: int = 0, game_seed: int = 7) -> MctsBrain:
    brain = MctsBrain(seed)
    assert newgame(brain, make_game(name), NewGame(name, players, 1, game_seed)) is None
    return brain


def newgame(brain: MctsBrain, game: Any, command: NewGame) -> str | None:
    """``brain.newgame(game, command)`` with what lives before it frozen out of the cyclic
    collector's reach: ``newgame`` collects in full (the engine runs with the collector
    off), which in the test runner walked all its objects, a tenth of a second a brain."""
    gc.freeze()
    try:
        return brain.newgame(game, command)
    finally:
        gc.unfreeze()


# --- values ---------------------------------------------------------------------------


@given(st.lists(st.floats(-100, 100), min_size=2, max_size=4), st.floats(0.5, 10))
def test_heuristic_points_lie_between_the_placements_and_sum_like_them(
    values: list[float], scale: float
) -> None:
    points = pairwise_points(values, scale)
    n = len(values)
    assert sum(points) == pytest.approx(n / 2)
    assert all(0.0 <= p <= 1.0 for p in points)
    # More heuristic value never means fewer expected points.
    for i in range(n):
        for j in range(n):
            if values[i] > values[j]:
                assert points[i] >= points[j] - 1e-12


@given(st.lists(st.integers(0, 5), min_size=2, max_size=4))
def test_finished_games_give_placement_points_and_shares_sum_to_1000(scores: list[int]) -> None:
    ranks = ranks_from_scores(scores)
    points = placement_points(ranks)
    n = len(scores)
    assert sum(points) == pytest.approx(n / 2)
    # A sure ordering (huge differences) is the same as the placements.
    assert pairwise_points([1e6 * s for s in scores], 1.0) == pytest.approx(points)
    parts = shares(points)
    assert sum(parts) == 1000 and all(part >= 0 for part in parts)
    firsts = [i for i, rank in enumerate(ranks) if rank == 1]
    assert all(parts[i] >= max(parts) - 1 for i in firsts)  # tied firsts: rounding apart


def test_shares_of_two_and_three_seats() -> None:
    assert shares([0.7, 0.3]) == (700, 300)
    assert shares([1.0, 0.5, 0.0]) == (667, 333, 0)
    assert shares([0.5, 0.5, 0.5]) == (334, 333, 333)


def test_unchanged_leads_fade_toward_even() -> None:
    game = make_game("tricouleur")
    valuer = Valuer(game, 2, 2.0)
    raw = (12.0, 6.0)
    fresh, *faded = (valuer.points(raw, quiet)[0] for quiet in (0, 10, 30, 45, 1000))
    assert fresh > faded[0] > faded[1] > faded[2] > 0.5
    assert faded[3] == pytest.approx(0.5 + (fresh - 0.5) * SHUFFLE_FLOOR)
    three = Valuer(make_game("trichess"), 3, 5.0)
    damped = three.points((39.0, 30.0, 20.0), 25)
    assert sum(damped) == pytest.approx(1.5)
    assert damped[0] - 0.5 == pytest.approx((three.points((39.0, 30.0, 20.0), 0)[0] - 0.5) / 2)


def test_the_tree_counts_plies_without_a_change_from_the_game_before_it() -> None:
    """Tricouleur: a quiet move adds a ply to the count, a capture (the stones change)
    starts it again; the engine carries the count from one search to the next."""
    state = midgame("tricouleur", 2, 30, seed=2)
    brain = new_brain("tricouleur", 2)
    brain.seen = (brain.valuer.raw(state), state.ply - 6, 4)  # type: ignore[union-attr]
    search = brain.search(state, Limits(nodes=40))
    root = search.root
    assert root.quiet == 10
    game = make_game("tricouleur")
    for child in (c for c in root.children if c is not None):
        changed = game.evaluate(child.state) != game.evaluate(state)
        assert child.quiet == (0 if changed else 11)
    # A search after a capture starts the count again.
    after = root.state.play(search.best_move())
    brain.seen = ((0.0, 0.0), after.ply - 1, 10)
    assert brain.search(after, Limits(nodes=2)).root.quiet == 0


def test_the_scale_comes_from_the_start_material() -> None:
    trichess = make_game("trichess")
    assert default_scale(trichess, trichess.initial_state(3)) == pytest.approx(39 / 8)
    trike = make_game("trike")
    assert default_scale(trike, trike.initial_state(2)) == 1.0


# --- the search -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), _cases())
def test_a_node_limited_search_is_a_pure_function_of_seed_and_limit(
    name: str, players: int
) -> None:
    state = midgame(name, players, 12)
    first = new_brain(name, players).search(state, Limits(nodes=25))
    again = new_brain(name, players).search(state, Limits(nodes=25))
    assert first.iterations == again.iterations == 25 or first.won is not None
    assert first.best_move() == again.best_move()
    one, two = first.report(), again.report()
    assert (one.pv, one.points, one.seldepth) == (two.pv, two.points, two.seldepth)
    assert one.pv[0] == first.best_move() and state.is_legal(one.pv[0])
    assert sum(one.points) == pytest.approx(players / 2)


def test_the_seed_changes_the_search_but_not_its_legality() -> None:
    state = midgame("trike", 2, 0)
    moves = set()
    for seed in range(8):
        search = new_brain("trike", 2, seed=seed).search(state, Limits(nodes=3))
        moves.add(search.best_move())
        assert state.is_legal(search.best_move())
    assert len(moves) > 1  # the opening move depends on the seed


@pytest.mark.parametrize(("name", "players"), _cases())
def test_a_move_that_wins_at_once_is_played(name: str, players: int) -> None:
    """Find, in random play, a position where a move ends the game with the mover sole
    first; the search plays a winning move and reports ``win 1``."""
    game = make_game(name)
    rng = random.Random(3)
    for _ in range(400):
        state = game.initial_state(players)
        while state.to_move is not None:
            seat = state.to_move
            winning = [
                m
                for m in state.legal_moves()
                if (o := state.play(m).outcome()) is not None
                and o.ranks[seat] == 1
                and o.ranks.count(1) == 1
            ]
            if winning:
                brain = new_brain(name, players)
                search = brain.search(state, Limits(nodes=50))
                assert search.best_move() in winning
                assert search.iterations == 1  # nothing more to search
                info = brain.info(state, search.report())
                assert info.score == ForcedWin(1)
                return
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
    pytest.skip(f"no win in one found in random {name} games")


def test_a_time_limited_search_stops_and_a_clock_drives_the_reports() -> None:
    state = midgame("tricolor", 3, 6)
    brain = new_brain("tricolor", 3)
    ticks = iter(range(10**6))
    reports: list[SearchReport] = []

    def clock() -> float:
        return next(ticks) * 0.1  # each reading is 0.1 s later

    assert brain.valuer is not None
    search = Search(brain.valuer, state, random.Random(1))
    final = search.run(Limits(deadline=2.05), clock, on_report=reports.append, report_every=0.25)
    assert final.nodes == search.iterations and 10 <= search.iterations <= 30
    assert len(reports) >= 5  # every third reading, until the deadline
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)


def test_a_timed_search_continues_the_last_tree_and_a_node_limited_one_does_not() -> None:
    state = midgame("triablo", 2, 20)
    brain = new_brain("triablo", 2)
    first = brain.search(state, Limits(deadline=time.monotonic() + 0.3))
    assert brain.tree is first.root
    # Two plies down the principal variation: that node was expanded, with its visits.
    pv = first.report().pv
    assert len(pv) >= 3
    later = state.play(pv[0]).play(pv[1])
    kept = first.root.children[first.root.moves.index(pv[0])]
    assert kept is not None
    node = kept.children[kept.moves.index(pv[1])]
    assert node is not None and node.n > 0
    visits = node.n
    second = brain.search(later, Limits(deadline=time.monotonic() + 0.05))
    assert second.root is node and node.n > visits
    assert state.is_legal(pv[0]) and later.is_legal(second.best_move())
    # A node limit: a fresh tree, and none kept for the next search.
    third = brain.search(later.play(second.best_move()), Limits(nodes=5))
    assert third.root.n == 5 + len(third.root.moves) - 1 or third.won is not None
    assert brain.tree is None


def test_a_position_too_wide_for_the_time_left_is_cut_to_the_moves_valued() -> None:
    game = make_game("tricolor", {"n": "16"})
    state = game.initial_state(2)
    assert len(state.legal_moves()) > 200
    brain = MctsBrain(0)
    newgame(brain, game, NewGame("tricolor", 2, 1, 0, tuple(game.options.items())))
    assert brain.valuer is not None
    ticks = iter(range(10**6))
    search = Search(brain.valuer, state, random.Random(1))
    search.run(Limits(deadline=0.5), lambda: float(next(ticks)))
    assert search.truncated and len(search.root.moves) == 63
    assert state.is_legal(search.best_move())
    # The engine does not keep a tree with a cut node for its next search.
    brain.search(state, Limits(deadline=time.monotonic()))
    assert brain.tree is None or len(brain.tree.moves) == len(state.legal_moves())


def test_the_tree_stops_growing_at_its_cap() -> None:
    state = midgame("whistling-captures", 2, 6)
    brain = new_brain("whistling-captures", 2)
    search = brain.search(state, Limits(nodes=10**6, max_children=500))
    assert 500 <= search.children_stored < 500 + 400


# --- time -------------------------------------------------------------------------------


def test_clock_budgets() -> None:
    # A share of the time left plus the increment, minus the overhead.
    assert timeman.clock_budget(10.0, 0.1, 0.002) == pytest.approx(9.7 / 25 + 0.098)
    assert timeman.clock_budget(10.0, 0.01, 0.002) == pytest.approx(9.95 / 25 + 0.008)
    # Never more than a fraction of what is left, nor past half the clock, however
    # large the increment (it comes after the move).
    assert timeman.clock_budget(0.2, 5.0, 0.0) == pytest.approx(0.1)
    assert timeman.clock_budget(60.0, 0.0, 0.0) == pytest.approx(59.95 / 25)
    # A fifth of the clock the game started with is kept back: late in a long game the
    # engine lives on its increments above that cushion.
    assert timeman.clock_budget(5.0, 0.05, 0.0, start=5.0) == pytest.approx(4 / 25 + 0.05)
    assert timeman.clock_budget(0.9, 0.05, 0.01, start=5.0) == pytest.approx(0.015)
    # Below the reserve: at most half the increment, less the overhead; never negative.
    assert timeman.clock_budget(0.03, 0.02, 0.004) == pytest.approx(0.006)
    assert timeman.clock_budget(0.0, 0.0, 0.01) == 0.0
    assert timeman.movetime_budget(0.5, 0.003) == pytest.approx(0.487)


def test_clock_budgets_in_a_moves_per_session_control() -> None:
    # movestogo m: the spare time over min(m, 25) moves; the refill comes after m moves.
    assert timeman.clock_budget(10.0, 0.0, 0.0, start=10.0, moves_to_go=4) == pytest.approx(2.0)
    assert timeman.clock_budget(10.0, 0.0, 0.0, start=10.0, moves_to_go=2) == pytest.approx(4.0)
    # The last move of a session: never past half of what is on the clock.
    assert timeman.clock_budget(10.0, 0.0, 0.0, start=10.0, moves_to_go=1) == pytest.approx(5.0)
    # Far from the refill it plays as without movestogo.
    plain = timeman.clock_budget(10.0, 0.1, 0.002)
    assert timeman.clock_budget(10.0, 0.1, 0.002, moves_to_go=40) == pytest.approx(plain)
    assert timeman.clock_budget(10.0, 0.1, 0.002, moves_to_go=0) == pytest.approx(plain)


def test_the_search_reads_movestogo() -> None:
    brain = new_brain("trike", 2)
    with_session = brain.limits(0, Go(times=(10_000, 10_000), incs=(0, 0), movestogo=2), 0.0)
    without = brain.limits(0, Go(times=(10_000, 10_000), incs=(0, 0)), 0.0)
    assert with_session.deadline is not None and without.deadline is not None
    assert with_session.deadline > 2 * without.deadline
    assert timeman.movetime_budget(0.005, 0.003) == 0.0


def test_the_overhead_is_learnt_from_the_clock() -> None:
    meter = timeman.OverheadMeter()
    assert meter.estimate == timeman.MIN_OVERHEAD
    meter.searched(10.0, 0.1, 0.5)  # searched 0.5 s with 10 s left, 0.1 s increment
    meter.charged(9.58)  # charged 0.52 s: 20 ms beyond the search
    assert meter.estimate == pytest.approx(0.02)
    meter.searched(9.58, 0.1, 0.2)
    meter.charged(20.0)  # a clock that does not fit (another game): ignored
    assert meter.estimate == pytest.approx(0.02)


def test_a_clock_with_little_time_left_still_gets_a_move() -> None:
    state = midgame("triablo", 3, 10)
    brain = new_brain("triablo", 3)
    seat = state.to_move
    times = [60_000] * 3
    times[seat] = 0
    limits = brain.limits(seat, Go(times=tuple(times), incs=(0, 0, 0)), started=100.0)
    assert limits.deadline == 100.0 and limits.nodes is None
    text = brain.choose(state, Go(times=tuple(times), incs=(0, 0, 0)), lambda info: None)
    assert state.is_legal(make_game("triablo").parse_move(state, text))
    assert brain.limits(seat, Go(nodes=40), 5.0) == Limits(nodes=40, deadline=None)
    untimed = brain.limits(seat, Go(), 5.0)
    assert untimed.deadline == 5.0 + timeman.UNTIMED


# --- the engine loop --------------------------------------------------------------------


def test_the_engine_declares_nodes_and_reports_structured_info() -> None:
    game = make_game("tricolor")
    first = game.format_move(game.initial_state(3), game.initial_state(3).legal_moves()[0])
    lines = [
        "rgp 1",
        "newgame game tricolor players 3 seat 2 seed 5",
        f"position start moves {first}",
        "go nodes 20",
        "quit",
    ]
    stdin = io.BytesIO("".join(x + "\n" for x in lines).encode())
    stdout = io.BytesIO()
    loop = EngineLoop(
        MctsBrain(0), name="mcts", author="a", features=("nodes",), stdin=stdin, stdout=stdout
    )
    assert loop.run() == 0
    out = stdout.getvalue().decode().splitlines()
    assert "feature nodes" in out[:4]
    infos = [parse_reply(line) for line in out if line.startswith("info ")]
    assert infos and all(isinstance(i, Info) for i in infos)
    last = parse_info(infos[-1].text)  # type: ignore[union-attr]
    assert last.nodes == 20 and last.pv is not None and last.depth == len(last.pv)
    assert isinstance(last.score, Shares) and len(last.score.values) == 3
    assert last.rejected == () and last.nps is not None and last.time is not None
    assert out[-1] == f"move {last.pv[0]}"


def test_info_lines_come_every_quarter_second_on_a_long_search() -> None:
    state = midgame("trichess", 3, 20)
    brain = new_brain("trichess", 3)
    sent: list[SearchInfo] = []
    brain.choose(state, Go(movetime=700), sent.append)
    assert len(sent) >= 3  # at 250 ms, 500 ms and the end
    assert all(info.pv and info.depth == len(info.pv) for info in sent)
    assert [info.nodes for info in sent] == sorted(info.nodes or 0 for info in sent)
