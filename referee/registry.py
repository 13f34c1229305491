"""The explicit list of games and lookup by id or alias.

Nothing registers itself by import side effect: a new game is added to ``_ENTRIES``.
Each game's module is imported only when that game is asked for, so a process that
plays one game (a tournament's worker, ``referee play``) does not pay for importing
all of them (about a quarter of a worker's start-up). ``GAMES`` (every game class)
imports them all on first use. The id and aliases of each entry are the class's own;
a test checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from referee.core import AnyGame
from referee.errors import UnknownGameError


def _trike() -> type[AnyGame]:
    from referee.games.trike import Trike

    return Trike


def _tricouleur() -> type[AnyGame]:
    from referee.games.tricouleur import Tricouleur

    return Tricouleur


def _whistling() -> type[AnyGame]:
    from referee.games.whistling import WhistlingCaptures

    return WhistlingCaptures


def _trichess() -> type[AnyGame]:
    from referee.games.trichess import Trichess

    return Trichess


def _tricolor() -> type[AnyGame]:
    from referee.games.tricolor import Tricolor

    return Tricolor


def _triablo() -> type[AnyGame]:
    from referee.games.triablo import Triablo

    return Triablo


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A game as the registry knows it before its module is imported."""

    name: str
    """The game's id (``Game.name``)."""
    aliases: tuple[str, ...]
    """Its other accepted names (``Game.aliases``)."""
    load: Callable[[], type[AnyGame]]
    """Imports the game's module and returns its class."""


_ENTRIES: tuple[GameEntry, ...] = (
    GameEntry("trike", ("pure-trike",), _trike),
    GameEntry("tricouleur", (), _tricouleur),
    GameEntry("whistling-captures", (), _whistling),
    GameEntry("trichess", (), _trichess),
    GameEntry("tricolor", (), _tricolor),
    GameEntry("triablo", (), _triablo),
)
"""Every playable game, in the order ``referee games`` lists them."""

GAME_NAMES: tuple[str, ...] = tuple(entry.name for entry in _ENTRIES)
"""The id of every game, in ``GAMES`` order (no game module is imported for it)."""


def entries() -> tuple[GameEntry, ...]:
    """Every game's registry entry, in ``GAMES`` order."""
    return _ENTRIES


def __getattr__(name: str) -> tuple[type[AnyGame], ...]:
    # ``GAMES``: every game class, in the order ``referee games`` lists them (importing
    # every game's module the first time it is read).
    if name == "GAMES":
        return tuple(entry.load() for entry in _ENTRIES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def find_game_class(name: str) -> type[AnyGame]:
    """The game class whose id or alias is ``name`` (case-insensitive).

    :raises UnknownGameError: no game has that id or alias.
    """
    wanted = name.strip().lower()
    for entry in _ENTRIES:
        if wanted == entry.name or wanted in entry.aliases:
            return entry.load()
    known = ", ".join(GAME_NAMES)
    raise UnknownGameError(f"unknown game {name!r} (known: {known})")


def make_game(name: str, options: Mapping[str, str] | None = None) -> AnyGame:
    """Find a game and instantiate it with ``options``.

    :raises UnknownGameError: no game has that id or alias.
    :raises InvalidOptionError: an unknown option or a bad value.
    """
    return find_game_class(name)(options)
