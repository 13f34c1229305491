"""Triablo for two and three players: ``Triablo`` (the game) and ``TriabloState``."""

from referee.games.triablo.rules import Triablo, TriabloState

__all__ = ["Triablo", "TriabloState"]
