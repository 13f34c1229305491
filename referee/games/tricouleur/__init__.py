"""Tricouleur: ``Tricouleur`` (the game) and ``TricouleurState`` (a position)."""

from referee.games.tricouleur.rules import REPLACE, Tricouleur, TricouleurState

__all__ = ["REPLACE", "Tricouleur", "TricouleurState"]
