"""Tournaments on a Dask cluster: a real scheduler and workers as processes on loopback.

The reference is the local runner with the same config: with the seeded built-in
bots every game is reproducible, so a cluster run must journal the very same games
(result and moves per game number), also after a worker is SIGKILLed mid-tournament
or the scheduler disappears and the tournament is resumed locally.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.record.stream import read_records
from tests.clirun import run_referee
from tests.cluster.dask_procs import dask_cluster, wait_gone
from tournaments.cli.app import main
from tournaments.cli.play import match_config
from tournaments.cli.tournament_setup import RunOptions, checked_plan
from tournaments.cluster.local import LoopbackCluster
from tournaments.cluster.task import ENGINES_VARIABLE, Finished, play_batch, worker_entrants
from tournaments.event.cluster_settings import ClusterConfig
from tournaments.event.config import ConfigError, parse_config
from tournaments.event.plan import Plan
from tournaments.event.wire import from_json, to_json
from tournaments.results.game import GameReport
from tournaments.runner.match import run_match
from tournaments.runner.run import Progress, run_tournament
from tournaments.store import transcripts
from tournaments.store.journal import JOURNAL, config_difference, report_of

pytest.importorskip("distributed")

GAMES = 8
# Unusual bot seeds: they mark this file's engine processes in /proc.
ENGINE_MARKER = "--seed 104729"


def make_plan(address: str | None, games: int = GAMES, **cluster: Any) -> Plan:
    data: dict[str, Any] = {
        "game": "trike",
        "options": {"size": 7},
        "entrants": [
            {"name": "rand", "command": "random --seed 7919"},
            {"name": "greedy", "command": f"greedy {ENGINE_MARKER}"},
        ],
        "games": games,
        "tc": "60+1",
        "seed": 5,
        "concurrency": 2,
        "workers": 0,
        "transcripts": "all",
        "cluster": {"address": address, "batch": 2, "connect_timeout": 10, **cluster},
    }
    return Plan.from_config(parse_config(data))


def journal_games(out: Path) -> list[dict[str, Any]]:
    """The journal's game lines (voids left out), in order."""
    lines = (out / JOURNAL).read_text().splitlines()[1:]
    return [entry for entry in map(json.loads, lines) if entry["type"] == "game"]


def game_facts(out: Path) -> dict[int, tuple[Any, ...]]:
    """Per game number: seats, termination, ranks and the moves of its record."""
    facts: dict[int, tuple[Any, ...]] = {}
    for entry in journal_games(out):
        entry.pop("type")
        report = report_of(entry)
        moves = tuple(m.text for m in _one_record(report.record).moves)
        outcome = report.outcome
        facts[report.number] = (report.seats, outcome.termination, outcome.ranks, moves)
    return facts


def _one_record(text: str) -> Any:
    from referee.record.parse import parse_records

    (record,) = parse_records(text)
    return record


def assert_each_game_once(out: Path, games: int = GAMES) -> None:
    numbers = Counter(entry["number"] for entry in journal_games(out))
    assert sorted(numbers) == list(range(1, games + 1))
    assert set(numbers.values()) == {1}
    records = read_records(out / "games.tgn")
    assert sorted(int(r.tag("GameNumber") or 0) for r in records) == list(range(1, games + 1))
    results = json.loads((out / "results.json").read_text())
    assert results["games"] == games


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Any, ...]]:
    """The local runner's games (engine processes in one loop)."""
    import trio

    out = tmp_path_factory.mktemp("local") / "out"
    result = trio.run(run_tournament, make_plan(None), out)
    assert result.complete
    return game_facts(out)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackCluster]:
    with dask_cluster(tmp_path_factory.mktemp("dask"), workers=2) as running:
        yield running
    assert not wait_gone(ENGINE_MARKER), "engines outlived their workers"


# --- without a cluster ---------------------------------------------------------------------


