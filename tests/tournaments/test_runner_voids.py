"""Games voided by the runner's own lateness: played again on their own budget, and
counted in the run's result, ``results.json`` and the report (in-process players)."""

from __future__ import annotations

import functools
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.results import RUNNER_LATE
from tests.clirun import cli
from tests.tournaments.local import late_factory
from tournaments.cli import play as play_cli
from tournaments.cli import tournament_run
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.html.paged.writer import Layout, write_report
from tournaments.html.report import build_report
from tournaments.play.errors import RUNNER_VOID_ATTEMPTS, VOID_ATTEMPTS, TournamentError
from tournaments.runner.match import run_match
from tournaments.runner.run import RunResult, run_tournament
from tournaments.store.checkpoint import CHECKPOINT
from tournaments.store.event_dir import open_event, read_event
from tournaments.store.journal import JOURNAL, RESULTS, read_journal

TWO = [
    {"name": "random-1", "command": "random --seed 1"},
    {"name": "random-2", "command": "random --seed 2"},
]


def run(out: Path, stalls: int) -> RunResult:
    data: dict[str, Any] = {"game": "trike", "entrants": TWO, "tc": "1+0.01"}
    plan = Plan.from_config(parse_config(data, "test"), "test")
    result: RunResult = trio.run(lambda: run_tournament(plan, out, factory=late_factory(stalls)))
    return result


def test_runner_voids_are_played_again_and_counted(tmp_path: Path) -> None:
    stalls = VOID_ATTEMPTS + 2  # more than an engine's failures may void one game
    result = run(tmp_path / "t", stalls)
    assert result.complete and len(result.played) == 2
    assert result.voids == result.runner_voids == stalls
    results = json.loads((tmp_path / "t" / RESULTS).read_text())
    assert results["void_games"] == {"played_again": stalls, "runner_late": stalls}
    state = read_journal(tmp_path / "t")
    assert state.voids == state.runner_voids == stalls
    page = build_report(read_event(tmp_path / "t"))
    assert f"{stalls} void game(s) played again, {stalls} of them because the runner" in page
    # No time loss was blamed on an engine: every played game ended by the rules.
    assert all(r.outcome.culprit is None for r in result.played)
    assert all(RUNNER_LATE not in r.outcome.reason for r in result.played)


def test_a_runner_late_every_time_stops_the_tournament(tmp_path: Path) -> None:
    with pytest.raises(BaseException) as info:
        run(tmp_path / "t", 10_000)
    error = info.value
    leaves = error.exceptions if isinstance(error, BaseExceptionGroup) else (error,)
    message = f"void {RUNNER_VOID_ATTEMPTS} times because the runner itself was late"
    assert any(isinstance(e, TournamentError) and message in str(e) for e in leaves)


# --- the counts in ``standings --format json`` and the report's first page ----------------

STALLS = 2


@pytest.fixture(scope="module")
def voided(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished event with ``STALLS`` runner voids (and its checkpoint)."""
    out = tmp_path_factory.mktemp("voided") / "t"
    assert run(out, STALLS).runner_voids == STALLS
    return out


def _json_standings(capsys: pytest.CaptureFixture[str], out: Path) -> Any:
    status, text, err = cli(capsys, "standings", str(out), "--format", "json")
    assert status == 0, err
    return json.loads(text)


def test_standings_json_counts_the_void_games(
    voided: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = {"played_again": STALLS, "runner_late": STALLS}
    assert _json_standings(capsys, voided)["void_games"] == expected
    assert json.loads((voided / RESULTS).read_text())["void_games"] == expected


def test_void_counts_without_a_checkpoint_and_after_it(
    voided: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without the checkpoint the journal is counted; a void journaled after the
    # checkpoint (a running event) is counted on top of the checkpoint's.
    copy = tmp_path / "copy"
    shutil.copytree(voided, copy)
    (copy / CHECKPOINT).unlink()
    assert open_event(copy).tally().voids == STALLS
    assert _json_standings(capsys, copy)["void_games"]["runner_late"] == STALLS
    later = tmp_path / "later"
    shutil.copytree(voided, later)
    journal = later / JOURNAL
    void_line = next(x for x in journal.read_text().splitlines() if '"type": "void"' in x)
    entry = json.loads(void_line)
    entry["outcome"]["reason"] = "engine failed to start"
    with journal.open("a") as tail:
        tail.write(json.dumps(entry) + "\n")
    tally = open_event(later).tally()
    assert (tally.voids, tally.runner_voids) == (STALLS + 1, STALLS)


@pytest.mark.parametrize("fmt", ["plain", "github", "html"])
def test_standings_tables_count_the_void_games(
    voided: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The text formats say what ``json``'s ``void_games`` and the report say."""
    status, text, err = cli(capsys, "standings", str(voided), "--format", fmt)
    assert status == 0, err
    said = f"{STALLS} void game(s) played again, {STALLS} of them because the runner itself"
    assert said in text
    assert text.index(said) < text.index("Standings")  # under the title, as in the report


@pytest.mark.parametrize("layout", ["single", "paged"])
def test_the_report_s_first_page_counts_the_void_games(
    voided: Path, tmp_path: Path, layout: Layout
) -> None:
    written = write_report(voided, tmp_path / "report.html", layout=layout)
    assert written.layout == layout
    page = written.page.read_text()
    assert f"{STALLS} void game(s) played again, {STALLS} of them because the runner" in page
    data = re.search(r'id="results-data"[^>]*>(.*?)</script>', page, re.S)
    assert data is not None
    voids = json.loads(data.group(1))["void_games"]
    assert voids == {"played_again": STALLS, "runner_late": STALLS}


def test_play_and_tournament_end_with_the_sentence_of_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both commands' last tables say a run's void games as ``standings`` and the report
    do (``results.tables.voids_text``), the players in this process running late."""
    stalls = 2
    same = ("-e", "random --seed 1", "-e", "random --seed 2", "--tc", "1+0.01", "--games", "2",
            "-q")  # fmt: skip
    said = (
        f"{stalls} void game(s) played again, {stalls} of them because the runner itself was"
        " late (no engine blamed)."
    )
    late_match = functools.partial(run_match, factory=late_factory(stalls))
    monkeypatch.setattr(play_cli, "run_match", late_match)
    status, played, err = cli(capsys, "play", "trike", *same)
    assert status == 0, err
    assert said in played.splitlines()
    late_run = functools.partial(run_tournament, factory=late_factory(stalls))
    monkeypatch.setattr(tournament_run, "run_tournament", late_run)
    status, toured, err = cli(capsys, "tournament", "-g", "trike", *same, "--workers", "0",
                              "--out", str(tmp_path / "ev"))  # fmt: skip
    assert status == 0, err
    assert toured.index(said) < toured.index("Standings")  # under the title
