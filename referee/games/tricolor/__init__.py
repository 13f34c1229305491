"""Tricolor: ``Tricolor`` (the game) and ``TricolorState`` (a position)."""

from referee.games.tricolor.rules import Tricolor, TricolorState

__all__ = ["Tricolor", "TricolorState"]
