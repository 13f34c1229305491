"""The benchmark code runs and measures what it says (no timing assertions)."""

from __future__ import annotations

import pytest

from referee.registry import make_game
from tests.c_build import build_trike_engine
from tournaments.bench.rules import RULES_CASES, random_games, referee_replay, run_rules_benchmark
from tournaments.bench.throughput import bench_match, bench_tournament


def test_random_games_are_seeded_and_complete() -> None:
    game = make_game("trike")
    first = random_games(game, 2, 300, seed=4)
    assert first == random_games(game, 2, 300, seed=4)
    assert first != random_games(game, 2, 300, seed=5)
    assert sum(len(texts) for texts in first) >= 300
    for texts in first:  # each game is played to its end
        state = game.initial_state(2)
        for text in texts:
            state = state.play(game.parse_move(state, text))
        assert state.outcome() is not None
    assert referee_replay(game, 2, first) > 0


def test_rules_benchmark_reports_every_case() -> None:
    lines = list(run_rules_benchmark(plies=500, rounds=2))
    for case in RULES_CASES:
        assert any(line.startswith(f"rules  {case.label}: ") for line in lines)
    assert "python-chess" in lines[-1]


def test_match_benchmark_counts_plies_and_overheads() -> None:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    figures = bench_match(games=3, engine="trike-c")
    assert figures["games"] == 3
    assert figures["plies"] >= 3 * 3  # a Trike game has at least 3 plies (two around the pawn)
    assert 0 < figures["overhead_median_us"] <= figures["overhead_p99_us"]
    assert figures["plies_per_s"] > 0


def test_tournament_benchmark_counts_plies_overheads_and_time_losses() -> None:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    # Two slots in one worker process: the runner, a worker and its engines, for real.
    figures = bench_tournament(games=6, engine="trike-c", concurrency=2, workers=1)
    assert figures["games"] == 6
    assert figures["plies"] >= 6 * 3
    assert figures["timeouts"] == 0 and figures["voids"] == 0
    assert 0 < figures["overhead_median_us"] <= figures["overhead_p99_us"]
    assert figures["round_trip_median_us"] <= figures["round_trip_max_us"]
    assert figures["plies_per_s"] > 0 and figures["startup_s"] > 0
