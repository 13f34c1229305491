"""Whistling Captures (Bill Taylor, 2000): the rules of
docs/rules/whistling-captures.md with its options.

- Hexhex side 11 (331 cells); each seat has 21 stones in three rosettes.
  Seat 1 is X and moves first.
- A turn is one of:
  - **plain move**: a slide through empty cells that takes nothing and ends strictly
    nearer (Euclidean) to at least one enemy stone than it started;
  - **crush**: a stone steps onto an adjacent enemy stone, which is removed (1 capture);
  - **whistling chain**: see ``chains`` (every leg captures, pivots change direction,
    reversal allowed, victims removed at the end of each leg). With
    ``closer-applies-to-captures=yes`` the chain's last cell must be strictly nearer
    than its first to an enemy stone on the board at the start of the turn.
- **Compulsory maximum capture**: with ``M`` the largest count of any legal crush or
  chain, a player with ``M >= 1`` must take exactly ``M`` stones, freely choosing among
  such moves; only with ``M = 0`` are plain moves legal.
- A seat left without stones loses. After ``no-capture-draw`` plies in a row without a
  capture (0 = never) the game is drawn. A seat with stones always has a legal move
  (docs/rules/whistling-captures.md, checked by the tests), so no other ending exists.

A move is a tuple of slots (see ``referee.games.hex``): the path ``(P0, …, Pm)`` of a slide
or chain, or ``(FROM, TO, CRUSH)``; text in ``notation``. ``legal_moves`` lists, when
``M = 0``, the plain moves by stone in reading order, directions E, W, NE, NW, SE, SW,
nearest first; when ``M = 1`` the crushes (stone order, then the crushed stones in reading
order) and then the chains; otherwise the chains, in the order of ``CaptureSearch.chains``.

``score_unfinished`` ranks the seats by stones left (more is better) and reports those
counts as the scores of a stopped game; a game ended by the rules has no in-game points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core import OptionSpec, State
from referee.errors import InvalidPositionError
from referee.games.hex import Rotations, bits
from referee.games.hex.twoseat import TwoSeatGame, TwoSeatRules, TwoSeatState, check_decoded
from referee.games.whistling import explain, notation
from referee.games.whistling.chains import CaptureSearch
from referee.games.whistling.notation import BOARD, CELLS, CRUSH, Move

START_X = "s1 u1 r2 t2 v2 s3 u3 H14 J14 G15 I15 K15 H16 J16 g15 i15 f16 h16 j16 g17 i17"
START_O = "G5 I5 F6 H6 J6 G7 I7 f6 h6 e7 g7 i7 f8 h8 u19 w19 t20 v20 x20 u21 w21"
"""The start of docs/rules/whistling-captures.md: three rosettes per seat."""


@dataclass(frozen=True, slots=True, eq=False)
class Rules(TwoSeatRules):
    """The option values shared by every state of one game (``closer_captures``:
    whether a chain must end closer to an enemy stone than it started)."""

    rotations: Rotations
    """``board.rotations``: the layout of ``WhistlingState.spread``."""


@dataclass(frozen=True, slots=True)
class WhistlingState(TwoSeatState[Move]):
    """A Whistling Captures position. Equality and hash use the content fields only.

    Build states with ``WhistlingCaptures.initial_state``, ``play`` or ``decode``,
    which keep the derived ``turn`` consistent.
    """

    stones: tuple[int, int]
    """Bit masks of slots: seat 1's (X) stones, seat 2's (O) stones."""
    ply: int = field()  # field() stops dataclass taking State.ply (a property) as a default
    """Moves played so far."""
    quiet: int
    """Plies since the last capture (or since the start)."""
    turn: int = field(compare=False)
    """The seat to move, -1 when the game is over."""
    rules: Rules = field(compare=False, repr=False)
    spread: tuple[int, int] = field(compare=False, repr=False)
    """``stones`` in the six-copy layout of ``Rules.rotations`` (kept up to date by
    ``_apply``), for the capture search's whistle test."""
    _search: CaptureSearch | None = field(default=None, compare=False, repr=False)

    def armies(self, seat: int) -> int:
        """The mask of every stone of ``seat``."""
        return self.stones[seat]

    def captures(self, whistlers: list[int] | None = None) -> CaptureSearch:
        """The capture search of the seat to move (cached; only for a game not over).
        ``whistlers``: ``CaptureSearch.whistlers()`` if already known."""
        search = self._search
        if search is None:
            seat = self.turn
            rules = self.rules
            search = CaptureSearch(
                rules.board,
                self.stones[seat],
                self.stones[1 - seat],
                rules.closer_captures,
                (self.spread[seat], self.spread[1 - seat]),
                whistlers,
            )
            object.__setattr__(self, "_search", search)
        return search

    def max_capture(self) -> int:
        """The number of stones the seat to move must take now (0: a plain move)."""
        return self.captures().maximum() if self.turn >= 0 else 0

    def _generate(self) -> tuple[Move, ...]:
        if self.turn < 0:
            return ()
        search = self.captures()
        need = search.maximum()
        board = self.rules.board
        mine, theirs = self.stones[self.turn], self.stones[1 - self.turn]
        out: list[Move] = []
        if need == 1:
            adjacent = board.adjacent
            for s in bits(mine):
                for t in bits(adjacent[s] & theirs):
                    out.append((s, t, CRUSH))
        if need:
            out.extend(search.chains())
            return tuple(out)
        return tuple(board.closer_slides(mine, mine | theirs, theirs))

    def is_legal(self, move: Move) -> bool:
        """Checks the one move, then that no capture takes more (``CaptureSearch.exceeds``),
        without listing the other moves or always computing the maximum. A plain move
        needs no search at all when no stone can step onto or whistle past an enemy."""
        seat = self.turn
        if seat < 0 or type(move) is not tuple or len(move) < 2:
            return False
        rules = self.rules
        board = rules.board
        s = move[0]
        if type(s) is not int or s not in board.coords:
            return False
        mine, theirs = self.stones[seat], self.stones[1 - seat]
        if not mine >> s & 1:
            return False
        if len(move) == 3 and move[2] == CRUSH:
            t = move[1]
            if not (
                type(t) is int
                and t in board.coords
                and board.adjacent[s] >> t & 1
                and theirs >> t & 1
            ):
                return False
            if self._search is None:
                whistlers = rules.rotations.whistlers(self.spread[seat], self.spread[1 - seat])
                if not whistlers:
                    return True  # no whistle at all: a crush is a maximum capture
                self.captures(whistlers)
            count = 1
        elif len(move) == 2 and type(move[1]) is int:
            where = board.line[s].get(move[1])
            if where is None:
                return False
            d, i = where
            if board.paths[s][d][i] & (mine | theirs):
                return False
            count = (theirs & board.sweeps[s][d][i]).bit_count()
            if count == 0:  # a plain move: it must end closer, and no capture may exist
                if not theirs & board.zones[s][d][i]:
                    return False
                if self._search is None:
                    spread_mine, spread_theirs = self.spread[seat], self.spread[1 - seat]
                    if spread_mine >> 1 & spread_theirs:  # a crush
                        return False
                    whistlers = rules.rotations.whistlers(spread_mine, spread_theirs)
                    if not whistlers:
                        return True
                    self.captures(whistlers)
            elif not self.captures().closer(s, move[1]):
                return False
        else:
            count = self.captures().chain_count(move)
            if count <= 0 or not self.captures().closer(s, move[-1]):
                return False
        search = self.captures()
        if search.exceeds(count):
            return False
        search.settle(count)
        return True

    def explain_illegal(self, move: Move) -> str | None:
        """See ``referee.games.whistling.explain``."""
        return explain.explain(self, move)

    def _apply(self, move: Move) -> WhistlingState:
        rules = self.rules
        copies = rules.rotations.bits_of
        seat = self.turn
        mine, theirs = self.stones[seat], self.stones[1 - seat]
        spread_mine, spread_theirs = self.spread[seat], self.spread[1 - seat]
        s = move[0]
        if len(move) == 3 and move[2] == CRUSH:
            t = move[1]
            mine ^= (1 << s) | (1 << t)
            theirs ^= 1 << t
            spread_mine ^= copies[s] | copies[t]
            spread_theirs ^= copies[t]
            captured = True
        else:
            line, sweeps = rules.board.line, rules.board.sweeps
            if len(move) == 2:  # a slide: no more than one leg
                p = move[1]
                d, i = line[s][p]
                taken = theirs & sweeps[s][d][i]
            else:  # the union of the legs' victims (each leg's removed at its end)
                taken, p = 0, s
                for nxt in move[1:]:
                    d, i = line[p][nxt]
                    taken |= theirs & sweeps[p][d][i]
                    p = nxt
            theirs ^= taken
            mine ^= (1 << s) ^ (1 << p)  # ``^``: a chain may end where it started
            spread_mine ^= copies[s] ^ copies[p]
            captured = taken != 0
            while taken:
                low = taken & -taken
                spread_theirs ^= copies[low.bit_length() - 1]
                taken ^= low
        quiet = 0 if captured else self.quiet + 1
        if seat == 0:
            stones, spread = (mine, theirs), (spread_mine, spread_theirs)
        else:
            stones, spread = (theirs, mine), (spread_theirs, spread_mine)
        turn = 1 - seat
        if not theirs or (rules.draw_after and quiet >= rules.draw_after):
            turn = -1
        return _new_state(stones, self.ply + 1, quiet, turn, rules, spread)


