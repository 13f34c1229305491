"""The contract every game implements: ``Game``, ``State``, ``Outcome``, ``Termination``.

Rules are pure: nothing here or under ``referee/games`` does I/O, reads a clock,
draws a random number or logs. A ``State`` is immutable; ``play`` returns a new
one, so keeping the old object is the undo.

Seats are 0-based positions at the table in turn order. Humans (records, the
protocol, the CLI) count seats from 1; conversion happens at those edges only.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from referee.errors import IllegalMoveError, InvalidOptionError

Seat = int
"""A 0-based place at the table in turn order. Never an entrant identity."""

DEFAULT_MAX_PLIES = 20_000
"""The referee's ply cap (``Termination.MOVE_LIMIT``) unless the caller sets one: above
the longest game that always ends by the rules (Tricolor on its largest board, n = 64: at
most 3·64² = 12,288 placements). Here, not in ``referee.match``, so the command line
can show it as a default without reading the match loop."""


class Termination(enum.Enum):
    """Why a game ended: rules-level reasons first, referee-level (failures) after.

    The value is the token used in records (``Termination`` tag) and in ``gameover``.
    """

    RULES = "rules"
    """The position is over under the game's own rules."""
    MOVE_LIMIT = "move-limit"
    """The referee's ply cap was reached; ranks come from ``Game.score_unfinished``."""
    ADJUDICATION = "adjudication"
    """An adjudication rule of the referee ended the game early."""
    RESIGNATION = "resignation"
    """``culprit`` resigned."""
    ILLEGAL_MOVE = "illegal-move"
    """``culprit`` sent an unparsable move, or a well-formed one that is not legal."""
    TIMEOUT = "timeout"
    """``culprit`` exceeded its clock (or the fixed time per move) plus the margin."""
    CRASH = "crash"
    """``culprit``'s process exited or closed its pipes during the game."""
    PROTOCOL_ERROR = "protocol-error"
    """``culprit`` sent a line that breaks the protocol grammar or sequence."""
    VOID = "void"
    """An infrastructure failure before the game's first move request; not scored."""

    @property
    def is_forfeit(self) -> bool:
        """True for the terminations caused by one culprit seat."""
        return self in _FORFEITS


