"""What ``referee moves`` shows of a position: its legal moves in canonical text and order,
what each of them captures, its position token and the seat to move.

``list_moves`` replays a move list from a start and lists the moves of the position it
reaches (``moves``); ``captures`` knows, for each game, which enemy pieces a move takes.
Pure, like the rules it reads.
"""

from referee.listing.moves import Captured, Listing, MoveEntry, list_moves

__all__ = ["Captured", "Listing", "MoveEntry", "list_moves"]