def _state_maker() -> Callable[
    [tuple[int, int], int, int, int, Rules, tuple[int, int]], WhistlingState
]:
    """A constructor of ``WhistlingState`` without the frozen dataclass ``__init__``
    (which sets each field through ``object.__setattr__``): the same fields, set
    through the slot descriptors, about twice as fast (one state per ply)."""
    fields = ("_moves", "stones", "ply", "quiet", "turn", "rules", "spread", "_search")
    if tuple(WhistlingState.__dataclass_fields__) != fields:  # kept in step with the class
        raise RuntimeError("WhistlingState fields changed: update _state_maker")
    new = object.__new__
    slot: Any = WhistlingState.__dict__
    stones, ply, quiet, turn = (slot[n].__set__ for n in ("stones", "ply", "quiet", "turn"))
    rules_, spread, search = (slot[n].__set__ for n in ("rules", "spread", "_search"))
    moves = State.__dict__["_moves"].__set__  # the cache slot is the base's

    def make(
        s: tuple[int, int], p: int, q: int, t: int, r: Rules, sp: tuple[int, int]
    ) -> WhistlingState:
        state = new(WhistlingState)
        stones(state, s)
        ply(state, p)
        quiet(state, q)
        turn(state, t)
        rules_(state, r)
        spread(state, sp)
        moves(state, None)
        search(state, None)
        return state

    return make