_FORFEITS = frozenset(
    {
        Termination.RESIGNATION,
        Termination.ILLEGAL_MOVE,
        Termination.TIMEOUT,
        Termination.CRASH,
        Termination.PROTOCOL_ERROR,
    }
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game, one entry per seat in seat order."""

    termination: Termination
    """Why the game ended."""
    ranks: tuple[int, ...]
    """1 = best, standard competition ranking: tied seats share the best place and the
    next rank skips (a 2-player draw is ``(1, 1)``; a tie for first of three ``(1, 1, 3)``).
    Empty for a void game."""
    scores: tuple[float, ...] = ()
    """In-game points per seat (Trike, Tricolor, Trichess 3/2/1/0); empty if the game has none."""
    culprit: Seat | None = None
    """The seat at fault for a forfeit termination, else None."""
    reason: str = ""
    """One line of human text, e.g. ``"seat 2 sent illegal move 'e3'"``."""


def ranks_from_scores(scores: Iterable[float]) -> tuple[int, ...]:
    """Standard competition ranking, higher score better: ``(5, 3, 5) -> (1, 3, 1)``."""
    values = tuple(scores)
    return tuple(1 + sum(1 for other in values if other > mine) for mine in values)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One named rule option of a game, as its rules page (docs/rules/<id>.md) lists it.

    ``choices`` lists the allowed values (default first) for an enumerated option;
    an integer option has ``choices == ()`` and accepts ``minimum <= int(value) <= maximum``.
    """

    name: str
    default: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def validate(self, value: str) -> str:
        """Return ``value`` in canonical form.

        :raises InvalidOptionError: the value is not allowed.
        """
        if self.choices:
            if value not in self.choices:
                allowed = "|".join(self.choices)
                raise InvalidOptionError(f"option {self.name}={value!r} is not one of {allowed}")
            return value
        try:
            number = int(value, 10)
        except ValueError:
            raise InvalidOptionError(f"option {self.name}={value!r} is not an integer") from None
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            raise InvalidOptionError(f"option {self.name}={value} is outside {low}..{high}")
        return str(number)

    def describe(self) -> str:
        """The option's allowed values for help texts, default first."""
        if self.choices:
            return "|".join(self.choices)
        low = "" if self.minimum is None else str(self.minimum)
        high = "" if self.maximum is None else str(self.maximum)
        return f"integer {low}..{high} (default {self.default})"


M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True, slots=True, eq=False)
class State(ABC, Generic[M]):
    """An immutable position plus everything needed to continue it.

    Subclasses are ``@dataclass(frozen=True, slots=True)``. ``play`` never mutates
    its receiver. A subclass implements ``_generate``; ``legal_moves`` runs it once per
    state and keeps the answer in ``_moves``, the one field this base declares.

    Invariant (checked for every game by the conformance tests):
    ``to_move is None`` iff ``outcome() is not None`` iff ``legal_moves() == ()``.
    """

    _moves: tuple[M, ...] | None = field(default=None, kw_only=True, compare=False, repr=False)
    """``legal_moves()`` once computed, None before. Not part of the position: outside
    equality, hash and repr, and keyword-only so that it comes after every field of a
    subclass (which may then have fields without defaults). A frozen state stores it with
    ``object.__setattr__``: a plain slot, as fast to read as any field."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """The number of seats at the table."""

    @property
    @abstractmethod
    def to_move(self) -> Seat | None:
        """The seat that must move now, or None if the game is over."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """The number of moves played since the game's initial position."""

    def legal_moves(self) -> tuple[M, ...]:
        """Every legal complete turn, in a canonical, deterministic order.

        Mandatory rules are applied here: a move absent from this tuple is illegal.
        Empty iff the game is over. ``_generate``'s answer, computed once per state.
        """
        moves = self._moves
        if moves is None:
            moves = self._generate()
            object.__setattr__(self, "_moves", moves)
        return moves

    @abstractmethod
    def _generate(self) -> tuple[M, ...]:
        """Every legal move as ``legal_moves`` describes it (empty when the game is over).

        Called at most once per state, by ``legal_moves``; other code calls that.
        """

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The rules-level outcome (termination RULES) if the game is over, else None."""

    @abstractmethod
    def _apply(self, move: M) -> Self:
        """Return the successor state. Assumes ``move`` is legal; never validates."""

    def is_legal(self, move: M) -> bool:
        """Whether ``move`` is legal here. Games override this with a faster test."""
        return move in self.legal_moves()

    def why_illegal(self, move: M) -> str | None:
        """None when ``move`` is legal here, else one line saying which rule it breaks.

        Meant for the illegal path only (``play`` calls it after ``is_legal`` said no):
        it may be much slower than ``is_legal``. The line comes from ``explain_illegal``;
        ``GAME_OVER`` when nobody is to move, ``NOT_LEGAL`` when the game's explainer
        finds no fault.
        """
        if self.is_legal(move):
            return None
        if self.to_move is None:
            return GAME_OVER
        return self.explain_illegal(move) or NOT_LEGAL

    def explain_illegal(self, move: M) -> str | None:
        """The first rule ``move`` breaks in this position (the game not over), in the
        rules' own terms ("the cell e3 is occupied"), or None when it breaks none.

        Games override this; it is an independent judgement, so the conformance tests
        check that it is None exactly for the legal moves. The default knows no rule.
        """
        return None

    def play(self, move: M) -> Self:
        """Validate ``move`` and return the successor state.

        :raises IllegalMoveError: the move is not legal in this state; the message is
            ``why_illegal``'s line.
        """
        if not self.is_legal(move):
            raise IllegalMoveError(self.why_illegal(move) or NOT_LEGAL)
        return self._apply(move)


NOT_LEGAL = "not a legal move in this position"
"""The reason ``State.why_illegal`` gives when the game's explainer names no rule."""
GAME_OVER = "the game is over"
"""The reason ``State.why_illegal`` gives for any move after the end of the game."""


