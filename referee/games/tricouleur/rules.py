"""Tricouleur (Bill Taylor, 2003): the rules of docs/rules/tricouleur.md
with its options.

- Hexhex side 8 (169 cells); each seat has six red, six white and six blue stones
  (the designer's start). Seat 1 is First (the marked stones) and moves first.
- A turn is one action, and a capture is compulsory when one is legal (free choice
  among captures, no chains, no maximum rule):
  - **replacement**: a stone steps onto an adjacent enemy stone of any colour,
    which is removed (the closer rule never applies);
  - **slide**: a stone slides ``k >= 1`` cells in a line through empty cells. Its
    victims are the enemy stones of its prey colour (red takes white, white takes
    blue, blue takes red) touching an interior cell and neither end; they are all
    removed. A slide with victims is a whistling capture, one without is a plain move.
- **Closer rule**: a plain move must end strictly nearer to at least one enemy stone
  (any colour) than it started (``closer-metric``: Euclidean, or hex steps). With
  ``closer-applies-to-captures=yes`` whistling captures must obey it too (against
  the enemy stones on the board before the move, victims included); a whistle that
  fails it is not legal at all, since its victims cannot be declined.
- A seat left without stones loses. After ``no-capture-draw`` plies in a row without
  a capture (0 = never) the game is drawn. A seat with stones always has a legal
  action (docs/rules/tricouleur.md, checked by the tests), so no other ending exists.

A move is a tuple of slots (see ``referee.games.hex``): ``(from, to)`` for a slide, whose
victims follow from the position, and ``(from, to, REPLACE)`` for a replacement.
Texts ``c8-c6`` and ``d9xe9``. ``legal_moves`` lists stones in reading order, and
for each its replacements then its slides, directions E, W, NE, NW, SE, SW, nearest
first.

``score_unfinished`` ranks the seats by stones left (more is better) and reports those
counts as the scores of a stopped game; a game ended by the rules has no in-game points.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.core import OptionSpec
from referee.errors import InvalidMoveError, InvalidPositionError
from referee.games.hex import Zones, bits, step_zones
from referee.games.hex.twoseat import TwoSeatGame, TwoSeatRules, TwoSeatState, check_decoded
from referee.games.tricouleur import explain, notation
from referee.games.tricouleur.notation import BOARD, CELLS, NAMES

REPLACE = -1
"""Third element of a replacement move."""
Move = tuple[int, ...]

START_ROWS = (
    "......../........./..BRW..w../...BR..wb../....B..wbr../..b........../..ww........../"
    "..rrr.....RRR../..........WW../..........B../..RBW..b..../..BW..rb.../..W..wrb../"
    "........./........"
)
"""The 36-stone start of docs/rules/tricouleur.md in the ``rows`` syntax of ``notation``."""

_MOVE = re.compile(r"([a-o](?:[1-9]|1[0-5]))([-x])([a-o](?:[1-9]|1[0-5]))")


@dataclass(frozen=True, slots=True, eq=False)
class Rules(TwoSeatRules):
    """The option-dependent tables shared by every state of one game
    (``closer_captures``: whether whistling captures must obey the closer rule)."""

    zones: Zones
    """``board.zones`` (Euclidean) or ``step_zones`` (hex steps)."""


@dataclass(frozen=True, slots=True)
class TricouleurState(TwoSeatState[Move]):
    """A Tricouleur position. Equality and hash use the content fields only.

    Build states with ``Tricouleur.initial_state``, ``play`` or ``Tricouleur.decode``,
    which keep the derived ``turn`` consistent.
    """

    stones: tuple[int, ...]
    """Six bit masks of slots, index ``3 * seat + colour`` (colour 0 red, 1 white, 2 blue)."""
    ply: int = field()  # field() stops dataclass taking State.ply (a property) as a default
    """Moves played so far."""
    quiet: int
    """Plies since the last capture (or since the start)."""
    turn: int = field(compare=False)
    """The seat to move, -1 when the game is over."""
    rules: Rules = field(compare=False, repr=False)
    _capture: bool | None = field(default=None, compare=False, repr=False)

    def armies(self, seat: int) -> int:
        """The mask of every stone of ``seat``."""
        st = self.stones
        return st[3 * seat] | st[3 * seat + 1] | st[3 * seat + 2]

    def _generate(self) -> tuple[Move, ...]:
        if self.turn < 0:
            return ()
        rules = self.rules
        board, zones, closer_captures = rules.board, rules.zones, rules.closer_captures
        rays, sweeps, adjacent = board.rays, board.sweeps, board.adjacent
        base, other = 3 * self.turn, 3 - 3 * self.turn
        st = self.stones
        mine = st[base] | st[base + 1] | st[base + 2]
        theirs = st[other] | st[other + 1] | st[other + 2]
        occ = mine | theirs
        empty = board.mask & ~occ
        whistlers = 0
        for colour in range(3):
            prey = st[other + (colour + 1) % 3]
            whistlers |= board.whistlers(st[base + colour], prey, empty)
        captures: list[Move] = []
        if whistlers or board.dilate(mine) & theirs:
            for s in bits(mine):
                for t in bits(adjacent[s] & theirs):
                    captures.append((s, t, REPLACE))
                if not whistlers >> s & 1:
                    continue
                colour = 0 if st[base] >> s & 1 else (1 if st[base + 1] >> s & 1 else 2)
                prey = st[other + (colour + 1) % 3]
                for d in range(6):
                    sweep, zone = sweeps[s][d], zones[s][d]
                    for i, c in enumerate(rays[s][d]):
                        if occ >> c & 1:
                            break
                        if prey & sweep[i] and (not closer_captures or theirs & zone[i]):
                            captures.append((s, c))
        if captures:
            return tuple(captures)
        if zones is board.zones:
            return tuple(board.closer_slides(mine, occ, theirs))
        return tuple(board.zone_slides(mine, occ, theirs, zones))

    def capture_exists(self) -> bool:
        """Whether the seat to move has a legal capture (then it must capture)."""
        found = self._capture
        if found is None:
            found = self._find_capture()
            object.__setattr__(self, "_capture", found)
        return found

    def _find_capture(self) -> bool:
        rules = self.rules
        board = rules.board
        base, other = 3 * self.turn, 3 - 3 * self.turn
        st = self.stones
        mine = st[base] | st[base + 1] | st[base + 2]
        theirs = st[other] | st[other + 1] | st[other + 2]
        if board.dilate(mine) & theirs:
            return True
        empty = board.mask & ~(mine | theirs)
        for colour in range(3):
            prey = st[other + (colour + 1) % 3]
            movers = board.whistlers(st[base + colour], prey, empty)
            if not movers:
                continue
            if not rules.closer_captures:
                return True
            zones, sweeps, rays = rules.zones, board.sweeps, board.rays
            for s in bits(movers):
                for d in range(6):
                    sweep, zone = sweeps[s][d], zones[s][d]
                    for i, c in enumerate(rays[s][d]):
                        if not empty >> c & 1:
                            break
                        if prey & sweep[i] and theirs & zone[i]:
                            return True
        return False

    def is_legal(self, move: Move) -> bool:
        """Checks the one move (and, for a plain move, that no capture exists)."""
        if self.turn < 0 or type(move) is not tuple:
            return False
        if len(move) == 2:
            s, t = move
        elif len(move) == 3 and move[2] == REPLACE:
            s, t, _ = move
        else:
            return False
        board = self.rules.board
        if type(s) is not int or type(t) is not int or s not in board.coords:
            return False
        base, other = 3 * self.turn, 3 - 3 * self.turn
        st = self.stones
        theirs = st[other] | st[other + 1] | st[other + 2]
        if len(move) == 3:
            mine = st[base] | st[base + 1] | st[base + 2]
            return bool(mine >> s & 1 and board.adjacent[s] >> t & 1 and theirs >> t & 1)
        if st[base] >> s & 1:
            colour = 0
        elif st[base + 1] >> s & 1:
            colour = 1
        elif st[base + 2] >> s & 1:
            colour = 2
        else:
            return False
        where = board.line[s].get(t)
        if where is None:
            return False
        d, i = where
        if board.paths[s][d][i] & (theirs | st[base] | st[base + 1] | st[base + 2]):
            return False
        closer = theirs & self.rules.zones[s][d][i]
        if st[other + (colour + 1) % 3] & board.sweeps[s][d][i]:
            return bool(closer) or not self.rules.closer_captures
        return bool(closer) and not self.capture_exists()

    def explain_illegal(self, move: Move) -> str | None:
        """See ``referee.games.tricouleur.explain``."""
        return explain.explain(self, move)

    def _apply(self, move: Move) -> TricouleurState:
        s, t = move[0], move[1]
        rules = self.rules
        st = list(self.stones)
        base, other = 3 * self.turn, 3 - 3 * self.turn
        kind = base if st[base] >> s & 1 else (base + 1 if st[base + 1] >> s & 1 else base + 2)
        st[kind] ^= (1 << s) | (1 << t)
        captured = False
        if len(move) == 3:
            for j in range(other, other + 3):
                if st[j] >> t & 1:
                    st[j] ^= 1 << t
                    captured = True
                    break
        else:
            d, i = rules.board.line[s][t]
            prey = other + (kind - base + 1) % 3
            victims = st[prey] & rules.board.sweeps[s][d][i]
            if victims:
                st[prey] ^= victims
                captured = True
        quiet = 0 if captured else self.quiet + 1
        turn = 1 - self.turn
        if not (st[other] | st[other + 1] | st[other + 2]) or (
            rules.draw_after and quiet >= rules.draw_after
        ):
            turn = -1
        return TricouleurState(tuple(st), self.ply + 1, quiet, turn, rules)


class Tricouleur(TwoSeatGame[TricouleurState, Move]):
    """Tricouleur on hexhex side 8 (see the module doc)."""

    name = "tricouleur"
    version = "1"
    army_names = ("First, RWB", "Second, rwb")
    player_counts = (2,)
    option_specs = (
        OptionSpec(
            "closer-applies-to-captures",
            "yes",
            ("yes", "no"),
            help="whistling captures must also end closer to an enemy stone",
        ),
        OptionSpec(
            "closer-metric", "euclidean", ("euclidean", "steps"), help="distance of the closer rule"
        ),
        OptionSpec(
            "no-capture-draw", "40", minimum=0, help="plies without capture that draw; 0 = off"
        ),
    )
    description = (
        "Tricouleur: slide to whistle past prey colours, or replace; capture is compulsory"
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        metric = self.options["closer-metric"]
        self.rules = Rules(
            board=BOARD,
            zones=BOARD.zones if metric == "euclidean" else step_zones(BOARD.side),
            closer_captures=self.options["closer-applies-to-captures"] == "yes",
            draw_after=int(self.options["no-capture-draw"]),
        )

    def initial_state(self, num_players: int = 2) -> TricouleurState:
        self.check_players(num_players)
        return self.decode(f"{START_ROWS}:1:0:0")

    def parse_move(self, state: TricouleurState, text: str) -> Move:
        """``FROM-TO`` (slide) or ``FROMxTO`` (replacement) with cell names; legality is
        not checked.

        :raises InvalidMoveError: anything else, including non-canonical spellings.
        """
        found = _MOVE.fullmatch(text)
        if found is None or found[1] not in CELLS or found[3] not in CELLS:
            raise InvalidMoveError(
                f"invalid tricouleur move {text!r}: expected a slide like 'c8-c6' "
                "or a replacement like 'd9xe9' (cells a..o + 1..15)"
            )
        s, t = CELLS[found[1]], CELLS[found[3]]
        return (s, t) if found[2] == "-" else (s, t, REPLACE)

    def format_move(self, state: TricouleurState, move: Move) -> str:
        """:raises InvalidMoveError: ``move`` is not a slide or replacement between cells."""
        if (len(move) == 2 or (len(move) == 3 and move[2] == REPLACE)) and (
            move[0] in NAMES and move[1] in NAMES
        ):
            return f"{NAMES[move[0]]}{'-' if len(move) == 2 else 'x'}{NAMES[move[1]]}"
        raise InvalidMoveError(f"not a tricouleur move: {move!r}")

    def encode(self, state: TricouleurState) -> str:
        """``rows:seat:quiet:ply``; see ``notation``."""
        return notation.encode(state.stones, state.turn, state.quiet, state.ply)

    def decode(self, text: str) -> TricouleurState:
        """Parse ``encode``'s text and check it against the rules and this game's options.

        :raises InvalidPositionError: malformed text, more than six stones of a colour
            per seat, counters that do not fit, or the wrong seat to move.
        """
        raw = notation.decode(text)
        for kind, mask in enumerate(raw.stones):
            if mask.bit_count() > 6:
                raise InvalidPositionError(
                    f"tricouleur position {text!r}: more than six "
                    f"{notation.COLOUR_NAMES[kind % 3]} stones of seat {kind // 3 + 1}"
                )
        armies = tuple(raw.stones[k] | raw.stones[k + 1] | raw.stones[k + 2] for k in (0, 3))
        check_decoded(
            "tricouleur",
            text,
            (armies[0], armies[1]),
            raw.quiet,
            raw.ply,
            raw.turn,
            self.rules.draw_after,
        )
        turn = raw.turn
        return TricouleurState(raw.stones, raw.ply, raw.quiet, turn, self.rules)

    def draw_board(self, state: TricouleurState) -> str:
        """The board with cell names at both ends of each row."""
        return notation.render(state.stones)
