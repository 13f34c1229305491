"""Triablo (Cameron Browne, 2010) for two and three players.

Rules as in docs/rules/triablo.md, with its rulings and options (``setup``,
``captive-tips``, ``no-capture-draw``):

- Seats: 1 White, 2 Red, 3 Black, moving in that order; eliminated seats are skipped.
- A turn is one action (``movegen``): a singleton slides along one of its three tips, a
  doublet its cover controls slides in any direction (both re-orient at the
  destination), a king steps, or abdicates its crown along a line over zero or more
  empty points onto an own singleton (choosing the orientation of the one left behind).
- Capture, optional: an enemy piece with at least three tips of the mover's colour
  aimed at it (first piece along their lines; captives' tips count unless
  ``captive-tips=no``; a king always has six) may be taken by one of those pieces the
  mover controls: a singleton covers an enemy singleton (the cover takes the opposite
  orientation), a doublet along one of its cover's tips replaces any enemy piece, a king
  any adjacent one. A replaced piece leaves the board whole, both layers.
- Losses: after every move, a seat whose king was captured or who controls fewer than
  three pieces; at the start of its turn, a seat whose king can neither step, capture
  nor abdicate. Two players: the other seat wins. Three players: the seat is
  eliminated; its pieces leave the board except its captives under another seat's
  cover, and its covers are lifted off, freeing the singletons under them for their
  owners (orientation kept). While two seats remain the board is cleaned so; the
  elimination that ends the game leaves the board as it is. The last seat standing
  wins.
- Draw (``no-capture-draw=N``, 0 = off): the game is drawn between the seats still in
  it when N plies in a row had no capture (setup moves do not count). A move that both
  wins (including the next seat's immobile king) and completes the count wins.
- ``setup=free``: one setup move per seat before White's first move (``start``).

Results: the winner ranks 1; survivors of a draw share rank 1; eliminated seats rank
below, a later elimination above an earlier one (a 3-player win ranks the winner 1, the
last seat out 2 and the first 3, result ``1-0-0``; a draw after one elimination ``1/2-0-1/2``).
There are no in-game scores. ``score_unfinished`` (move limit, ranking the others after
a forfeit) scores each seat by the pieces it controls and ranks by that score.

A move is an ``int`` (``movegen``); its text is in ``notation``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.core import Game, OptionSpec, Outcome, Seat, State, Termination, ranks_from_scores
from referee.errors import InvalidPositionError
from referee.games.triablo import explain, movegen, notation, start
from referee.games.triablo.config import Config, make_config
from referee.games.triablo.movegen import SETUP
from referee.games.triablo.notation import KING_CAPTURED, KING_STUCK, TOO_FEW
from referee.games.triablo.pieces import (
    CAPTIVE,
    CONTROL_TABLE,
    CONTROLLER,
    DOUBLET,
    KIND,
    KING_CODES,
    ORIENT,
    SEAT_NAMES,
    controlled,
    singleton,
)
from referee.games.triablo.validate import check_position

_WHY = {
    KING_CAPTURED: "{}: king captured",
    TOO_FEW: "{}: controls fewer than three pieces",
    KING_STUCK: "{}: king cannot move or abdicate",
}


_SEATS = {2: (0, 1), 3: (0, 1, 2)}


def seat_label(seat: int) -> str:
    """``seat 2 (Red)``."""
    return f"seat {seat + 1} ({SEAT_NAMES[seat]})"


def remove_seat(board: bytes, seat: int, gone: set[int]) -> bytes:
    """``board`` after eliminating ``seat``: its singletons and king leave, its covers are
    lifted (freeing the captive, orientation kept, unless its owner is out too); its
    captives under other covers stay."""
    cells = bytearray(board)
    for point, code in enumerate(board):
        if CONTROLLER[code] != seat:
            continue
        owner = CAPTIVE[code]
        if KIND[code] == DOUBLET and owner not in gone:
            cells[point] = singleton(owner, 1 - ORIENT[code])
        else:
            cells[point] = 0
    return bytes(cells)


def settle(
    config: Config, board: bytes, mover: int, victim: int, out: tuple[tuple[int, str], ...]
) -> tuple[bytes, int, tuple[tuple[int, str], ...]]:
    """The losses after ``mover``'s move that hit ``victim`` (-1: no capture), then the
    start-of-turn test of each next seat: ``(board, seat to move or -1, eliminations)``."""
    players = config.players
    if victim < 0 and not out:  # the common case: nobody can lose but the next seat
        nxt = mover + 1 if mover + 1 < players else 0
        if movegen.king_can_act(board, nxt, config.back):
            return board, nxt, out
    result = list(out)
    gone = {seat for seat, _ in out}

    def eliminate(seat: int, why: str) -> None:
        nonlocal board
        result.append((seat, why))
        gone.add(seat)
        if players - len(gone) >= 2:
            board = remove_seat(board, seat, gone)

    if victim >= 0:
        if board.find(KING_CODES[victim]) < 0:
            eliminate(victim, KING_CAPTURED)
        elif controlled(board, victim) < 3:
            eliminate(victim, TOO_FEW)
    current = mover
    while players - len(gone) >= 2:
        current = (current + 1) % players
        if current in gone:
            continue
        if movegen.king_can_act(board, current, config.back):
            return board, current, tuple(result)
        eliminate(current, KING_STUCK)
    return board, -1, tuple(result)


@dataclass(frozen=True, slots=True)
class TriabloState(State[int]):
    """A Triablo position. Equality and hash use every field but the move cache.

    Build states with ``Triablo.initial_state``, ``play`` or ``Triablo.decode``.
    """

    config: Config
    """Seats and options."""
    board: bytes
    """One ``pieces`` code per point index."""
    seat: int
    """The seat to move, -1 when the game is over."""
    ply: int = field()  # field() stops dataclass taking State.ply (a property) as a default
    """Moves played so far, setup moves included."""
    quiet: int
    """Plies since the last capture (or since the end of the setup)."""
    out: tuple[tuple[int, str], ...]
    """Eliminated seats in order, each with its reason (``notation.REASONS``)."""

    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    def to_move(self) -> Seat | None:
        return None if self.seat < 0 else self.seat

    @property
    def in_setup(self) -> bool:
        """Whether the seat to move must make its setup move."""
        return self.config.free_setup and self.ply < self.config.players

    @property
    def alive(self) -> tuple[int, ...]:
        """The seats not eliminated, in seat order."""
        if not self.out:
            return _SEATS[self.config.players]
        gone = {seat for seat, _ in self.out}
        return tuple(seat for seat in range(self.config.players) if seat not in gone)

    def _generate(self) -> tuple[int, ...]:
        """Every legal move in ascending ``int`` order (see ``movegen``)."""
        if self.seat < 0:
            return ()
        if self.in_setup:
            return tuple(start.setup_moves(self.board, self.seat))
        return tuple(movegen.generate(self.board, self.seat, self.config.captive_tips))

    def is_legal(self, move: int) -> bool:
        """Tests the one move against the board instead of generating every move."""
        if self.seat < 0 or type(move) is not int:
            return False
        if self.in_setup:
            return start.is_legal_setup(self.board, self.seat, move)
        return movegen.is_legal(self.board, self.seat, self.config.back, move)

    def explain_illegal(self, move: int) -> str | None:
        """See ``referee.games.triablo.explain``."""
        return explain.explain(self, move)

    def _apply(self, move: int) -> TriabloState:
        config = self.config
        if move >= SETUP:
            board = start.apply_setup(self.board, move)
            if self.ply + 1 < config.players:
                return TriabloState(config, board, self.seat + 1, self.ply + 1, 0, self.out)
            board, seat, out = settle(config, board, config.players - 1, -1, self.out)
            return TriabloState(config, board, seat, self.ply + 1, 0, out)
        board, victim = movegen.apply_move(self.board, self.seat, move)
        quiet = 0 if victim >= 0 else self.quiet + 1
        board, seat, out = settle(config, board, self.seat, victim, self.out)
        if seat >= 0 and config.draw_limit and quiet >= config.draw_limit:
            seat = -1
        return TriabloState(config, board, seat, self.ply + 1, quiet, out)

    def ranks(self) -> tuple[int, ...]:
        """Survivors first (tied), then eliminated seats, the later out the better."""
        alive = self.alive
        ranks = [1] * self.config.players
        for k, (seat, _) in enumerate(reversed(self.out)):
            ranks[seat] = len(alive) + 1 + k
        return tuple(ranks)

    def outcome(self) -> Outcome | None:
        if self.seat >= 0:
            return None
        alive = self.alive
        earlier = self.out if len(alive) > 1 else self.out[:-1]
        if len(alive) == 1:
            loser, why = self.out[-1]
            reason = f"{seat_label(alive[0])} wins; out: " + _WHY[why].format(seat_label(loser))
        else:
            names = [seat_label(seat) for seat in alive]
            between = ", ".join(names[:-1]) + " and " + names[-1]
            reason = f"draw between {between}: no capture in {self.quiet} plies"
        if earlier:
            reason += "; earlier out: " + ", ".join(
                _WHY[why].format(seat_label(seat)) for seat, why in earlier
            )
        return Outcome(Termination.RULES, self.ranks(), (), None, reason)


YES_NO = ("yes", "no")


class Triablo(Game[TriabloState, int]):
    """Triablo for 2 or 3 players (see the module doc)."""

    name = "triablo"
    version = "1"
    player_counts = (2, 3)
    option_specs = (
        OptionSpec(
            "setup", "figure", ("figure", "free"), help="free: each seat orients its singletons"
        ),
        OptionSpec("captive-tips", "yes", YES_NO, help="a captive's tips count for its colour"),
        OptionSpec(
            "no-capture-draw",
            "100",
            minimum=0,
            maximum=1_000_000,
            help="plies without capture that draw (0 = off)",
        ),
    )
    description = "Triablo: interlocking triangles, capture by three tips in line of sight"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.free_setup = self.options["setup"] == "free"
        self.captive_tips = self.options["captive-tips"] == "yes"
        self.draw_limit = int(self.options["no-capture-draw"])

    def config(self, players: int) -> Config:
        """This game's ``Config`` for ``players`` seats."""
        return make_config(players, self.free_setup, self.captive_tips, self.draw_limit)

    def initial_state(self, num_players: int = 2) -> TriabloState:
        self.check_players(num_players)
        return TriabloState(self.config(num_players), start.START[num_players], 0, 0, 0, ())

    def parse_move(self, state: TriabloState, text: str) -> int:
        """Canonical move text (see ``notation``); legality is not checked.

        :raises InvalidMoveError: anything else.
        """
        return notation.parse_move(text)

    def format_move(self, state: TriabloState, move: int) -> str:
        """:raises InvalidMoveError: ``move`` is not a well-formed move value."""
        return notation.format_move(move)

    def encode(self, state: TriabloState) -> str:
        """The position token of ``notation``:
        ``players:setup:captive-tips:no-capture-draw:rows:seat:ply:quiet:out``."""
        config = state.config
        options = (
            "free" if config.free_setup else "figure",
            "yes" if config.captive_tips else "no",
            str(config.draw_limit),
        )
        raw = notation.RawPosition(
            config.players, options, state.board, state.seat, state.ply, state.quiet, state.out
        )
        return notation.encode(raw)

    def decode(self, text: str) -> TriabloState:
        """Parse ``encode``'s text and check it against this game's options and the rules.

        :raises InvalidPositionError: malformed text, other options, or a position that
            no sequence of legal moves reaches (as far as the checks show).
        """
        raw = notation.decode(text)
        mine = (self.options["setup"], self.options["captive-tips"], str(self.draw_limit))
        if raw.options != mine:
            raise InvalidPositionError(
                f"triablo position {text!r} is for setup={raw.options[0]},"
                f"captive-tips={raw.options[1]},no-capture-draw={raw.options[2]}, "
                f"not {self.options_text()}"
            )
        state = TriabloState(
            self.config(raw.players), raw.board, raw.seat, raw.ply, raw.quiet, raw.out
        )
        check_position(state, text)
        return state

    def render(self, state: TriabloState) -> str:
        """The board diagram, then one status line."""
        if state.seat >= 0:
            status = f"ply {state.ply}, {seat_label(state.seat)} to move"
            if state.in_setup:
                status += " (setup: orient every singleton)"
            else:
                status += f", {state.quiet} plies without capture"
            if state.out:
                status += "; out: " + ", ".join(seat_label(seat) for seat, _ in state.out)
        else:
            outcome = state.outcome()
            status = f"ply {state.ply}, game over: {outcome.reason if outcome else ''}"
        return notation.render(state.board) + "\n" + status

    def score_unfinished(self, state: TriabloState) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Scores are the pieces each seat controls (``pieces.controlled``: its uncovered
        singletons, its doublets and its king); ranks follow from them, more is better.

        The game has no in-game points, so material is the measure of a game the referee
        stops (move limit) and the tiebreak between the other seats after a 3-player
        forfeit. It keeps the order of eliminations: a seat still in the game controls at
        least three pieces, an eliminated one none (its pieces left the board), and while
        the game goes on at most one seat is out. The scores appear in the record's
        ``Score`` tag of such games; a game ended by the rules has none. The rules say
        nothing about unfinished games. The built-in ``greedy`` bot evaluates positions
        by these scores (``Game.evaluate``).
        """
        counts = self.evaluate(state)
        return ranks_from_scores(counts), counts

    def evaluate(self, state: TriabloState) -> tuple[float, ...]:
        """The scores of ``score_unfinished``: the pieces each seat controls (0 when out)."""
        # One translation for every seat (the search values every child of a position).
        owners = state.board.translate(CONTROL_TABLE)
        counts = [float(owners.count(seat)) for seat in range(1, state.num_players + 1)]
        for seat, _ in state.out:
            counts[seat] = 0.0
        return tuple(counts)
