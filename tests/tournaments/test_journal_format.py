"""The journal's game lines: the ``GameReport`` as the one codec writes it (``event.wire``),
the lines of earlier versions still read, and a bad line one ``JournalError`` naming the
field.

``data/journal_v1/{all,failures}`` are event directories written by the referee before
its journal used the codec (main at 1c8bb83, in-process bots, stopped after the fourth
game with one void game first; ``transcripts`` all, or failures only). Their lines name
the transcript store ``transcript_path``, left out when none was kept.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import Outcome, Termination
from referee.record.stream import read_records
from tests.clirun import cli
from tests.tournaments.local import bot_factory
from tournaments.cluster.task import Finished
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.event.wire import WireError, from_json, to_json
from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.results.sprt import Sprt
from tournaments.results.summary import EventInfo
from tournaments.runner.run import run_tournament
from tournaments.store.checkpoint import CHECKPOINT, header_digest, read_checkpoint
from tournaments.store.event_dir import read_event
from tournaments.store.journal import (
    GAMES,
    JOURNAL,
    JournalError,
    game_line,
    read_journal,
    report_of,
)
from tournaments.store.numbers import GameNumbers

DATA = Path(__file__).parent / "data" / "journal_v1"
MODES = ("all", "failures")


def fixture_config(mode: str) -> dict[str, Any]:
    """The configuration the fixture events were started with."""
    return {
        "event": "journal v1 fixture",
        "game": "trike",
        "games": 8,
        "seed": 7,
        "openings": {"plies": 2},
        "transcripts": mode,
        "entrants": [
            {"name": "greedy-1", "command": "greedy --seed 1"},
            {"name": "random-2", "command": "random --seed 2"},
        ],
    }


def version_1_reading(entry: dict[str, Any]) -> GameReport:
    """How the referee read a game line before the codec: the oracle of the old form."""
    outcome = entry["outcome"]
    return GameReport(
        number=entry["number"],
        round=entry["round"],
        block=entry["block"],
        table=tuple(entry["table"]),
        seats=tuple(entry["seats"]),
        outcome=Outcome(
            Termination(outcome["termination"]),
            tuple(outcome["ranks"]),
            tuple(outcome["scores"]),
            outcome["culprit"],
            outcome["reason"],
        ),
        plies=entry["plies"],
        record=entry["record"],
        transcript=entry.get("transcript_path", ""),
    )


def old_games(directory: Path) -> dict[int, GameReport]:
    lines = (directory / JOURNAL).read_text().splitlines()[1:]
    entries = [json.loads(line) for line in lines]
    return {e["number"]: version_1_reading(e) for e in entries if e["type"] == "game"}


@pytest.mark.parametrize("mode", MODES)
def test_a_journal_of_the_earlier_form_reads_to_the_same_reports(mode: str) -> None:
    directory = DATA / mode
    expected = old_games(directory)
    state = read_journal(directory)
    assert state.games == expected and sorted(expected) == [1, 2, 3, 4]
    assert state.voids == 1 and state.runner_voids == 0
    assert "".join(r.record for r in expected.values()) == (directory / GAMES).read_text()
    kept = {bool(r.transcript) for r in expected.values()}
    assert kept == ({True} if mode == "all" else {False})


@pytest.mark.parametrize("mode", MODES)
def test_a_journal_of_the_earlier_form_resumes(tmp_path: Path, mode: str) -> None:
    """Resumed by this version: the four games left are played and journaled in the
    codec's form, the old lines are kept as they were, games.tgn holds all eight."""
    out = tmp_path / mode
    shutil.copytree(DATA / mode, out)
    before = (out / JOURNAL).read_bytes()
    plan = Plan.from_config(parse_config(fixture_config(mode), "test"), "test")
    result = trio.run(lambda: run_tournament(plan, out, factory=bot_factory(), resume=True))
    assert result.complete
    assert sorted(r.number for r in result.played) == [5, 6, 7, 8]
    journal = (out / JOURNAL).read_bytes()
    assert journal.startswith(before)
    new_lines = [json.loads(line) for line in journal[len(before) :].splitlines()]
    assert all("transcript" in e and "transcript_path" not in e for e in new_lines)
    state = read_journal(out)
    assert sorted(state.games) == list(range(1, 9))
    assert {n: state.games[n] for n in range(1, 5)} == old_games(DATA / mode)
    for report in result.played:
        assert state.games[report.number] == dataclasses.replace(
            report, overheads=(), round_trips=()
        )
    assert len(read_records(out / GAMES)) == 8


floats = st.floats(allow_nan=False, allow_infinity=False)
texts = st.text(min_size=1, max_size=30)
timings = st.lists(st.integers(0, 10**10).map(lambda us: us / 1e6), min_size=1, max_size=20)
"""Seconds in whole microseconds: the form a report's timings travel in."""


