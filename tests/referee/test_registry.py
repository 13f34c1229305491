"""The game registry: its entries agree with the game classes, and lookups import one game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.errors import UnknownGameError
from referee.registry import GAME_NAMES, GAMES, entries, find_game_class, make_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("entry", entries(), ids=lambda entry: entry.name)
def test_each_entry_names_its_class_as_the_class_does(entry) -> None:
    cls = entry.load()
    assert (cls.name, cls.aliases) == (entry.name, entry.aliases)


def test_games_lists_every_entry_in_order() -> None:
    assert tuple(cls.name for cls in GAMES) == GAME_NAMES
    assert len(set(GAME_NAMES)) == len(GAME_NAMES)


@pytest.mark.parametrize("cls", GAMES, ids=lambda cls: cls.name)
def test_lookup_by_id_and_alias_any_case(cls) -> None:
    for name in (cls.name, *cls.aliases):
        assert find_game_class(f" {name.upper()} ") is cls
        assert type(make_game(name)) is cls


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess' \\(known: trike, "):
        find_game_class("chess")


def test_looking_up_one_game_imports_only_that_game() -> None:
    code = (
        "import sys\n"
        "from referee.registry import make_game\n"
        "make_game('pure-trike')\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('referee.games.')}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "['trike']"
