"""Knockout: the seeded bracket and its byes, heats of three, the tiebreak, the runner
playing it phase by phase (8 and 9 entrants), and a resume that schedules what the
first run did."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import trio

from protocol.spec import EngineSpec
from referee.players import GameSetup
from tests.clirun import RefereeCli, cli
from tests.tournaments.local import bot_factory, hooked_factory
from tournaments.event.config import ConfigError, parse_config
from tournaments.event.knockout import (
    EXTRA_BLOCKS,
    GameResult,
    KnockoutStep,
    bracket_lines,
    bracket_order,
    knockout_step,
    most_games,
)
from tournaments.event.plan import Plan
from tournaments.event.schedule import Fixture
from tournaments.live.watch import EventWatcher
from tournaments.runner.phases import knockout_state
from tournaments.runner.run import RunResult, run_tournament
from tournaments.store.journal import read_journal

Rule = Callable[[Fixture], Sequence[float]]


def better_seed_wins(fixture: Fixture) -> tuple[float, ...]:
    best = min(fixture.table)
    return tuple(1.0 if e == best else 0.0 for e in fixture.table)


def draw(fixture: Fixture) -> tuple[float, ...]:
    return tuple(0.5 for _ in fixture.table)


def play_out(
    entrants: int, players: int, per: int, rule: Rule
) -> tuple[KnockoutStep, dict[int, GameResult], list[list[Fixture]]]:
    """Play a knockout through by ``rule``, phase by phase as the runner does."""
    finished: dict[int, GameResult] = {}
    phases: list[list[Fixture]] = []
    while True:
        step = knockout_step(entrants, players, per, finished)
        if not step.pending:
            return step, finished, phases
        phases.append(step.pending)
        for fixture in step.pending:
            assert fixture.number not in finished  # a phase is only handed out whole once
            finished[fixture.number] = (fixture.table, rule(fixture))


def test_bracket_order_keeps_the_best_seeds_apart() -> None:
    assert bracket_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    order = bracket_order(16)
    assert sorted(order) == list(range(16))
    # each first-round pair sums to 15 (1 meets 16, …); seeds 1 and 2 in opposite halves
    assert {order[i] + order[i + 1] for i in range(0, 16, 2)} == {15}
    assert order.index(0) < 8 <= order.index(1)
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


def test_eight_entrants_the_better_seed_winning_every_game() -> None:
    step, finished, phases = play_out(8, 2, 2, better_seed_wins)
    assert step.winner == 0
    assert [len(heats) for heats in step.rounds] == [4, 2, 1]
    first = [heat.entrants for heat in step.rounds[0]]
    assert first == [(0, 7), (3, 4), (1, 6), (2, 5)]
    assert [heat.entrants for heat in step.rounds[1]] == [(0, 3), (1, 2)]
    assert step.rounds[2][0].entrants == (0, 1)
    assert len(finished) == 7 * 2 and len(phases) == 3  # no tie, no tiebreak
    assert sorted(finished) == list(range(1, 15))  # numbered without gaps
    lines = bracket_lines(step, [f"e{i + 1}" for i in range(8)])
    assert lines[0] == "Round 1"
    assert "  #1 e1 vs #8 e8: 2 - 0 (2 games); through: e1" in lines
    assert lines[-1] == "Winner: e1"


def test_nine_entrants_give_the_seven_best_a_bye() -> None:
    step, finished, _ = play_out(9, 2, 2, better_seed_wins)
    first = step.rounds[0]
    byes = sorted(heat.entrants[0] for heat in first if heat.bye)
    assert byes == list(range(7))
    matches = [heat for heat in first if not heat.bye]
    assert [m.entrants for m in matches] == [(7, 8)]
    assert [len(heats) for heats in step.rounds] == [8, 4, 2, 1]
    assert len(finished) == 8 * 2  # a match per entrant knocked out
    assert step.winner == 0
    lines = bracket_lines(step, [f"e{i + 1}" for i in range(9)])
    assert "  #1 e1: bye" in lines and "  #8 e8 vs #9 e9: 2 - 0 (2 games); through: e8" in lines


def test_the_winner_of_each_match_advances() -> None:
    """The worse seed wins every game: every match's winner is in the next round."""

    def worse_seed_wins(fixture: Fixture) -> tuple[float, ...]:
        worst = max(fixture.table)
        return tuple(1.0 if e == worst else 0.0 for e in fixture.table)

    step, _, _ = play_out(9, 2, 2, worse_seed_wins)
    for earlier, later in zip(step.rounds, step.rounds[1:], strict=False):
        through = sorted(e for heat in earlier for e in heat.through or ())
        assert through == sorted(e for heat in later for e in heat.entrants)
    # 9 beat 8 in round 1, then beat every seed above it
    assert step.winner == 8


