"""``referee tournament`` and ``referee standings`` end to end: real processes where it
matters (the demo, SIGKILL and resume), the console script in-process for the rest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from referee.adjudicate_stream import adjudicate_file
from referee.record.model import GameRecord
from referee.record.stream import read_records
from referee.registry import GAMES
from tests.c_build import build_trike_engine
from tests.clirun import cli
from tests.clirun import run_referee as referee
from tests.procs import left_after, wait_while_running
from tests.tournaments.local import bot_factory
from tournaments.event.config import load_config
from tournaments.event.plan import Plan
from tournaments.event.wire import from_json
from tournaments.results.summary import EventInfo, summarize, summary_json
from tournaments.results.tables import render
from tournaments.runner.run import run_tournament
from tournaments.store.journal import JournalError, hold_lock, read_journal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tournaments" / "examples"
REGISTERED = {cls.name for cls in GAMES}


def _standings_order(stdout: str) -> list[str]:
    """Entrant names in the order of the printed standings table."""
    lines = stdout.split("Standings", 1)[1].split("Crosstable", 1)[0].splitlines()
    return [line.split()[1] for line in lines if line[:1].isdigit()]


def _assert_greedy_above_random(out: Path, stdout: str) -> None:
    """Every greedy entrant is above every random one, and scores half or more against it."""
    assert "Crosstable (pairwise points" in stdout
    order = _standings_order(stdout)
    greedy = [order.index(n) for n in order if n.startswith("greedy")]
    random_ = [order.index(n) for n in order if n.startswith("random")]
    assert greedy and random_ and max(greedy) < min(random_), order
    state = read_journal(out)
    assert state.info is not None
    data = summary_json(summarize(from_json(EventInfo, state.info), list(state.games.values())))
    assert [row["name"] for row in data["standings"]] == order
    cross = {(c["entrant"], c["opponent"]): c["points"] / c["games"] for c in data["crosstable"]}
    for g in (n for n in order if n.startswith("greedy")):
        for r in (n for n in order if n.startswith("random")):
            assert cross[(g, r)] + 1e-9 >= 0.5, (g, r, cross[(g, r)])
    assert all(v.confirmed for v in adjudicate_file(out / "games.tgn"))


@pytest.mark.processes
def test_demo_round_robin(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    done = referee("tournament", str(EXAMPLES / "demo-trike.toml"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "/96 (round 8)" in done.stdout
    assert "records in" in done.stdout
    _assert_greedy_above_random(out, done.stdout)
    assert len(read_records(out / "games.tgn")) == 96
    assert (out / "results.json").is_file()
    assert not (out / "logs").exists()  # no failure, so no transcript by default


@pytest.mark.processes
def test_demo_three_players(tmp_path: Path) -> None:
    """The bundled 3-player Triablo example, bots in-process (the same moves, less time).

    (``demo-trichess.toml`` is checked in ``test_config``; the greedy bot's edge in
    3-player Trichess in ``tests/test_greedy_bot.py``.)
    """
    game = "triablo"
    if game not in REGISTERED:
        pytest.skip(f"{game} is not registered yet")
    plan = Plan.from_config(load_config(EXAMPLES / f"demo-{game}.toml"), game)
    assert plan.players == 3 and len(plan.entrants) == 3
    result = trio.run(
        lambda: run_tournament(plan, tmp_path / game, factory=bot_factory(), workers=0)
    )
    summary = summarize(EventInfo.from_plan(plan), list(result.finished.values()))
    text = render(summary)
    assert "Plackett-Luce" in text
    _assert_greedy_above_random(tmp_path / game, text)


@pytest.mark.processes
def test_tournament_from_options_and_standings_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    done = referee(
        "tournament", "--game", "trike", "--engine", "random", "--engine", "g=greedy --seed 3",
        "--games", "4", "--tc", "5+0.05", "--option", "size=7", "--opening-plies", "1",
        "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Game 4/4" in done.stdout or "/4 (round" in done.stdout
    records = read_records(out / "games.tgn")
    assert len(records) == 4
    assert {r.tag("Options") for r in records} == {"size=7,mode=zero,pie=yes"}
    assert {r.seats for r in records} == {("random", "g"), ("g", "random")}
    code, github, _ = cli(capsys, "standings", str(out), "--format", "github")
    assert code == 0 and "| g " in github
    assert "<table>" in cli(capsys, "standings", str(out), "--format", "html")[1]
    data = json.loads(cli(capsys, "standings", str(out), "--format", "json")[1])
    assert data["games"] == data["total"] == 4
    code, _, err = cli(capsys, "tournament", "--game", "trike", "-e", "random", "-e", "random",
                       "--out", str(out))  # fmt: skip
    assert code == 2 and "already holds a tournament" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("tournament", "--game", "trike", "-e", "random", "-e", "random"), "--out"),
        (("tournament", "--game", "chess", "-e", "random", "-e", "random", "--out", "x"),
         "command line: game: unknown game 'chess'"),
        (("tournament", "--game", "trike", "-e", "random", "--out", "x"), "command line: entrants"),
        (("tournament", "/nonexistent.toml", "--out", "x"), "/nonexistent.toml: cannot read"),
        (("tournament", "--resume", "--out", "/nonexistent"), "nothing to resume"),
        (("tournament", "--game", "trike", "-e", "random", "-e", "random", "--sprt", "5",
          "--out", "x"), "bad --sprt"),
        (("standings", "/nonexistent"), "holds no tournament"),
        (("standings", ".", "--format", "xml"), "unknown --format 'xml'"),
    ],
)  # fmt: skip
def test_user_errors_are_one_line(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, *args)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: error: "), err
    assert message in lines[0]


UNREACHABLE_CLUSTER = """
game = "trike"
games = 2
[cluster]
address = "tcp://127.0.0.1:1"
connect_timeout = 0.3
[[entrants]]
name = "a"
command = "random"
[[entrants]]
name = "b"
command = "random --seed 2"
"""


def test_a_cluster_out_of_reach_leaves_nothing_that_stops_a_rerun(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tournament whose cluster cannot be reached writes no journal header: the same
    command run again fails the same way (one line), not with 'already holds a
    tournament', and the directory is no tournament for ``standings``."""
    pytest.importorskip("distributed")
    config = tmp_path / "club.toml"
    config.write_text(UNREACHABLE_CLUSTER)
    out = tmp_path / "club"
    for _ in range(2):
        code, _, err = cli(capsys, "tournament", str(config), "--out", str(out))
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err
        assert "cannot connect to the Dask scheduler at tcp://127.0.0.1:1" in lines[0]
    assert not (out / "journal.jsonl").exists()
    assert not (out / "results.json").exists() and not (out / "games.tgn").exists()
    code, _, err = cli(capsys, "standings", str(out))
    assert code == 2 and "holds no tournament" in err


