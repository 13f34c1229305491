"""The tournament runner with in-process players: output, reuse, resume, voids, SPRT, Swiss."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from protocol.spec import EngineSpec
from referee.adjudicate_stream import adjudicate_file
from referee.core import Outcome, Termination
from referee.players import GameSetup
from referee.record.stream import read_records
from tests.tournaments.local import bot_factory, failing_starts, hooked_factory
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.event.schedule import Fixture
from tournaments.play.errors import TournamentError
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, summarize
from tournaments.results.tables import render
from tournaments.runner.records import BACKLOG, Recorder
from tournaments.runner.run import Progress, RunResult, run_tournament
from tournaments.store.journal import GAMES, JOURNAL, RESULTS, JournalError, hold_lock, read_journal

FOUR = [
    {"name": "greedy-1", "command": "greedy --seed 1"},
    {"name": "greedy-2", "command": "greedy --seed 2"},
    {"name": "random-1", "command": "random --seed 1"},
    {"name": "random-2", "command": "random --seed 2"},
]


def make_plan(**settings: Any) -> Plan:
    data: dict[str, Any] = {"game": "trike", "entrants": FOUR, "openings": {"plies": 2}}
    data.update(settings)
    return Plan.from_config(parse_config(data, "test"), "test")


def run(plan: Plan, out: Path, **kwargs: Any) -> RunResult:
    kwargs.setdefault("factory", bot_factory())
    result: RunResult = trio.run(lambda: run_tournament(plan, out, **kwargs))
    return result


def stripped(record: str) -> str:
    """A record without what legitimately differs between runs: the date and timings."""
    record = re.sub(r'\[Date "[^"]*"\]\n', "", record)
    return re.sub(r" \{[^}]*\}", "", record)


def test_round_robin_writes_every_output(tmp_path: Path) -> None:
    plan = make_plan(rounds=2, concurrency=3)
    opened: list[str] = []
    progress: list[Progress] = []
    result = run(
        plan,
        tmp_path / "t",
        factory=bot_factory(opened),
        on_game=lambda report, p: progress.append(p),
    )
    total = 6 * 2 * 2
    assert result.complete and len(result.played) == total == plan.total()
    out = tmp_path / "t"
    records = read_records(out / GAMES)
    assert len(records) == total
    assert sorted(int(r.tag("GameNumber") or 0) for r in records) == list(range(1, total + 1))
    assert all(v.confirmed for v in adjudicate_file(out / GAMES))
    assert all(r.tag("Opening") and r.start for r in records)
    state = read_journal(out)
    assert sorted(state.games) == list(range(1, total + 1))
    assert json.loads((out / RESULTS).read_text())["games"] == total
    # Seats: everyone plays each seat equally often.
    seats = Counter((name, seat) for r in records for seat, name in enumerate(r.seats))
    assert set(seats.values()) == {total * 2 // 4 // 2}  # seats over entrants and seats
    # Engines are started per slot and reused: at most one per entrant per slot.
    assert len(opened) <= 3 * 4
    assert max(Counter(opened).values()) <= 3
    # Progress counts up to the total with a leader.
    assert [p.done for p in progress] == list(range(1, total + 1))
    assert progress[-1].leader is not None and progress[-1].eta == 0


def test_interrupted_then_resumed_plays_exactly_the_same_games(tmp_path: Path) -> None:
    plan = make_plan(rounds=2, concurrency=2)
    whole = run(plan, tmp_path / "whole")

    class Stop(Exception):
        pass

    started: list[int] = []

    def stop_at_the_seventh_game(spec: EngineSpec, setup: GameSetup) -> None:
        """Crashes the run when the seventh game starts: a stop on the game slots' side
        (in-process players finish games faster than the journal records them, so a stop
        on the journal's side could come when all are recorded)."""
        started.append(setup.seat)
        if len(started) > 12:
            raise Stop

    broken = tmp_path / "broken"
    with pytest.raises(BaseException) as info:
        run(plan, broken, factory=hooked_factory(stop_at_the_seventh_game))
    assert info.group_contains(Stop) if isinstance(info.value, BaseExceptionGroup) else True
    done = read_journal(broken).games
    assert 5 <= len(done) < plan.total()
    # A crash while writing leaves a torn line: it is ignored and cut off.
    with open(broken / JOURNAL, "a") as journal:
        journal.write('{"type": "game", "number": 99, "rec')
    resumed = run(plan, broken, resume=True)
    assert resumed.complete
    assert len(resumed.played) == plan.total() - len(done)
    assert not {r.number for r in resumed.played} & set(done)  # nothing replayed
    final = read_journal(broken)
    assert sorted(final.games) == sorted(whole.finished)
    for number, report in whole.finished.items():
        assert stripped(final.games[number].record) == stripped(report.record)
    records = read_records(broken / GAMES)
    assert len(records) == plan.total()  # rewritten from the journal: no duplicate
    # Resuming a finished tournament does nothing.
    again = run(plan, broken, resume=True)
    assert again.complete and again.played == []


def test_output_directory_rules(tmp_path: Path) -> None:
    plan = make_plan()
    out = tmp_path / "t"
    with pytest.raises(JournalError, match="nothing to resume"):
        run(plan, out, resume=True)
    run(plan, out)
    with pytest.raises(JournalError, match="already holds a tournament"):
        run(plan, out)
    with pytest.raises(JournalError, match=r"configuration differs .*\(seed\)"):
        run(make_plan(seed=99), out, resume=True)
    # Concurrency may change between runs.
    run(make_plan(concurrency=2), out, resume=True)
    with hold_lock(out), pytest.raises(JournalError, match="in use by another runner"):
        run(plan, out, resume=True)


def test_void_games_are_played_again(tmp_path: Path) -> None:
    plan = make_plan(entrants=FOUR[:2])
    result = run(plan, tmp_path / "t", factory=failing_starts(2))
    assert result.complete and result.voids == 2 and len(result.played) == 2
    lines = (tmp_path / "t" / JOURNAL).read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines[1:]].count("void") == 2
    with pytest.raises(BaseException) as info:
        run(plan, tmp_path / "u", factory=failing_starts(100))
    error = info.value
    leaves = error.exceptions if isinstance(error, BaseExceptionGroup) else (error,)
    assert any(isinstance(e, TournamentError) and "void 3 times" in str(e) for e in leaves)


