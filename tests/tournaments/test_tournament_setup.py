"""``tournament``'s options to its config: the settings the options override are read once
(a config file's, or a resumed tournament's journal header), and the options go over them;
``play`` and ``tournament`` lay their shared options over their config in one function
(``checked_plan``), so they print the same notes in the same order."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tournaments.cli.play import PlayOptions, play_setup
from tournaments.cli.tournament_setup import TournamentOptions, earlier_settings, tournament_setup
from tournaments.event.config import ConfigError
from tournaments.store.journal import JOURNAL, JOURNAL_VERSION

ENTRANTS = [{"name": "a", "command": "random", "cwd": "engines"}, {"command": "greedy"}]


def test_a_config_files_relative_paths_are_its_folders_and_the_options_go_over_it(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    config = folder / "t.json"
    settings = {"game": "trike", "entrants": ENTRANTS, "openings": {"file": "book.txt"}}
    config.write_text(json.dumps({**settings, "games": 4}))
    earlier = earlier_settings(config, tmp_path / "ignored")
    assert earlier.settings == {**settings, "games": 4}  # as written: the notes compare these
    assert (earlier.source, earlier.file) == (str(config), config)
    cfg = earlier.config({"games": 6})
    assert cfg.games == 6
    assert cfg.openings is not None and cfg.openings.file == str(folder.resolve() / "book.txt")
    assert cfg.entrants[0].cwd == str(folder.resolve() / "engines")
    with pytest.raises(ConfigError, match=r"t\.json"):  # errors name the file
        earlier.config({"games": "many"})


def test_a_resumed_tournament_gives_its_journals_settings(tmp_path: Path) -> None:
    settings = {"game": "trike", "entrants": ENTRANTS[1:] * 2, "games": 2, "seed": 9}
    header = {"type": "tournament", "version": JOURNAL_VERSION, "config": settings, "info": {}}
    (tmp_path / JOURNAL).write_text(json.dumps(header) + "\n")
    earlier = earlier_settings(None, tmp_path)
    assert earlier.settings == settings
    assert (earlier.source, earlier.file) == (str(tmp_path), None)
    assert earlier.config({"seed": 10}).seed == 10
    with pytest.raises(ConfigError, match=f"{tmp_path}/{JOURNAL}"):
        earlier.config({"seed": -1})


def test_nothing_to_resume_and_no_file_are_said_or_empty(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="nothing to resume"):
        earlier_settings(None, tmp_path)
    alone = earlier_settings(None, None)
    assert (alone.settings, alone.source) == ({}, "command line")
    assert alone.config({"game": "trike", "entrants": ENTRANTS[1:] * 2}).game == "trike"


def test_options_make_the_plan_with_the_file_under_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "trike"\ngames = 4\nseed = 3\n'
        '[[entrants]]\ncommand = "random"\n[[entrants]]\ncommand = "greedy"\n'
    )
    options = TournamentOptions(config=config, out=tmp_path / "out", seed=5, rounds=2)
    setup = tournament_setup(options)
    assert setup.directory == tmp_path / "out"
    assert (setup.plan.config.seed, setup.plan.config.rounds) == (5, 2)
    assert setup.plan.config.games is None  # --rounds makes the file's total moot
    notes = capsys.readouterr().err.splitlines()
    assert notes == [
        "referee: note: --seed 5 overrides the config's seed = 3",
        "referee: note: --rounds 2 replaces the config's games = 4",
    ]
    with pytest.raises(ConfigError, match="give an output directory"):
        tournament_setup(TournamentOptions(config=config))


def both_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], **flags: Any
) -> tuple[tuple[str, str], tuple[str, str]]:
    """What ``play trike`` and ``tournament -g trike`` print (standard output, standard
    error) while they make their plan with the same ``flags``."""
    play_setup(PlayOptions(game="trike", **flags))
    played = capsys.readouterr()
    tournament_setup(TournamentOptions(game="trike", out=tmp_path / "ev", **flags))
    toured = capsys.readouterr()
    return (played.out, played.err), (toured.out, toured.err)


@pytest.mark.processes
def test_play_and_tournament_print_the_same_notes_in_the_same_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many = (os.cpu_count() or 1) + 1
    engines = ["name=m cmd=mcts", "name=g cmd=greedy sandbox=bwrap"]
    play, tournament = both_commands(
        tmp_path, capsys, engine=engines, tc="5+0", nodes=30, sandbox="none", concurrency=many
    )
    assert play == tournament
    out, err = play
    assert out == "Engines: m (nodes 30), g (no node limit)\n"
    assert err.splitlines() == [
        """referee: note: --sandbox none overrides entrant g's sandbox = "bwrap\"""",
        "referee: note: g does not declare 'feature nodes': it plays without a node limit",
        f"referee: note: concurrency {many} on {many - 1} cores: engines share CPUs (fine"
        " for instant engines, not for thinking ones)",
    ]


@pytest.mark.processes
def test_a_sandbox_limit_over_an_entrant_s_own_is_noted_by_both_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bwrap: None
) -> None:
    engines = ["name=a cmd=random max_memory_mb=512", "name=b cmd=random max_memory_mb=256"]
    play, tournament = both_commands(
        tmp_path, capsys, engine=engines, sandbox="bwrap", sandbox_memory=256
    )
    assert play == tournament == (
        "",
        "referee: note: --sandbox-memory 256 overrides entrant a's max_memory_mb = 512\n",
    )


def test_a_bad_setting_is_refused_by_the_one_config_check_in_both_commands(
    tmp_path: Path,
) -> None:
    bad: dict[str, Any] = {"engine": ["random", "random"], "transcripts": "some"}
    with pytest.raises(ConfigError) as played:
        play_setup(PlayOptions(game="trike", out=tmp_path / "m.tgn", **bad))
    with pytest.raises(ConfigError) as toured:
        tournament_setup(TournamentOptions(game="trike", out=tmp_path / "ev", **bad))
    line = "command line: transcripts: input should be 'all', 'failures' or 'none'"
    assert str(played.value) == str(toured.value) == line
    assert not (tmp_path / "m.tgn").exists()  # refused before the record file is opened


def test_the_options_both_commands_have_make_the_same_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags: dict[str, Any] = {
        "engine": ["random", "greedy"], "tc": "5+0.1", "margin": 70, "seed": 9,
        "option": ["size=7"], "opening_plies": 2, "transcripts": "all", "concurrency": 1,
        "max_plies": 40, "cluster": "local",
    }  # fmt: skip
    played = play_setup(PlayOptions(game="trike", **flags)).config
    toured = tournament_setup(TournamentOptions(game="trike", out=tmp_path / "ev", **flags))
    same = toured.plan.config
    keys = ("game", "tc", "margin_ms", "seed", "options", "openings", "transcripts",
            "concurrency", "adjudication", "cluster", "entrants")  # fmt: skip
    assert {k: getattr(played, k) for k in keys} == {k: getattr(same, k) for k in keys}
    given = (played.tc, played.margin_ms, played.seed, played.options, played.transcripts)
    assert given == ("5+0.1", 70, 9, {"size": "7"}, "all")
    assert played.openings.plies == 2 and played.adjudication.max_plies == 40