def _key(record: GameRecord) -> tuple[object, ...]:
    """A record without its date and timing comments: what must match between runs."""
    tags = tuple((k, v) for k, v in record.tags if k != "Date")
    return tags, record.move_texts


GAMES_IN_KILL_TEST = 30
KILL_CONFIG = """
event = "kill test"
game = "trike"
games = 30
tc = "10+0.1"
concurrency = 2
seed = 11
[openings]
plies = 2
[[entrants]]
name = "c"
command = "trike-c"
[[entrants]]
name = "g"
command = "greedy --seed {marker}"
"""


@pytest.mark.processes
def test_killed_and_resumed_tournament_has_the_games_of_an_uninterrupted_run(
    tmp_path: Path,
) -> None:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    marker = str(800000 + os.getpid() % 100000)
    config = tmp_path / "kill.toml"
    config.write_text(KILL_CONFIG.format(marker=marker))
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    plan = Plan.from_config(load_config(config), "kill.toml")
    trio.run(lambda: run_tournament(plan, whole))  # uninterrupted, in this process
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournaments", "tournament", str(config), "--out", str(killed)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    journal = killed / "journal.jsonl"
    try:
        wait_while_running(
            proc,
            lambda: journal.exists() and journal.read_text().count('"type": "game"') >= 8,
            "no games finished in time",
            120,
        )
        # While it runs: a second runner is refused; the standings can be read.
        with pytest.raises(JournalError, match="in use by another runner"), hold_lock(killed):
            pass
        state = read_journal(killed)
        assert state.info is not None and len(state.games) >= 8
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert journal.read_text().count('"type": "game"') < GAMES_IN_KILL_TEST
    # Workers see their input close and stop their engines: nothing lingers.
    assert left_after(f"--seed {marker}", 30) == [], "engines outlived the killed runner"
    resumed = referee(
        "tournament", str(config), "--out", str(killed), "--resume", "--workers", "0", "-q"
    )
    assert resumed.returncode == 0, resumed.stderr
    expected = sorted(map(_key, read_records(whole / "games.tgn")))
    got = sorted(map(_key, read_records(killed / "games.tgn")))
    assert len(got) == GAMES_IN_KILL_TEST
    assert got == expected
    numbers = [json.loads(line).get("number") for line in journal.read_text().splitlines()[1:]]
    assert sorted(n for n in numbers if n is not None) == list(range(1, GAMES_IN_KILL_TEST + 1))