def test_a_tie_plays_extra_pairs_then_the_better_seed_goes_through() -> None:
    step, finished, phases = play_out(2, 2, 2, draw)
    (heat,) = step.rounds[0]
    assert len(heat.games) == 2 + 2 * EXTRA_BLOCKS and heat.by_seed
    assert heat.through == (0,) and step.winner == 0
    assert [len(p) for p in phases] == [2, 2, 2]
    assert len(finished) == most_games(2, 2, 2)

    def second_pair_decides(fixture: Fixture) -> tuple[float, ...]:
        if fixture.number <= 2:  # the match: one game each
            return (1.0, 0.0)
        worst = max(fixture.table)  # the extra pair: the second seed wins both
        return tuple(1.0 if e == worst else 0.0 for e in fixture.table)

    step, finished, _ = play_out(2, 2, 2, second_pair_decides)
    (heat,) = step.rounds[0]
    assert heat.games == (1, 2, 3, 4) and not heat.by_seed
    assert heat.through == (1,) and heat.points == (1.0, 3.0)


@pytest.mark.parametrize("entrants", range(3, 12))
def test_heats_of_three_every_round_seats_everyone_once(entrants: int) -> None:
    def placed_by_seed(fixture: Fixture) -> tuple[float, ...]:
        order = sorted(fixture.table)
        return tuple((1.0, 0.5, 0.0)[order.index(e)] for e in fixture.table)

    step, finished, _ = play_out(entrants, 3, 6, placed_by_seed)
    assert step.winner == 0
    field = list(range(entrants))
    for heats in step.rounds:
        seated = sorted(e for heat in heats for e in heat.entrants)
        assert seated == field
        for heat in heats:
            assert len(heat.entrants) in (1, 3)
        field = sorted(e for heat in heats for e in heat.through or ())
        assert len(field) == 1 or len(field) >= 3
    assert len(step.rounds[-1]) == 1 and len(step.rounds[-1][0].entrants) == 3  # a final of 3
    assert len(finished) <= most_games(entrants, 3, 6)


def test_a_resumed_walk_schedules_the_same_games() -> None:
    """Any part of a phase finished: the walk hands out the same numbers and tables."""
    _, finished, phases = play_out(9, 2, 2, draw)
    played: dict[int, GameResult] = {}
    for phase in phases:
        for cut in range(len(phase)):
            partial = {**played, **{f.number: finished[f.number] for f in phase[:cut]}}
            assert knockout_step(9, 2, 2, partial).pending == phase[cut:]
        played.update({f.number: finished[f.number] for f in phase})


# --- the runner -------------------------------------------------------------------------------

ENTRANTS = [{"name": f"random-{i}", "command": f"random --seed {i}"} for i in range(1, 6)] + [
    {"name": f"greedy-{i}", "command": f"greedy --seed {i}"} for i in range(1, 5)
]


def make_plan(entrants: int, **settings: Any) -> Plan:
    data: dict[str, Any] = {
        "game": "trike",
        "format": "knockout",
        "entrants": ENTRANTS[:entrants],
        "adjudication": {"max_plies": 8},
        "tc": "inf",
    }
    data.update(settings)
    return Plan.from_config(parse_config(data, "test"), "test")


def run(plan: Plan, out: Path, **kwargs: Any) -> RunResult:
    kwargs.setdefault("factory", bot_factory())
    result: RunResult = trio.run(lambda: run_tournament(plan, out, workers=0, **kwargs))
    return result


@pytest.mark.parametrize("entrants", [8, 9])
def test_the_runner_plays_a_knockout_through(tmp_path: Path, entrants: int) -> None:
    plan = make_plan(entrants, concurrency=2)
    result = run(plan, tmp_path / "k")
    assert result.complete
    step = knockout_state(plan, tmp_path / "k")
    assert not step.pending and step.winner is not None
    assert [len(heats) for heats in step.rounds] == ([4, 2, 1] if entrants == 8 else [8, 4, 2, 1])
    games = list(read_journal(tmp_path / "k").games.values())
    assert len(games) == sum(len(h.games) for heats in step.rounds for h in heats)
    # every game journaled is a game of its heat, in its round, between its entrants
    heat_of = {n: h for heats in step.rounds for h in heats for n in h.games}
    for game in games:
        heat = heat_of[game.number]
        assert game.round == heat.round and sorted(game.table) == list(heat.entrants)
    # the winner went through every round it played
    for heats in step.rounds:
        (mine,) = [h for h in heats if step.winner in h.entrants]
        assert mine.through is not None and step.winner in mine.through


