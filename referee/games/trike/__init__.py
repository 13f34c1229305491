"""Trike and Pure Trike: ``Trike`` (the game) and ``TrikeState`` (a position)."""

from referee.games.trike.rules import SWAP, Trike, TrikeState

__all__ = ["SWAP", "Trike", "TrikeState"]