_new_state = _state_maker()


class WhistlingCaptures(TwoSeatGame[WhistlingState, Move]):
    """Whistling Captures on hexhex side 11 (see the module doc)."""

    name = "whistling-captures"
    version = "1"
    army_names = ("X", "O")
    player_counts = (2,)
    option_specs = (
        OptionSpec(
            "closer-applies-to-captures",
            "yes",
            ("yes", "no"),
            help="a whistling chain must also end closer to an enemy stone",
        ),
        OptionSpec(
            "no-capture-draw", "40", minimum=0, help="plies without capture that draw; 0 = off"
        ),
    )
    description = "Whistling Captures: chained whistles past enemy stones; maximum capture"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.rules = Rules(
            board=BOARD,
            rotations=BOARD.rotations,
            closer_captures=self.options["closer-applies-to-captures"] == "yes",
            draw_after=int(self.options["no-capture-draw"]),
        )

    def initial_state(self, num_players: int = 2) -> WhistlingState:
        self.check_players(num_players)
        x = sum(1 << CELLS[name] for name in START_X.split())
        o = sum(1 << CELLS[name] for name in START_O.split())
        return self._state((x, o), 0, 0, 0)

    def _state(self, stones: tuple[int, int], ply: int, quiet: int, turn: int) -> WhistlingState:
        spread = self.rules.rotations.spread
        return WhistlingState(
            stones, ply, quiet, turn, self.rules, (spread(stones[0]), spread(stones[1]))
        )

    def parse_move(self, state: WhistlingState, text: str) -> Move:
        """A slide or chain ``P0-P1-…-Pm`` or a crush ``FROMxTO``; legality is not checked.

        :raises InvalidMoveError: anything else, including non-canonical cell names.
        """
        return notation.parse_move(text)

    def format_move(self, state: WhistlingState, move: Move) -> str:
        """:raises InvalidMoveError: ``move`` is not a path or crush between cells."""
        return notation.format_move(move)

    def encode(self, state: WhistlingState) -> str:
        """``rows:seat:quiet:ply``; see ``notation``."""
        return notation.encode(state.stones, state.turn, state.quiet, state.ply)

    def decode(self, text: str) -> WhistlingState:
        """Parse ``encode``'s text and check it against the rules and this game's options.

        :raises InvalidPositionError: malformed text, more than 21 stones a seat,
            counters that do not fit, or the wrong seat to move.
        """
        raw = notation.decode(text)
        x, o = raw.stones  # two letters: two masks
        for seat, mask in enumerate((x, o)):
            if mask.bit_count() > 21:
                raise InvalidPositionError(
                    f"whistling-captures position {text!r}: seat {seat + 1} has over 21 stones"
                )
        check_decoded(
            "whistling-captures",
            text,
            (x, o),
            raw.quiet,
            raw.ply,
            raw.turn,
            self.rules.draw_after,
        )
        turn = raw.turn
        return self._state((x, o), raw.ply, raw.quiet, turn)

    def draw_board(self, state: WhistlingState) -> str:
        """The board in the source's layout."""
        return notation.render(state.stones)

    def evaluate(self, state: WhistlingState) -> tuple[float, ...]:
        """``TwoSeatGame.evaluate`` reading the two masks directly (one call less per
        position an engine looks at)."""
        stones = state.stones
        return float(stones[0].bit_count()), float(stones[1].bit_count())
