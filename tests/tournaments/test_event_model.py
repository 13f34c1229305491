"""The config entrant (``EntrantConfig``) is the one description of an engine: every one of
its keys can be given with ``-e``, and each key an ``EngineSpec`` field shares by name
reaches the spec the slots start with no code per key (``plan.CARRIED``); from there the
one codec carries it to worker processes (``test_wire``).

The values are chosen from each field's type, so a key added to the model is covered
here without a change (or the test names the key it cannot fill).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from protocol.spec import EngineSpec
from tournaments.event.config import EntrantConfig, parse_config
from tournaments.event.engine_args import parse_settings
from tournaments.event.plan import CARRIED, Plan


def _members(hint: Any) -> set[Any]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return set(typing.get_args(hint)) - {type(None)}
    return {hint}


def _off_default(name: str, hint: Any, here: Path) -> Any:
    """A value of type ``hint`` that no default has."""
    (kind,) = _members(hint)
    if typing.get_origin(kind) is typing.Literal:
        return typing.get_args(kind)[0]
    if kind is bool:
        return True
    if kind is int:
        return 7
    if kind is str:
        return str(here)  # a directory, where a path is wanted
    raise AssertionError(f"no test value for {name}: {hint!r}")


def test_the_keys_carried_by_name_are_the_plain_ones() -> None:
    spec_fields = {f.name for f in dataclasses.fields(EngineSpec)}
    assert set(CARRIED) <= spec_fields & set(EntrantConfig.model_fields)
    # the limits and switches an engine field and an entrant key share
    assert {"cwd", "max_memory_mb", "max_cpu_seconds", "nodes", "depth", "restart"} <= set(
        CARRIED
    )


def test_every_carried_key_reaches_the_engine_spec(tmp_path: Path) -> None:
    hints = typing.get_type_hints(EngineSpec)
    values = {name: _off_default(name, hints[name], tmp_path) for name in CARRIED}
    defaults = EngineSpec("x", ("x",))
    assert all(values[name] != getattr(defaults, name) for name in CARRIED)
    data = {"game": "trike", "entrants": [{"command": "random", **values}, {"command": "greedy"}]}
    spec = Plan.from_config(parse_config(data), "command line").entrants[0]
    assert {name: getattr(spec, name) for name in CARRIED} == values


_MAPPING_SPELLING = {"options": "option", "env": "env"}
"""How ``-e`` names one item of a mapping key (``option.Hash=16``)."""


@pytest.mark.parametrize("key", sorted(EntrantConfig.model_fields))
def test_every_entrant_key_can_be_given_with_e(key: str, tmp_path: Path) -> None:
    hint = EntrantConfig.model_fields[key].annotation
    expected: Any
    if typing.get_origin(hint) is dict:
        word, expected = f"{_MAPPING_SPELLING[key]}.K=5", {"K": "5"}
    elif key in ("tc", "command"):  # texts the plan reads: a valid one
        expected = {"tc": "10+0.1", "command": "random"}[key]
        word = f"{key}={expected}"
    else:
        expected = _off_default(key, hint, tmp_path)
        shown = {True: "on"}.get(expected, expected) if type(expected) is bool else expected
        word = f"{key}={shown}"
    settings = parse_settings(word if key == "command" else f"cmd=random {word}", "-e")
    assert settings[key] == expected
    if key in ("max_processes", "max_scratch_mb"):  # only in the sandbox
        settings["sandbox"] = "bwrap"
    # what -e gives is a config entrant as a file would give it
    entrant = parse_config({"game": "trike", "entrants": [settings, settings]}).entrants[0]
    assert getattr(entrant, key) == expected