S = TypeVar("S", bound="State[Any]")


class Game(ABC, Generic[S, M]):
    """A stateless rules object: one game under one set of rule options.

    Construct with the options that differ from the defaults; the instance holds
    every option in canonical form in ``options``.
    """

    name: ClassVar[str]
    """The game id, e.g. ``"trike"``."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other ids that find this game in the registry."""
    version: ClassVar[str]
    """The rules version; bump when behaviour changes. Recorded in every game record."""
    player_counts: ClassVar[tuple[int, ...]]
    """Allowed numbers of seats, e.g. ``(2,)`` or ``(2, 3)``."""
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    """The named rule options of the game's rules page, in the order records list them."""
    description: ClassVar[str] = ""
    """One line for ``referee games``."""
    result_from_scores: ClassVar[bool] = False
    """True when the record's ``Result`` tag lists the in-game scores (Trichess 3/2/1/0)
    rather than win/draw/loss shares derived from ``ranks``."""

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        """Validate ``options`` against ``option_specs``.

        :raises InvalidOptionError: an unknown option name or a bad value.
        """
        given = dict(options or {})
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise InvalidOptionError(
                f"unknown option {unknown[0]!r} for game {self.name} (known: {known})"
            )
        self.options: dict[str, str] = {
            spec.name: spec.validate(given.get(spec.name, spec.default))
            for spec in self.option_specs
        }

    def options_text(self) -> str:
        """Every option as ``k=v`` joined by commas, defaults included (the ``Options`` tag)."""
        return ",".join(f"{name}={value}" for name, value in self.options.items())

    def check_players(self, num_players: int) -> None:
        """:raises InvalidOptionError: the game is not played by ``num_players`` seats."""
        if num_players not in self.player_counts:
            counts = " or ".join(str(n) for n in self.player_counts)
            raise InvalidOptionError(
                f"{self.name} is played by {counts} players, not {num_players}"
            )

    @abstractmethod
    def initial_state(self, num_players: int) -> S:
        """The start position.

        :raises InvalidOptionError: the game is not played by ``num_players`` seats.
        """

    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Parse canonical move text in ``state``'s context (legality is not checked).

        :raises InvalidMoveError: the text is not a well-formed canonical move.
        """

    @abstractmethod
    def format_move(self, state: S, move: M) -> str:
        """Canonical, whitespace-free text: ``parse_move(s, format_move(s, m)) == m``."""

    @abstractmethod
    def encode(self, state: S) -> str:
        """A one-token (whitespace-free) position string: ``decode(encode(s)) == s``."""

    @abstractmethod
    def decode(self, text: str) -> S:
        """:raises InvalidPositionError: malformed or inconsistent position text."""

    def render(self, state: S) -> str:
        """A multi-line ASCII diagram for humans, logs and golden files."""
        return self.encode(state)

    def score_unfinished(self, state: S) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Ranks and in-game scores for a game the referee stops early.

        Used for the move limit and for the seats other than the culprit after a
        3-player forfeit. The default ranks every seat equal and gives no scores.
        """
        return tuple(1 for _ in range(state.num_players)), ()

    def evaluate(self, state: S) -> tuple[float, ...]:
        """A heuristic value per seat of an unfinished position (higher is better), for
        engines such as the built-in ``greedy``: material, stones, points so far.

        Never a result: the referee does not call it. The default is the scores of
        ``score_unfinished`` (empty when it gives none); a game whose stopped-game scores
        say nothing about the position (Trichess scores it as a pat) overrides it.
        """
        return self.score_unfinished(state)[1]


AnyGame = Game[Any, Any]
"""A game of any state and move types: what the registry makes and what code that
works with every game (records, players, tournaments) holds."""
