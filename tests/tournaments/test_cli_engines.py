"""``referee tournament`` with per-engine settings (``-e name=… cmd=… tc=…``), ``--each``,
the cutechess counting flags and the notes and errors of options that contradict each
other or a config file."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from protocol.spec import EngineSpec
from referee.adjudicate_stream import adjudicate_file
from referee.clock import TimeControl
from referee.record.stream import read_records
from tests.clirun import cli
from tournaments.cli.tournament_setup import override_notes
from tournaments.event.jobs import SlotSetup
from tournaments.event.wire import from_json, to_json

FAST = ("--game", "trike", "--option", "size=7", "--max-plies", "6", "--workers", "0", "-q")
"""A cheap event: a small board, six plies a game, every game in one loop."""

_REMAINING = re.compile(r"^\S+s (\d+\.\d+)s")


@pytest.mark.processes
def test_rounds_and_games_count_as_in_cutechess(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ev"
    code, stdout, err = cli(
        capsys, "tournament", *FAST, "-e", "random", "-e", "greedy", "-e", "r2=random --seed 2",
        "--rounds", "3", "--games", "2", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    records = read_records(out / "games.tgn")
    assert len(records) == 3 * 3 * 2  # 3 rounds x 3 pairings x 2 games
    assert {r.tag("Round") for r in records} == {"1", "2", "3"}
    pairs = [frozenset(r.seats) for r in records]
    assert all(pairs.count(p) == 6 for p in set(pairs)) and len(set(pairs)) == 3
    assert "18/18 games" in stdout


@pytest.mark.processes
def test_time_odds_show_in_the_records_and_the_clocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ev"
    code, stdout, err = cli(
        capsys, "tournament", *FAST, "-e", "name=short cmd=random tc=2+0.1", "-e", "random",
        "--tc", "30+0.5", "--games", "2", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert stdout.startswith("Engines: short (2+0.1), random (30+0.5)\n"), stdout
    records = read_records(out / "games.tgn")
    assert len(records) == 2
    for record in records:
        controls = dict(zip(record.seats, ("2+0.1", "30+0.5"), strict=True))
        if record.seats[0] != "short":
            controls = dict(zip(record.seats, ("30+0.5", "2+0.1"), strict=True))
        assert record.tag("TimeControl") == ",".join(controls[name] for name in record.seats)
        for ply, move in enumerate(record.moves):
            seat = record.seats[ply % 2]
            left = float(_REMAINING.match(move.comment or "").group(1))  # type: ignore[union-attr]
            base = TimeControl.parse(controls[seat])
            assert base.base is not None and base.increment is not None
            # the seat's own clock: never above its base plus the increments it earned
            assert left <= base.base + base.increment * (ply // 2 + 1) + 1e-9, (seat, left)
            if seat != "short":
                assert left > 2 + 0.1 * (ply // 2 + 1)  # not the short clock
    # the clock check of adjudicate replays each seat's own control and agrees
    assert all(v.confirmed for v in adjudicate_file(out / "games.tgn"))


def test_slot_setup_carries_each_entrants_control_and_restart() -> None:
    entrants = (EngineSpec("a", ("a",), restart=True), EngineSpec("b", ("b",)))
    setup = SlotSetup(
        game="trike", options=(), players=2, entrants=entrants, tc=TimeControl.parse("10+0.1"),
        max_plies=10, adjudication=None, start_timeout=1.0, event="e", out=None,
        transcripts="none", tcs=(TimeControl.parse("1+0"), TimeControl.parse("40/60+0.5")),
    )  # fmt: skip
    back = from_json(SlotSetup, to_json(setup))
    assert back.tcs == setup.tcs
    assert [spec.restart for spec in back.entrants] == [True, False]
    assert [tc.tag() for tc in back.seat_controls((1, 0))] == ["40/60+0.5", "1+0"]
    plain = from_json(SlotSetup, {**to_json(setup), "tcs": []})
    assert plain.seat_controls((1, 0)) == (plain.tc, plain.tc)


@pytest.mark.processes
def test_each_fills_unset_keys_and_a_shared_node_limit_spares_an_engine_without_the_feature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ev"
    code, _, err = cli(
        capsys, "tournament", *FAST, "-e", "name=m cmd=mcts nodes=20", "-e", "name=m2 cmd=mcts",
        "-e", "greedy", "--each", "nodes=30 tc=20+0.2", "--games", "1", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert "greedy does not declare 'feature nodes': it plays without a node limit" in err
    entrants = {e.get("name") or e["command"]: e for e in _journal_config(out)["entrants"]}
    assert entrants["m"]["nodes"] == 20  # its own
    assert entrants["m2"]["nodes"] == 30  # --each's
    assert entrants["greedy"]["nodes"] is None  # no feature nodes
    assert {e["tc"] for e in entrants.values()} == {"20+0.2"}
    records = read_records(out / "games.tgn")
    assert {r.tag("TimeControl") for r in records} == {"20+0.2"}
    searched: dict[str, set[str]] = {"m": set(), "m2": set(), "greedy": set()}
    for record in records:
        for ply, move in enumerate(record.moves):
            searched[record.seats[ply % 2]].update(_NODES.findall(move.comment or ""))
    assert searched == {"m": {"20"}, "m2": {"30"}, "greedy": set()}


_NODES = re.compile(r"\bn=(\d+)")


def _journal_config(out: Path) -> dict[str, Any]:
    """The config a tournament started with (its journal's first line)."""
    with open(out / "journal.jsonl", encoding="utf-8") as f:
        config = json.loads(f.readline())["config"]
    assert isinstance(config, dict)
    return config


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rounds", "2", "--max-games", "5"), "give --rounds or --max-games, not both"),
        (("--games", "2", "--games-per-encounter", "4"),
         "--games 2 and --games-per-encounter 4 contradict"),
        (("--nodes", "5", "--each", "nodes=6"), "--nodes 5 and --each nodes=6 contradict"),
        (("--each", "name=x"), "name is each engine's own"),
        (("--entrants", "add"), "give a file"),
        (("--tc", "1+0", "--movetime", "100"), "give either --tc or --movetime, not both"),
        (("--tc", "1+0", "--each", "tc=2+0"), "--tc 1+0 and --each tc=2+0 contradict"),
        (("--movetime", "100", "--each", "tc=2+0"), "--movetime 100 and --each tc=2+0"),
    ],
)  # fmt: skip
def test_contradicting_flags_are_one_line_errors(
    args: tuple[str, ...], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(
        capsys, "tournament", *FAST, "-e", "random", "-e", "random", *args,
        "--out", str(tmp_path / "ev"),
    )  # fmt: skip
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "ev").exists()