def test_sprt_stops_a_match_when_it_decides(tmp_path: Path) -> None:
    plan = make_plan(
        entrants=[FOUR[0], FOUR[2]], games=2000, concurrency=2, sprt={"elo0": 0, "elo1": 100}
    )
    result = run(plan, tmp_path / "t")
    assert result.sprt_decision == "H1"
    # Decided within some 20-100 games; the slots run at most the recorder's backlog
    # (BACKLOG) ahead of the journal, so the stop comes soon after (it came hundreds of
    # games late when in-process players kept the journal's thread waiting).
    assert result.complete and 10 <= len(result.finished) < 100 + BACKLOG + 4
    summary = summarize(EventInfo.from_plan(plan), list(result.finished.values()))
    assert summary.sprt is not None and summary.sprt.decision == "H1"
    assert summary.sprt.pentanomial
    assert "H1 accepted" in render(summary)
    # Resuming a decided match plays nothing more.
    again = run(plan, tmp_path / "t", resume=True)
    assert again.played == [] and again.sprt_decision == "H1"


def test_a_million_game_match_is_not_scheduled_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    make = Plan.iter_static_fixtures

    def counted(plan: Plan) -> Iterator[Fixture]:
        for fixture in make(plan):
            drawn.append(fixture.number)
            yield fixture

    monkeypatch.setattr(Plan, "iter_static_fixtures", counted)
    plan = make_plan(
        entrants=[FOUR[0], FOUR[2]], games=1_000_000, concurrency=2, sprt={"elo0": 0, "elo1": 100}
    )
    result = run(plan, tmp_path / "t")
    assert result.sprt_decision == "H1" and plan.total() == 1_000_000
    # Only the games played and the few handed to the slots when the SPRT stopped.
    assert len(result.finished) <= len(drawn) <= len(result.finished) + 8


def test_swiss_and_gauntlet(tmp_path: Path) -> None:
    five = [*FOUR, {"name": "random-3", "command": "random --seed 3"}]
    swiss = make_plan(entrants=five, format="swiss", rounds=3, concurrency=2)
    result = run(swiss, tmp_path / "swiss")
    assert len(result.finished) == swiss.total() == 3 * 2 * 2
    by_round: dict[int, list[GameReport]] = {}
    for report in result.finished.values():
        by_round.setdefault(report.round, []).append(report)
    byes: list[str] = []
    for games in by_round.values():
        playing = Counter(name for g in games for name in g.seats)
        assert set(playing.values()) == {2} and len(playing) == 4
        byes += set(swiss.names) - set(playing)
    assert len(set(byes)) == 3
    meetings = Counter(frozenset(g.seats) for g in result.finished.values())
    assert set(meetings.values()) == {2}  # no rematch in three rounds
    gauntlet = make_plan(format="gauntlet", challengers=1, rounds=1)
    result = run(gauntlet, tmp_path / "gauntlet")
    assert len(result.finished) == 3 * 2
    assert all("greedy-1" in g.seats for g in result.finished.values())


def test_three_players_and_points_table(tmp_path: Path) -> None:
    plan = make_plan(
        game="tricolor", players=3, entrants=FOUR[:3], seat_order="cyclic", points=[3, 1, 0]
    )
    result = run(plan, tmp_path / "t")
    assert len(result.finished) == 3
    summary = summarize(EventInfo.from_plan(plan), list(result.finished.values()))
    assert sum(row.points for row in summary.rows) == pytest.approx(3 * 4, abs=3)
    assert {row.games for row in summary.rows} == {3}
    text = render(summary, "github")
    assert "Plackett-Luce" in text and "| greedy-1" in text
    assert "<table>" in render(summary, "html")
    data = json.loads(render(summary, "json"))
    assert len(data["ratings"]) == 3 and data["crosstable"]


def test_without_keep_played_a_run_holds_counts_not_reports(tmp_path: Path) -> None:
    plan = make_plan(rounds=1)
    seen: list[int] = []
    result = run(
        plan, tmp_path / "t", keep_played=False, on_game=lambda r, p: seen.append(p.played)
    )
    assert result.played == [] and result.played_count == plan.total() == result.done
    assert seen == list(range(1, plan.total() + 1))
    assert len(result.finished) == plan.total()  # read back from the journal


async def test_the_recorder_writes_what_queued_in_one_group_then_passes_each_on() -> None:
    """The one recorder of the journal and of ``play``'s record file: reports that end
    while none is being written go in one write, and each is passed on after it, in
    the order they came."""
    writes: list[list[int]] = []
    passed: list[int] = []

    async def write(batch: list[GameReport]) -> None:
        writes.append([report.number for report in batch])

    recorder = Recorder(write, lambda report: passed.append(report.number))
    won = Outcome(Termination.RULES, (1, 2))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(recorder.run)
        for number in range(1, 6):  # before the recorder's task first runs
            recorder.submit(GameReport(number, 1, number, (0, 1), ("a", "b"), won, 10, ""))
        await recorder.close()
    assert writes == [[1, 2, 3, 4, 5]]
    assert passed == [1, 2, 3, 4, 5]
