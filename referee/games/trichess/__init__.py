"""Trichess: ``Trichess`` (the game) and ``TrichessState`` (a position)."""

from referee.games.trichess.position import TrichessState
from referee.games.trichess.rules import Trichess

__all__ = ["Trichess", "TrichessState"]
