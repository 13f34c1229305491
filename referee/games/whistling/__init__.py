"""Whistling Captures: ``WhistlingCaptures`` (the game) and ``WhistlingState`` (a position)."""

from referee.games.whistling.notation import CRUSH
from referee.games.whistling.rules import WhistlingCaptures, WhistlingState

__all__ = ["CRUSH", "WhistlingCaptures", "WhistlingState"]
