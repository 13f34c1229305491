"""``referee play`` runs on the tournament's driver (issue 24, "One driver").

In-process players (``tests.tournaments.local``) for the cheap checks: the same games
give the same records under ``play`` and ``tournament`` (the same tag set, the same
``Round``, ``GameNumber`` and ``Opening``); an openings file; concurrency; a void game is
played again and never written to the record file. The console script for what only a
real run shows: ``play --concurrency 2`` on worker processes, with an openings file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.adjudicate_stream import adjudicate_file
from referee.record import GameRecord, read_records
from tests.clirun import RefereeCli, cli
from tests.tournaments.local import bot_factory, failing_starts, late_factory
from tournaments.cli.play import match_config
from tournaments.cli.tournament_setup import RunOptions, checked_plan, engine_entrants
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.play.errors import VOID_ATTEMPTS, TournamentError
from tournaments.runner.match import MatchResult, run_match
from tournaments.runner.run import run_tournament
from tournaments.store import transcripts
from tournaments.store.journal import GAMES

ENGINES = ["random --seed 1", "greedy --seed 2"]
OPENINGS = "i1 i3\ni2 h2\n"
"""Two Trike openings (legal from the start: the first seat's pawn, then a checker)."""


def plan_of(**settings: Any) -> Plan:
    """``play``'s own plan of a match between ``ENGINES`` (``cli.play.match_config``)."""
    base: dict[str, Any] = {"game": "trike", "games": 4, "seed": 7}
    entrants = engine_entrants(ENGINES, None, nodes=None, depth=None)[0]
    config = match_config({**base, **settings}, entrants)
    return checked_plan(config, "command line", RunOptions(max_plies=1000))


def play(plan: Plan, out: Path, **kwargs: Any) -> MatchResult:
    kwargs.setdefault("factory", bot_factory())
    result: MatchResult = trio.run(lambda: run_match(plan, out, **kwargs))
    return result


def assert_same_games(mine: list[GameRecord], theirs: list[GameRecord]) -> None:
    """The same games in the same order: the same tags in the same order, with the same
    values but for those that differ between two runs (``Event``, ``Date``), and the
    same moves."""
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs, strict=True):
        assert [k for k, _ in a.tags] == [k for k, _ in b.tags]
        assert [t for t in a.tags if t[0] not in ("Event", "Date")] == [
            t for t in b.tags if t[0] not in ("Event", "Date")
        ]
        assert [m.text for m in a.moves] == [m.text for m in b.moves]


def test_play_and_tournament_records_of_the_same_games_are_the_same(tmp_path: Path) -> None:
    settings: dict[str, Any] = {"openings": {"plies": 2}}
    play(plan_of(**settings), tmp_path / "play.tgn")
    config = parse_config(
        {
            "game": "trike",
            "games": 4,
            "seed": 7,
            "entrants": [{"command": text} for text in ENGINES],
            **settings,
        },
        "test",
    )
    trio.run(
        lambda: run_tournament(
            Plan.from_config(config, "test"), tmp_path / "ev", factory=bot_factory()
        )
    )
    played = read_records(tmp_path / "play.tgn")
    toured = read_records(tmp_path / "ev" / GAMES)
    assert len(played) == len(toured) == 4
    assert_same_games(played, toured)
    assert {r.tag("Event") for r in played} == {"referee match"}
    assert [r.tag("GameNumber") for r in played] == ["1", "2", "3", "4"]
    assert [r.tag("Round") for r in played] == ["1", "1", "2", "2"]
    assert all(r.tag("Opening") for r in played)
    # Seats rotate game by game, the opening changes once both seats have had it.
    assert [(r.tag("Seat1"), r.tag("Seat2")) for r in played[:2]] == [
        ("random", "greedy"),
        ("greedy", "random"),
    ]
    assert played[0].tag("Opening") == played[1].tag("Opening") != played[2].tag("Opening")