@st.composite
def reports(draw: st.DrawFn) -> GameReport:
    """A report with every field set (none at its default)."""
    seats = draw(st.integers(1, 4))
    outcome = Outcome(
        draw(st.sampled_from(list(Termination))),
        tuple(draw(st.lists(st.integers(1, 4), min_size=seats, max_size=seats))),
        tuple(draw(st.lists(floats, min_size=seats, max_size=seats))),
        draw(st.integers(0, seats - 1)),
        draw(texts),
    )
    return GameReport(
        number=draw(st.integers(1, 2**40)),
        round=draw(st.integers(1, 10**6)),
        block=draw(st.integers(0, 10**6)),
        table=tuple(draw(st.lists(st.integers(0, 10**4), min_size=seats, max_size=seats))),
        seats=tuple(draw(st.lists(texts, min_size=seats, max_size=seats))),
        outcome=outcome,
        plies=draw(st.integers(1, 10**4)),
        record=draw(st.text(min_size=1, max_size=200)),
        overheads=tuple(draw(timings)),
        round_trips=tuple(draw(timings)),
        transcript=draw(texts),
    )


def _arrays_as_tuples(data: Any) -> Any:
    """``data`` as Dask's msgpack hands it back: every array a tuple."""
    if isinstance(data, list):
        return tuple(map(_arrays_as_tuples, data))
    if isinstance(data, dict):
        return {key: _arrays_as_tuples(value) for key, value in data.items()}
    return data


@settings(max_examples=25)
@given(reports(), st.one_of(st.none(), st.text(max_size=40)))
def test_every_field_travels_and_is_journaled(report: GameReport, text: str | None) -> None:
    for name, value in ((f.name, getattr(report, f.name)) for f in dataclasses.fields(report)):
        assert value != GameReport.__dataclass_fields__[name].default, name
    # a worker's message (the report whole, timings too)
    assert from_json(GameReport, json.loads(json.dumps(to_json(report)))) == report
    # a Dask task's message, through JSON or msgpack
    finished = Finished(report, text)
    assert from_json(Finished, json.loads(json.dumps(to_json(finished)))) == finished
    assert from_json(Finished, _arrays_as_tuples(to_json(finished))) == finished
    # the journal's line: the report without its timings
    entry = json.loads(game_line(report))
    assert entry.pop("type") == ("void" if report.void else "game")
    assert report_of(entry) == dataclasses.replace(report, overheads=(), round_trips=())


@settings(max_examples=25)
@given(st.lists(st.floats(0, 1e4)))
def test_timings_travel_to_the_microsecond(seconds: list[float]) -> None:
    report = GameReport(1, 1, 0, (0,), ("a",), Outcome(Termination.RULES, (1,)), 1, "")
    timed = dataclasses.replace(report, overheads=tuple(seconds), round_trips=tuple(seconds))
    data = json.loads(json.dumps(to_json(timed)))
    assert data["overheads"] == data["round_trips"] == [round(s * 1e6) for s in seconds]
    back = from_json(GameReport, data)
    assert all(abs(b - s) <= 0.5e-6 for b, s in zip(back.overheads, seconds, strict=True))


BAD_LINES = [
    (lambda e: e["outcome"]["ranks"].__setitem__(0, "first"), "GameReport.outcome.ranks[0]"),
    (lambda e: e["outcome"].update(termination="won"), "GameReport.outcome.termination"),
    (lambda e: e.update(table="0,1"), "GameReport.table"),
    (lambda e: e.pop("plies"), "missing field 'plies'"),
    (lambda e: e.update(colour="red"), "has no field 'colour'"),
]


def _spoil_line_3(directory: Path, spoil: Any) -> None:
    """Spoil the journal's third line (its second game) in place."""
    lines = (directory / JOURNAL).read_text().splitlines(keepends=True)
    entry = json.loads(lines[2])
    spoil(entry)
    lines[2] = json.dumps(entry) + "\n"
    (directory / JOURNAL).write_text("".join(lines))


@pytest.mark.parametrize(("spoil", "named"), BAD_LINES)
def test_a_malformed_game_line_is_one_journal_error_naming_the_field(
    tmp_path: Path, spoil: Any, named: str
) -> None:
    out = tmp_path / "event"
    shutil.copytree(DATA / "failures", out)
    _spoil_line_3(out, spoil)
    with pytest.raises(JournalError) as info:
        read_journal(out)
    message = str(info.value)
    assert message.startswith(f"{out / JOURNAL}:3: unreadable journal line: ")
    assert named in message and "\n" not in message


def test_the_cli_says_a_malformed_line_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "event"
    shutil.copytree(DATA / "failures", out)
    for derived in ("index.jsonl", "tally.json"):  # else the tables never read line 3
        (out / derived).unlink()
    _spoil_line_3(out, BAD_LINES[0][0])
    code, stdout, stderr = cli(capsys, "standings", str(out))
    assert code != 0 and stdout == ""
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1
    assert ":3: unreadable journal line: GameReport.outcome.ranks[0]: expected int" in stderr


