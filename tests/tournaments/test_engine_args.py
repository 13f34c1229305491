"""``-e``/``--each`` settings and the command line's other ``KEY=VALUE`` text
(``tournaments.event.engine_args``): what each form gives, what is refused."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.event.config import parse_config
from tournaments.event.engine_args import (
    EngineArgError,
    command_line_entrants,
    each_settings,
    engine_entrant,
    fill_unset,
    is_settings,
    key_values,
)
from tournaments.event.plan import Plan


@pytest.mark.parametrize(
    ("text", "entrant"),
    [
        ("greedy", {"command": "greedy"}),
        ("greedy --seed 2", {"command": "greedy --seed 2"}),
        ("g=greedy --seed 3", {"name": "g", "command": "greedy --seed 3"}),
        ("./engine --depth=3", {"command": "./engine --depth=3"}),
        ("mine=./engine", {"name": "mine", "command": "./engine"}),
        (
            "name=mine cmd=./my-engine tc=10+0.1 nodes=2000 depth=12 option.Threads=1"
            " dir=/engines/mine sandbox=bwrap restart=on",
            {
                "name": "mine", "command": "./my-engine", "tc": "10+0.1", "nodes": 2000,
                "depth": 12, "options": {"Threads": "1"}, "cwd": "/engines/mine",
                "sandbox": "bwrap", "restart": True,
            },
        ),
        ("cmd='greedy --seed 2' st=0.5", {"command": "greedy --seed 2", "tc": "movetime=0.5"}),
        ("cmd=./e plies=6", {"command": "./e", "depth": 6}),
        ("cmd=./e args=-v args='--x 1'", {"command": "./e -v --x 1"}),
        ("command=./e env.LANG=C max_memory_mb=64", {"command": "./e", "env": {"LANG": "C"},
                                                     "max_memory_mb": 64}),
    ],
)  # fmt: skip
def test_the_forms_of_an_engine_argument(text: str, entrant: dict[str, Any]) -> None:
    assert engine_entrant(text) == entrant


def test_settings_are_told_from_name_equals_command() -> None:
    assert is_settings("name=a cmd=./x")
    assert not is_settings("mine=./x")  # NAME=COMMAND: no known key
    assert not is_settings("cmd=./x --flag")  # a word without '='
    assert not is_settings("'unbalanced")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name=a nods=5 cmd=./x", "unknown key 'nods'"),
        ("name=a", "no cmd="),
        ("cmd=./x nodes=many", "nodes='many': expected a whole number"),
        ("cmd=./x restart=maybe", "expected on or off"),
        ("cmd=./x nodes=1 nodes=2", "nodes given twice"),
        ("cmd=./x option.=1", "empty name"),
        ("cmd=./x proto=uci", "proto: every engine speaks this referee's one protocol"),
        ("cmd=./x plies=2 depth=3", "depth given twice"),
        ("cmd='./x", "No closing quotation"),
    ],
)
def test_bad_settings_are_one_line_naming_the_word(text: str, message: str) -> None:
    with pytest.raises(EngineArgError, match=message) as info:
        engine_entrant(text) if "'" not in text else each_settings([text])
    assert "\n" not in str(info.value)


def test_each_fills_only_the_keys_an_engine_does_not_set() -> None:
    each = each_settings(["tc=5+0.1 nodes=100", "option.Hash=16 option.Threads=2"])
    own = engine_entrant("name=a cmd=./a tc=1+0 option.Threads=8")
    assert fill_unset(own, each) == {
        "name": "a", "command": "./a", "tc": "1+0", "nodes": 100,
        "options": {"Hash": "16", "Threads": "8"},
    }  # fmt: skip
    bare = engine_entrant("greedy")
    assert fill_unset(bare, each) == {
        "command": "greedy", "tc": "5+0.1", "nodes": 100,
        "options": {"Hash": "16", "Threads": "2"},
    }  # fmt: skip
    assert fill_unset({"command": "x", "nodes": None}, {"nodes": 3})["nodes"] == 3


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        (["name=x"], "name is each engine's own"),
        (["cmd=./x"], "command is each engine's own"),
        (["nodes=1", "nodes=2"], "--each gives nodes twice"),
        (["option.A=1", "option.A=2"], "--each gives options.A twice"),
    ],
)
def test_each_refuses_what_it_cannot_set(texts: list[str], message: str) -> None:
    with pytest.raises(EngineArgError, match=message):
        each_settings(texts)


def test_settings_validate_as_a_config_entrant() -> None:
    entrants = [engine_entrant("name=a cmd=greedy tc=5+0.1 restart=on"), {"command": "random"}]
    cfg = parse_config({"game": "trike", "entrants": entrants}, "command line")
    assert cfg.entrants[0].tc == "5+0.1" and cfg.entrants[0].restart
    assert cfg.entrants[1].tc is None and not cfg.entrants[1].restart
    plan = Plan.from_config(cfg, "command line")
    assert [spec.restart for spec in plan.entrants] == [True, False]
    assert [tc.tag() for tc in plan.tcs] == ["5+0.1", "10+0.1"]  # its own, the event's
    assert [tc.tag() for tc in plan.slot_setup(None).seat_controls((1, 0))] == ["10+0.1", "5+0.1"]
    same = parse_config({"game": "trike", "entrants": [{"command": "random"}] * 2}, "c")
    assert Plan.from_config(same, "c").tcs == ()  # no odds: every seat plays the event's
    bad = [engine_entrant("name=a cmd=greedy nodes=0"), {"command": "random"}]
    with pytest.raises(ValueError, match=r"command line: entrants\[0\]\.nodes"):
        parse_config({"game": "trike", "entrants": bad}, "command line")


def test_engines_beside_a_file_are_added_or_replace_them_and_say_so() -> None:
    file_entrants = [{"command": "greedy"}, {"command": "random", "cwd": "rel"}]
    added, notes = command_line_entrants(
        file_entrants, ["name=m cmd=mcts dir=eng"], {"tc": "1+0"}, mode=None, source="f.toml",
        here="/home",
    )  # fmt: skip
    assert added == [
        {"command": "greedy", "tc": "1+0"},
        {"command": "random", "cwd": "rel", "tc": "1+0"},  # the file's dir: the file's business
        {"name": "m", "command": "mcts", "cwd": "/home/eng", "tc": "1+0"},
    ]
    assert notes == ["1 entrant(s) from -e added to the 2 of f.toml (--entrants replace plays"
                     " only those of -e)"]  # fmt: skip
    replaced, notes = command_line_entrants(
        file_entrants, ["mcts", "greedy"], {}, mode="replace", source="f.toml", here="/"
    )
    assert replaced == [{"command": "mcts"}, {"command": "greedy"}]
    assert notes == ["-e replaces the 2 entrant(s) of f.toml"]
    assert command_line_entrants(file_entrants, [], {}, mode=None, source="f", here="/") == (
        None,
        [],
    )
    with pytest.raises(EngineArgError, match="give a file"):
        command_line_entrants(None, ["mcts"], {}, mode="add", source="", here="/")
    with pytest.raises(EngineArgError, match="expected add or replace"):
        command_line_entrants([], ["mcts"], {}, mode="merge", source="", here="/")


def test_key_values_is_the_one_key_value_reader() -> None:
    assert key_values(["size=7", "pie = no", "size=9"], "--option") == {"size": "9", "pie": "no"}
    with pytest.raises(EngineArgError, match="bad --option 'size': expected key=value"):
        key_values(["size"], "--option")