def test_play_takes_its_openings_from_a_file(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text(OPENINGS)
    result = play(plan_of(openings={"file": str(book)}), tmp_path / "g.tgn", concurrency=2)
    assert result.played_count == 4 and result.voids == 0
    records = read_records(tmp_path / "g.tgn")
    by_number = {r.tag("GameNumber"): r.tag("Opening") for r in records}
    assert by_number == {"1": "i1 i3", "2": "i1 i3", "3": "i2 h2", "4": "i2 h2"}
    assert all(r.start for r in records)  # each game starts after its opening
    assert all(verdict.confirmed for verdict in adjudicate_file(tmp_path / "g.tgn"))


def test_a_void_game_is_played_again_and_never_recorded(tmp_path: Path) -> None:
    seen: list[tuple[int, bool]] = []
    out = tmp_path / "g.tgn"
    result = play(
        plan_of(),
        out,
        factory=failing_starts(VOID_ATTEMPTS - 1),
        on_game=lambda report: seen.append((report.number, report.void)),
    )
    assert result.voids == VOID_ATTEMPTS - 1 and result.played_count == 4
    assert seen[: VOID_ATTEMPTS - 1] == [(1, True)] * (VOID_ATTEMPTS - 1)
    assert [number for number, void in seen if not void] == [1, 2, 3, 4]
    records = read_records(out)
    assert [r.tag("GameNumber") for r in records] == ["1", "2", "3", "4"]
    assert "void" not in {r.tag("Termination") for r in records}


def test_runner_late_voids_are_played_again_on_their_own_budget(tmp_path: Path) -> None:
    stalls = VOID_ATTEMPTS + 1  # more than the engine-void budget: a separate count
    out = tmp_path / "g.tgn"
    result = play(plan_of(tc="1+0.01"), out, factory=late_factory(stalls))
    assert result.voids == result.runner_voids == stalls and result.played_count == 4
    records = read_records(out)
    assert [r.tag("GameNumber") for r in records] == ["1", "2", "3", "4"]
    assert "void" not in {r.tag("Termination") for r in records}


def test_a_game_void_every_time_stops_the_match_with_the_games_before_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "g.tgn"
    with pytest.raises(TournamentError, match=f"game 1 was void {VOID_ATTEMPTS} times") as info:
        play(plan_of(), out, factory=failing_starts(100))
    assert "resume" not in str(info.value)  # a match has nothing to resume
    assert not out.exists() or read_records(out) == []


@pytest.mark.processes
def test_play_at_concurrency_2_on_worker_processes_with_an_openings_file(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    (tmp_path / "book.txt").write_text(OPENINGS)
    done = referee_cli(
        "play", "trike", "-e", "random", "-e", "greedy", "--games", "4", "--concurrency", "2",
        "--openings", "book.txt", "--tc", "inf", "--out", "g.tgn", "--transcripts", "all",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = re.findall(r"^Game (\d)/4 \(round (\d)\)", done.stdout, re.MULTILINE)
    assert sorted(lines) == [("1", "1"), ("2", "1"), ("3", "2"), ("4", "2")]
    records = read_records(tmp_path / "g.tgn")
    assert sorted(r.tag("GameNumber") or "" for r in records) == ["1", "2", "3", "4"]
    assert {r.tag("Opening") for r in records} == {"i1 i3", "i2 h2"}
    assert all(verdict.confirmed for verdict in adjudicate_file(tmp_path / "g.tgn"))
    # Both worker processes kept their games' transcripts in play's one file.
    text = (tmp_path / "g.transcripts.log").read_text()
    assert sorted(re.findall(r"^# game (\d),", text, re.MULTILINE)) == ["1", "2", "3", "4"]


@pytest.mark.processes
def test_the_play_and_tournament_commands_record_the_same_games_alike(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    """The console commands themselves: the same engines and seed give the same games,
    whose records carry the same tags (only ``Event`` and ``Date`` differ)."""
    common = ("-e", "random", "-e", "greedy", "--seed", "3", "--tc", "inf",
              "--opening-plies", "2")  # fmt: skip
    played = referee_cli("play", "trike", *common, "--games", "4", "--out", "p.tgn", cwd=tmp_path)
    assert played.returncode == 0, played.stdout + played.stderr
    toured = referee_cli(
        "tournament", "--game", "trike", *common, "--rounds", "2", "--out", "ev", "-q",
        cwd=tmp_path,
    )  # fmt: skip
    assert toured.returncode == 0, toured.stdout + toured.stderr
    mine = sorted(read_records(tmp_path / "p.tgn"), key=lambda r: int(r.tag("GameNumber") or 0))
    theirs = read_records(tmp_path / "ev" / GAMES)
    assert len(mine) == len(theirs) == 4
    assert_same_games(mine, theirs)


def test_plays_one_transcript_file_is_kept_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every slot (and worker process) appends to play's one file; it is never rotated,
    where a tournament's per-process store would be (processes rotating one file race)."""
    monkeypatch.setattr(transcripts, "ROTATE_BYTES", 1)
    kept = tmp_path / "g.transcripts.log"
    play(plan_of(transcripts="all"), tmp_path / "g.tgn", concurrency=2, transcript_file=kept)
    numbers = sorted(number for number, _ in transcripts.blocks(kept.read_text()))
    assert numbers == [1, 2, 3, 4]
    assert [path.name for path in tmp_path.iterdir() if ".old" in path.name] == []


def _standings(stdout: str) -> list[str]:
    """The standings table's lines: from its header (``#  Entrant …``) to a blank line."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#    Entrant"))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


@pytest.mark.processes
def test_play_prints_the_standings_table_tournament_prints_of_the_same_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Three seats: the table's columns are the places (1st, 2nd, 3rd, Avg place), not W/D/L.
    same = ("-e", "greedy --seed 2", "-e", "random --seed 1", "-e", "random --seed 5",
            "--max-plies", "30", "--seed", "4", "--games", "3", "-q")  # fmt: skip
    code, played, err = cli(capsys, "play", "tricolor", *same)
    assert code == 0, err
    code, toured, err = cli(
        capsys, "tournament", "-g", "tricolor", *same, "--players", "3",
        "--seat-order", "cyclic", "--out", str(tmp_path / "ev"),
    )  # fmt: skip
    assert code == 0, err
    table = _standings(played)
    assert table == _standings(toured)
    assert table[0].split() == ["#", "Entrant", "Games", "Points", "Score", "1st", "2nd",
                                "3rd", "Avg", "place", "Forfeits"]  # fmt: skip
    assert len(table) == 2 + 3