def test_cluster_section_is_checked_and_ignored_on_resume() -> None:
    plan = make_plan("tcp://127.0.0.1:8786", engines={"rand": "/opt/rand"})
    assert plan.config.cluster.engines == {"rand": "/opt/rand"}
    with pytest.raises(ConfigError, match=r"config: cluster\.batchsize: unknown key"):
        parse_config(
            {"game": "trike", "entrants": [{"command": "random"}] * 2, "cluster": {"batchsize": 3}}
        )
    with pytest.raises(ConfigError, match=r"cluster\.batch"):
        parse_config(
            {"game": "trike", "entrants": [{"command": "random"}] * 2, "cluster": {"batch": 0}}
        )
    local = make_plan(None).config.model_dump(mode="json")
    assert config_difference(plan.config.model_dump(mode="json"), local) is None
    assert ClusterConfig().address is None


def test_cluster_engines_must_name_entrants() -> None:
    from tournaments.cluster.client import ClusterError, remote_commands

    plan = make_plan(None, engines={"greedy": "/opt/greedy"})
    assert remote_commands(plan) == ["random --seed 7919", "/opt/greedy"]
    with pytest.raises(ClusterError, match=r"cluster\.engines: 'greedyy' is not an entrant"):
        remote_commands(make_plan(None, engines={"greedyy": "/opt/greedy"}))


