"""The explicit list of games and lookup by id or alias.

Nothing registers itself by import side effect: a new game is added to ``GAMES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Game
from referee.errors import UnknownGameError
from referee.games.triablo import Triablo
from referee.games.trichess import Trichess
from referee.games.tricolor import Tricolor
from referee.games.tricouleur import Tricouleur
from referee.games.trike import Trike
from referee.games.whistling import WhistlingCaptures

AnyGame = Game[Any, Any]

GAMES: tuple[type[AnyGame], ...] = (
    Trike,
    Tricouleur,
    WhistlingCaptures,
    Trichess,
    Tricolor,
    Triablo,
)
"""Every playable game, in the order ``referee games`` lists them."""


def find_game_class(name: str) -> type[AnyGame]:
    """The game class whose id or alias is ``name`` (case-insensitive).

    :raises UnknownGameError: no game has that id or alias.
    """
    wanted = name.strip().lower()
    for cls in GAMES:
        if wanted == cls.name or wanted in cls.aliases:
            return cls
    known = ", ".join(cls.name for cls in GAMES)
    raise UnknownGameError(f"unknown game {name!r} (known: {known})")


def make_game(name: str, options: Mapping[str, str] | None = None) -> AnyGame:
    """Find a game and instantiate it with ``options``.

    :raises UnknownGameError: no game has that id or alias.
    :raises InvalidOptionError: an unknown option or a bad value.
    """
    return find_game_class(name)(options)
