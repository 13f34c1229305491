"""``list_moves``: the position a move list reaches and its legal moves, as ``referee
moves`` prints them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.core import Game, Outcome, State
from referee.errors import IllegalMoveError, InvalidMoveError, InvalidOptionError, RulesError
from referee.listing.captures import victims


@dataclass(frozen=True, slots=True)
class Captured:
    """One enemy piece a move takes off the board."""

    cell: str
    """Its cell, in the game's notation."""
    piece: str
    """What it is, e.g. ``"Second white"`` (Tricouleur) or ``"Red knight"`` (Trichess)."""


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """One legal move of the listed position."""

    text: str
    """Its canonical text."""
    captures: tuple[Captured, ...]
    """The pieces it captures (empty for a quiet move and in games without captures)."""


@dataclass(frozen=True, slots=True)
class Listing:
    """A position and its legal moves."""

    game: Game[Any, Any]
    state: State[Any]
    position: str
    """The position token (``Game.encode``), what ``position state`` sends."""
    moves: tuple[MoveEntry, ...]
    """Every legal move in the game's canonical order; empty iff the game is over."""

    @property
    def outcome(self) -> Outcome | None:
        """The rules' outcome when the game is over, else None."""
        return self.state.outcome()


def list_moves(
    game: Game[Any, Any],
    *,
    players: int | None = None,
    start: str | None = None,
    moves: Sequence[str] = (),
) -> Listing:
    """Play ``moves`` (canonical text) from ``start`` (a position token; the game's start
    position for ``players`` seats when None) and list the legal moves reached.

    ``players`` defaults to the game's first player count, or to the token's when
    ``start`` is given.

    :raises InvalidOptionError: a player count the game does not allow, or one that
        differs from the token's.
    :raises InvalidPositionError: ``start`` does not decode.
    :raises InvalidMoveError: a move that does not parse; the message names its ply
        (counted from the game's start, as records count) and its place in ``moves``.
    :raises IllegalMoveError: a well-formed move that is not legal, or a move after the
        end of the game; the message is named the same way.
    """
    if start is None:
        count = game.player_counts[0] if players is None else players
        game.check_players(count)
        state = game.initial_state(count)
    else:
        state = game.decode(start)
        if players is not None and players != state.num_players:
            raise InvalidOptionError(
                f"--players {players} does not match the position, "
                f"which has {state.num_players} players"
            )
    for index, text in enumerate(moves, 1):
        where = f"ply {state.ply + 1} (move {index} of --moves) {text!r}"
        if state.to_move is None:
            raise IllegalMoveError(f"{where}: the game is already over")
        try:
            state = state.play(game.parse_move(state, text))
        except InvalidMoveError as error:
            raise InvalidMoveError(f"{where} does not parse: {error}") from None
        except RulesError as error:
            raise IllegalMoveError(f"{where} is illegal: {error}") from None
    entries = []
    for move in state.legal_moves():
        after = state.play(move)
        taken = victims(game.name, state, move, after)
        entries.append(MoveEntry(game.format_move(state, move), tuple(Captured(*v) for v in taken)))
    return Listing(game, state, game.encode(state), tuple(entries))