def test_cluster_local_plays_here_despite_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "trike"\noptions = { size = 7 }\ngames = 2\n'
        '[cluster]\naddress = "tcp://127.0.0.1:9"\n'
        '[[entrants]]\ncommand = "random"\n[[entrants]]\ncommand = "greedy"\n'
    )
    argv = ["referee", "tournament", str(config), "--out", str(tmp_path / "out"), "-q"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", [*argv, "--cluster", "local"])
        with pytest.raises(SystemExit) as info:
            main()
    assert info.value.code in (0, None), capsys.readouterr().err
    assert len(journal_games(tmp_path / "out")) == 2


def test_worker_resolves_engines_from_its_own_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = make_plan(None)
    engines = tmp_path / "engines.toml"
    engines.write_text('greedy = "/opt/engines/greedy --fast"\n')
    monkeypatch.setenv(ENGINES_VARIABLE, str(engines))
    commands = ["random --seed 7919", "greedy --seed 1"]
    rand, greedy = worker_entrants(plan.entrants, commands)
    assert rand.argv == (sys.executable, "-m", "bots", "random", "--seed", "7919")
    assert greedy.argv == ("/opt/engines/greedy", "--fast")  # the worker's file wins
    assert greedy.name == "greedy"


def test_a_batch_plays_like_the_local_runner(
    tmp_path: Path, reference: dict[int, tuple[Any, ...]]
) -> None:
    """The Dask task's function, called here: same games, transcripts inside."""
    plan = make_plan(None)
    jobs = [to_json(plan.job(f)) for f in plan.static_fixtures()[:2]]
    commands = [e.command for e in plan.config.entrants]
    reports = play_batch(to_json(plan.slot_setup(tmp_path)), commands, jobs, "t")
    assert [r["report"]["number"] for r in reports] == [1, 2]
    for data in reports:
        finished = from_json(Finished, data)
        report = finished.report
        moves = tuple(m.text for m in _one_record(report.record).moves)
        facts = (report.seats, report.outcome.termination, report.outcome.ranks, moves)
        assert facts == reference[report.number]
        assert (finished.transcript_text or "").startswith(f"# game {report.number}")
    assert not (tmp_path / "logs").exists()  # the runner writes them, not the task


# --- on a cluster --------------------------------------------------------------------------


@pytest.mark.cluster
async def test_cluster_plays_the_same_games_as_the_local_runner(
    tmp_path: Path, cluster: LoopbackCluster, reference: dict[int, tuple[Any, ...]]
) -> None:
    out = tmp_path / "out"
    result = await run_tournament(make_plan(cluster.address), out)
    assert result.complete and len(result.played) == GAMES
    assert game_facts(out) == reference
    assert_each_game_once(out)
    kept = transcripts.read_transcript(out, 1)
    assert kept is not None and kept.startswith("# game 1")
    header = json.loads((out / JOURNAL).read_text().splitlines()[0])
    assert header["config"]["cluster"]["address"] == cluster.address


def match_records(path: Path) -> dict[str, tuple[Any, ...]]:
    """Per ``GameNumber`` of a record file: its tags but the date, and its moves."""
    return {
        record.tag("GameNumber") or "": (
            [(k, v) for k, v in record.tags if k != "Date"],
            [move.text for move in record.moves],
        )
        for record in read_records(path)
    }


@pytest.mark.cluster
async def test_play_on_a_cluster_plays_the_local_matchs_games(
    tmp_path: Path, cluster: LoopbackCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """``referee play --cluster``: the same driver, the same games, records and transcripts
    as a local match (issue 24: one driver, local or cluster alike)."""
    settings: dict[str, Any] = {
        "game": "trike",
        "options": {"size": 7},
        "games": 4,
        "tc": "60+1",
        "seed": 5,
        "transcripts": "all",
    }
    entrants = [
        {"name": "rand", "command": "random --seed 7919"},
        {"name": "greedy", "command": f"greedy {ENGINE_MARKER}"},
    ]

    def plan(address: str | None) -> Plan:
        cluster_keys = {"cluster": {"address": address, "batch": 1}} if address else {}
        config = match_config({**settings, **cluster_keys}, entrants)
        return checked_plan(config, "command line", RunOptions(max_plies=1000))

    await run_match(plan(None), tmp_path / "here.tgn", transcript_file=tmp_path / "here.log")
    result = await run_match(
        plan(cluster.address), tmp_path / "there.tgn", transcript_file=tmp_path / "there.log"
    )
    assert result.played_count == 4 and result.voids == 0
    assert match_records(tmp_path / "there.tgn") == match_records(tmp_path / "here.tgn")
    kept = (tmp_path / "there.log").read_text()
    assert sorted(number for number, _ in transcripts.blocks(kept)) == [1, 2, 3, 4]


@pytest.mark.cluster
async def test_a_failing_preflight_names_the_worker_and_the_entrant(
    tmp_path: Path, cluster: LoopbackCluster
) -> None:
    from tournaments.cluster.client import ClusterError

    plan = make_plan(cluster.address, engines={"greedy": str(tmp_path / "no-such-engine")})
    with pytest.raises(ClusterError) as caught:
        await run_tournament(plan, tmp_path / "out")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("cluster preflight: worker tcp://127.0.0.1:")
    assert "entrant 'greedy': step 1 handshake" in message
    # no game was played, and no journal begun: the header waits for the games to start
    assert not (tmp_path / "out" / JOURNAL).exists()


def test_no_scheduler_at_the_address_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "trike"\n[cluster]\nconnect_timeout = 1\n'
        '[[entrants]]\ncommand = "random"\n[[entrants]]\ncommand = "greedy"\n'
    )
    argv = ["referee", "tournament", str(config), "--out", str(tmp_path / "out")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", [*argv, "--cluster", "tcp://127.0.0.1:9"])
        with pytest.raises(SystemExit) as info:
            main()
    assert info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(
        "referee: error: cannot connect to the Dask scheduler at tcp://127.0.0.1:9"
    )



@pytest.mark.parametrize("address", ["bogus", "tcp://host:port"])
@pytest.mark.parametrize("command", ["play", "tournament"])
def test_an_address_that_does_not_parse_is_one_line_and_no_traceback(
    tmp_path: Path, command: str, address: str
) -> None:
    # A child process: Dask's finaliser of a Client that failed on its address printed a
    # traceback at exit (after a 20 s wait), after the one-line error.
    argv = ["-g", "trike", "--out", str(tmp_path / "out")] if command == "tournament" else ["trike"]
    proc = run_referee(command, *argv, "-e", "random", "-e", "greedy", "--cluster", address)
    assert proc.returncode == 2, proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"referee: error: bad Dask scheduler address {address!r}: ")
    assert line.endswith("; expected tcp://HOST:PORT")
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.mark.cluster
async def test_a_game_reported_twice_counts_once(
    tmp_path: Path, cluster: LoopbackCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every batch goes out twice (as when Dask runs a task again after its worker died):
    each game is still journaled once, and its one transcript written."""
    from tournaments.cluster.client import ClusterGames

    submit = ClusterGames._submit

    def twice(self: ClusterGames, jobs: Any) -> None:
        submit(self, jobs)
        submit(self, jobs)

    monkeypatch.setattr(ClusterGames, "_submit", twice)
    out = tmp_path / "out"
    result = await run_tournament(make_plan(cluster.address, games=4), out)
    assert result.complete and len(result.played) == 4
    assert_each_game_once(out, games=4)
    store = "".join(p.read_text() for p in (out / "logs").iterdir())
    assert [n for n, _ in transcripts.blocks(store)].count(1) == 1  # one transcript a game
    assert sorted(n for n, _ in transcripts.blocks(store)) == [1, 2, 3, 4]


@pytest.mark.cluster
async def test_reports_stream_back_before_their_task_ends(
    tmp_path: Path, cluster: LoopbackCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the tasks' results thrown away, the streamed reports alone finish the run
    (were any missing, its games would be sent again, lost again, and the run stop)."""
    from tournaments.cluster.client import ClusterGames

    handle = ClusterGames._handle

    def streamed_only(
        self: ClusterGames, phase: Any, kind: str, tag: str, payload: Any, submit: Any
    ) -> None:
        if kind == "task" and payload[0] == "finished":
            payload = ("finished", [])
        handle(self, phase, kind, tag, payload, submit)

    monkeypatch.setattr(ClusterGames, "_handle", streamed_only)
    out = tmp_path / "out"
    result = await run_tournament(make_plan(cluster.address, games=4), out)
    assert result.complete
    assert_each_game_once(out, games=4)


@pytest.mark.cluster
async def test_a_killed_worker_loses_only_its_games(
    tmp_path: Path, cluster: LoopbackCluster, reference: dict[int, tuple[Any, ...]]
) -> None:
    """SIGKILL a worker once the first game is journaled: its games are played again on
    the other worker, and every game is journaled exactly once. (Runs late: it leaves
    the module's cluster one worker.)"""
    assert all(w.poll() is None for w in cluster.workers)
    killed: list[int] = []

    def on_game(report: GameReport, progress: Progress) -> None:
        if not killed:
            killed.append(report.number)
            cluster.kill_worker(0)

    out = tmp_path / "out"
    result = await run_tournament(make_plan(cluster.address), out, on_game=on_game)
    assert killed and cluster.workers[0].returncode is not None
    assert result.complete
    assert_each_game_once(out)
    assert game_facts(out) == reference


@pytest.mark.cluster
async def test_a_lost_scheduler_stops_cleanly_and_resume_finishes_locally(
    tmp_path: Path, cluster: LoopbackCluster, reference: dict[int, tuple[Any, ...]]
) -> None:
    """Kill the scheduler once the first game is journaled: one line, the finished games
    kept, and ``--resume`` without the cluster plays exactly the rest. (Runs last: it
    ends the module's cluster.)"""
    from tournaments.cluster.client import ClusterError

    out = tmp_path / "out"
    stopped: list[int] = []

    def on_game(report: GameReport, progress: Progress) -> None:
        if not stopped:
            stopped.append(report.number)
            cluster.kill_scheduler()

    with pytest.raises(ClusterError) as caught:
        await run_tournament(make_plan(cluster.address, batch=1), out, on_game=on_game)
    message = str(caught.value)
    assert "\n" not in message and "--resume" in message
    assert message.startswith(f"lost the Dask scheduler at {cluster.address}")
    finished = {entry["number"] for entry in journal_games(out)}
    assert 1 <= len(finished) < GAMES  # what finished was kept
    result = await run_tournament(make_plan(None), out, resume=True)
    assert result.complete
    assert len(result.played) == GAMES - len(finished)
    assert_each_game_once(out)
    assert game_facts(out) == reference