@pytest.mark.parametrize("bad", [[12, "5"], [None], "12", {"a": 1}])
def test_a_report_whose_timings_are_not_microseconds_does_not_read(bad: Any) -> None:
    report = GameReport(1, 1, 0, (0,), ("a",), Outcome(Termination.RULES, (1,)), 1, "")
    data = {**to_json(report), "round_trips": bad}
    with pytest.raises(WireError, match=r"^GameReport\.round_trips: expected Microseconds"):
        from_json(GameReport, data)


EARLIER_HEADER_INFO = {
    "event": "e",
    "game": "trike",
    "names": ["a", "b"],
    "players": 2,
    "total": 40,
    "points_table": [1, 0.5, 0],
    "sprt": {"elo0": 0, "elo1": 5.0, "alpha": 0.05, "beta": 0.1, "model": "logistic"},
    "paired": True,
}
"""A header's event info as the referee wrote it before the codec (``EventInfo.to_json``,
by hand), with whole numbers where a config gave them."""


@pytest.mark.parametrize("mode", MODES)
def test_a_header_s_event_info_reads_and_is_written_as_before(mode: str) -> None:
    header = json.loads((DATA / mode / JOURNAL).read_text().splitlines()[0])
    assert to_json(from_json(EventInfo, header["info"])) == header["info"]
    info = from_json(EventInfo, EARLIER_HEADER_INFO)
    assert info.sprt == Sprt(0.0, 5.0, 0.05, 0.1, "logistic")
    assert info.points_table == (1.0, 0.5, 0.0) and info.paired
    assert to_json(info) == EARLIER_HEADER_INFO  # the same keys and values, as JSON compares


def test_a_header_whose_event_info_does_not_read_is_one_journal_error(tmp_path: Path) -> None:
    out = tmp_path / "event"
    shutil.copytree(DATA / "failures", out)
    lines = (out / JOURNAL).read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["info"]["names"] = ["greedy-1", 2]
    lines[0] = json.dumps(header) + "\n"
    (out / JOURNAL).write_text("".join(lines))
    with pytest.raises(JournalError) as info:
        read_event(out)
    message = str(info.value)
    assert message.endswith("unreadable tournament header: EventInfo.names[1]: expected str, not 2")


@pytest.mark.parametrize("mode", MODES)
def test_a_checkpoint_of_the_earlier_form_reads(mode: str) -> None:
    """``tally.json`` as the referee wrote it before the codec (its fields by hand, in
    another order) reads as the same checkpoint, and is written back with the same keys."""
    directory = DATA / mode
    journal = (directory / JOURNAL).read_bytes()
    header = journal[: journal.index(b"\n") + 1]
    checkpoint = read_checkpoint(directory, header_digest(header), len(journal))
    assert checkpoint is not None
    earlier = json.loads((directory / CHECKPOINT).read_text())
    assert (checkpoint.end, checkpoint.games_end) == (earlier["end"], earlier["games_end"])
    assert checkpoint.voids == earlier["voids"]
    assert len(checkpoint.numbers) == earlier["numbers"]["count"]
    assert {"version": 1, "journal": earlier["journal"], **to_json(checkpoint)} == earlier


def test_a_checkpoint_of_the_earlier_form_with_games_reads(tmp_path: Path) -> None:
    out = tmp_path / "event"
    shutil.copytree(DATA / "all", out)
    journal = (out / JOURNAL).read_bytes()
    digest = header_digest(journal[: journal.index(b"\n") + 1])
    games = old_games(out)
    counts = Counts.of(("greedy-1", "random-2"), True, games.values())
    numbers = GameNumbers()
    for number in games:
        numbers.add(number)
    games_end = len((out / GAMES).read_bytes())
    earlier: dict[str, Any] = {  # write_checkpoint's dict before the codec, field by field
        "version": 1,
        "journal": digest,
        "end": len(journal),
        "games_end": games_end,
        "voids": 1,
        "runner_voids": 0,
        "numbers": numbers.to_json(),
        "counts": counts.to_json(),
    }
    (out / CHECKPOINT).write_text(json.dumps(earlier))
    checkpoint = read_checkpoint(out, digest, len(journal))
    assert checkpoint is not None and checkpoint.counts.done == 4
    assert checkpoint.counts.to_json() == counts.to_json()
    assert checkpoint.numbers.to_json() == numbers.to_json()
    assert (checkpoint.end, checkpoint.voids) == (len(journal), 1)
    assert checkpoint.games_end == games_end > 0
    del earlier["runner_voids"]  # older still: read as none
    (out / CHECKPOINT).write_text(json.dumps(earlier))
    older = read_checkpoint(out, digest, len(journal))
    assert older is not None and to_json(older) == to_json(checkpoint)
