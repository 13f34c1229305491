"""Benchmarks behind ``referee bench`` (and ``benchmarks/``): throughput and overhead.

Figures, not assertions: targets are compared by the person reading them.

* match: a Trike match between two instances of one engine (the instant C engine
  by default), engines reused, concurrency 1. Plies per second over the wall time
  of the whole match, and the referee's own per-ply overhead: the time from the
  arrival of one move to the writing of the next request (parse, validate, clock,
  format), median and 99th percentile.
* rules: ``tournaments.rules_bench``: referee-style plies per second of every
  game beside python-chess on chess.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Iterator

import trio

from referee.clock import TimeControl
from referee.registry import make_game
from tournaments.engines import resolve_engine, unique_names
from tournaments.match_runner import FinishedGame, MatchPlan, play_match
from tournaments.rules_bench import run_rules_benchmark

MATCH_TARGET_PLIES_PER_SECOND = 4500


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench_match(games: int, engine: str) -> dict[str, float]:
    """Play the match and return plies/s and overhead figures (microseconds)."""
    specs = unique_names([resolve_engine(engine), resolve_engine(engine)])
    plan = MatchPlan(
        game=make_game("trike"),
        entrants=tuple(specs),
        tc=TimeControl.parse("60+1"),
        games=games,
        seed=1,
        out=None,
    )
    started = time.perf_counter()
    finished: list[FinishedGame] = trio.run(play_match, plan)
    wall = time.perf_counter() - started
    plies = sum(len(g.result.moves) for g in finished)
    overheads: list[float] = []
    round_trips: list[float] = []
    for game in finished:
        moves = game.result.moves
        round_trips.extend(m.elapsed for m in moves)
        overheads.extend(b.sent_at - a.arrived_at for a, b in itertools.pairwise(moves))
    return {
        "games": float(len(finished)),
        "plies": float(plies),
        "wall_s": wall,
        "plies_per_s": plies / wall,
        "overhead_median_us": 1e6 * statistics.median(overheads),
        "overhead_p99_us": 1e6 * _percentile(overheads, 0.99),
        "round_trip_median_us": 1e6 * statistics.median(round_trips),
        "round_trip_p99_us": 1e6 * _percentile(round_trips, 0.99),
    }


def run_benchmarks(*, games: int, engine: str, rules_plies: int) -> Iterator[str]:
    """Run both benchmarks and yield report lines."""
    yield from run_rules_benchmark(rules_plies)
    match = bench_match(games, engine)
    verdict = "meets" if match["plies_per_s"] >= MATCH_TARGET_PLIES_PER_SECOND else "BELOW"
    yield (
        f"match  trike {engine} vs {engine}, {match['games']:.0f} games, "
        f"{match['plies']:.0f} plies "
        f"in {match['wall_s']:.2f}s: {match['plies_per_s']:,.0f} plies/s "
        f"({verdict} target {MATCH_TARGET_PLIES_PER_SECOND:,})"
    )
    yield (
        f"       referee overhead per ply: median {match['overhead_median_us']:.0f} us, "
        f"p99 {match['overhead_p99_us']:.0f} us; engine round trip median "
        f"{match['round_trip_median_us']:.0f} us, p99 {match['round_trip_p99_us']:.0f} us"
    )