def test_options_over_a_config_file_are_noted() -> None:
    earlier = {"tc": "10+0.1", "games": 40, "rounds": 8, "seed": 2}
    overrides = {"tc": "1+0", "rounds": 3, "seed": 2}
    flags = {"tc": "--tc", "rounds": "--rounds", "seed": "--seed"}
    notes = override_notes(earlier, overrides, flags)
    assert notes == [
        '--tc "1+0" overrides the config\'s tc = "10+0.1"',
        "--rounds 3 overrides the config's rounds = 8",
        "--rounds 3 replaces the config's games = 40",
    ]
    assert overrides["games"] is None  # the file's total no longer beats --rounds
    capped = {"games": 12}
    notes = override_notes({"rounds": 8}, capped, {"games": "--max-games"})
    assert notes == [
        "--max-games 12: the config's rounds = 8 is ignored (the schedule repeats until that"
        " many games)"
    ]


@pytest.mark.processes
def test_engines_beside_a_config_file_say_what_they_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "ev.toml"
    config.write_text(
        'game = "trike"\noptions = { size = 7 }\ntc = "10+0.1"\nrounds = 4\n'
        '[[entrants]]\ncommand = "random"\n[[entrants]]\ncommand = "greedy"\n',
        encoding="utf-8",
    )
    out = tmp_path / "ev"
    code, _, err = cli(
        capsys, "tournament", str(config), "-e", "name=m cmd=random", "--tc", "5+0.1",
        "--max-games", "3", "--max-plies", "4", "--workers", "0", "-q", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert f"1 entrant(s) from -e added to the 2 of {config}" in err
    assert '--tc "5+0.1" overrides the config\'s tc = "10+0.1"' in err
    assert "the config's rounds = 4 is ignored" in err
    records = read_records(out / "games.tgn")
    assert len(records) == 3 and {r.tag("TimeControl") for r in records} == {"5+0.1"}
    out2 = tmp_path / "ev2"
    code, _, err = cli(
        capsys, "tournament", str(config), "-e", "a=random", "-e", "b=random",
        "--entrants", "replace", "--rounds", "1", "--max-plies", "4", "--workers", "0", "-q",
        "--each", "tc=3+0.1", "--out", str(out2),
    )  # fmt: skip
    assert code == 0, err
    assert f"-e replaces the 2 entrant(s) of {config}" in err
    assert "--rounds 1 overrides the config's rounds = 4" in err
    assert (
        '--each tc=3+0.1 replaces the config\'s tc = "10+0.1" for every entrant without its'
        " own tc" in err
    )
    records = read_records(out2 / "games.tgn")
    assert {r.seats for r in records} == {("a", "b"), ("b", "a")}
    assert {r.tag("TimeControl") for r in records} == {"3+0.1"}


@pytest.mark.processes
def test_play_with_a_node_limit_on_one_engine_beside_one_without_the_feature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.tgn"
    mcts = f"{sys.executable} -m bots mcts"
    code, stdout, err = cli(
        capsys, "play", "trike", "--option", "size=7", "-e", f"name=a cmd='{mcts}' nodes=200",
        "-e", "greedy", "--games", "2", "--max-plies", "6", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    records = read_records(out)
    assert len(records) == 2 and {r.seats for r in records} == {("a", "greedy"), ("greedy", "a")}
    searched: dict[str, set[str]] = {"a": set(), "greedy": set()}
    for record in records:
        for ply, move in enumerate(record.moves):
            searched[record.seats[ply % 2]].update(_NODES.findall(move.comment or ""))
    assert searched == {"a": {"200"}, "greedy": set()}
    assert stdout.startswith("Engines: a (nodes 200), greedy (no node limit)\n"), stdout


@pytest.mark.processes
def test_play_gives_each_engine_its_own_clock_and_each_fills_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.tgn"
    code, _, err = cli(
        capsys, "play", "trike", "-e", "random", "-e", "random", "--tc", "5+0", "--each",
        "tc=3+0",
    )  # fmt: skip
    assert code == 2 and "--tc 5+0 and --each tc=3+0 contradict" in err
    code, stdout, err = cli(
        capsys, "play", "trike", "--option", "size=7", "-e", "name=short cmd=random tc=2+0.1",
        "-e", "random", "--each", "tc=20+0.2", "--nodes", "10",
        "--games", "2", "--max-plies", "6", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert "random does not declare 'feature nodes': it plays without a node limit" in err
    assert stdout.startswith("Engines: short (2+0.1), random (20+0.2)\n"), stdout
    tags = [(r.seats, r.tag("TimeControl")) for r in read_records(out)]
    assert tags == [(("short", "random"), "2+0.1,20+0.2"), (("random", "short"), "20+0.2,2+0.1")]
    assert all(v.confirmed for v in adjudicate_file(out))