def test_a_knockout_resumed_after_a_stop_plays_the_games_of_an_uninterrupted_one(
    tmp_path: Path,
) -> None:
    plan = make_plan(9)
    whole = run(plan, tmp_path / "whole")

    class Stop(Exception):
        pass

    started: list[int] = []

    def stop_in_the_second_round(spec: EngineSpec, setup: GameSetup) -> None:
        """Stops the run when the 12th game starts (in the second round)."""
        if setup.seat == 0:
            started.append(setup.seat)
            if len(started) >= 12:
                raise Stop

    broken = tmp_path / "broken"
    with pytest.raises(BaseException):  # noqa: B017 (the Stop, wrapped or not)
        run(plan, broken, factory=hooked_factory(stop_in_the_second_round))
    assert 5 <= len(read_journal(broken).games) < len(whole.finished)
    resumed = run(plan, broken, resume=True)
    assert resumed.complete

    def key(out: Path) -> list[tuple[int, int, tuple[int, ...], str]]:
        return [
            (g.number, g.round, g.table, re.sub(r'\[Date "[^"]*"\]\n| \{[^}]*\}', "", g.record))
            for g in sorted(read_journal(out).games.values(), key=lambda g: g.number)
        ]

    assert key(broken) == key(tmp_path / "whole")
    assert knockout_state(plan, broken).winner == knockout_state(plan, tmp_path / "whole").winner


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"games": 4}, "games: a knockout's games are set by its bracket"),
        ({"rounds": 2}, "rounds: a knockout's rounds are set by its bracket"),
        ({"game": "triablo", "players": 3, "sprt": {"elo0": 0, "elo1": 5}}, "sprt"),
    ],
)
def test_knockout_settings_that_do_not_fit(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_plan(4, **settings)


@pytest.mark.processes
def test_a_knockout_on_the_command_line_prints_its_bracket(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    engines = [arg for i in range(1, 10) for arg in ("-e", f"random --seed {i}")]
    done = referee_cli(
        "tournament", "--game", "trike", "--format", "knockout", *engines,
        "--max-plies", "8", "--tc", "inf", "--out", str(tmp_path / "k"), "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "\nKnockout\nRound 1\n" in out
    assert "  #1 random: bye" in out and "#8 random#8 vs #9 random#9" in out
    assert re.search(r"^Winner: random(#\d)?$", out, re.MULTILINE)


def test_standings_and_the_live_page_know_a_finished_knockout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = make_plan(5)
    out = tmp_path / "k"
    run(plan, out)
    winner = knockout_state(plan, out).winner
    assert winner is not None
    code, text, err = cli(capsys, "standings", str(out))
    assert code == 0, err
    assert "\nKnockout\nRound 1\n" in text and f"\nWinner: {plan.names[winner]}\n" in text
    code, text, err = cli(capsys, "standings", str(out), "--format", "json")
    assert code == 0, err
    bracket = json.loads(text)["knockout"]
    assert bracket["winner"] == plan.names[winner]
    assert [len(heats) for heats in bracket["rounds"]] == [4, 2, 1]  # 5 in a bracket of 8
    # the total is the most the bracket could take, yet the live page says it is over
    journal = read_journal(out)
    assert journal.info is not None and journal.info["total"] > len(journal.games)
    status = [u for u in EventWatcher(out).poll() if u.event == "status"]
    assert status[-1].data["complete"] is True


def test_a_knockout_of_heats_of_three(tmp_path: Path) -> None:
    plan = make_plan(7, game="triablo", players=3, seat_order="cyclic")
    out = tmp_path / "k3"
    result = run(plan, out)
    assert result.complete
    step = knockout_state(plan, out)
    assert step.winner is not None
    # 7 entrants: the best seed has a bye, two heats of three send their winners on,
    # then a final heat of three
    assert [[len(h.entrants) for h in heats] for heats in step.rounds] == [[1, 3, 3], [3]]
    final = step.rounds[-1][0]
    assert final.through == (step.winner,) and len(final.games) >= 3
    games = read_journal(out).games.values()
    assert all(len(g.table) == 3 for g in games)
