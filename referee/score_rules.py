"""Score adjudication for any number of seats (cutechess ``-resign`` / ``-draw``): pure.

The engines' own evaluations (``score`` items: each seat's share of the points in
thousandths, ``protocol.search_info``) may end a hopeless or dead-drawn game early:

- **resign** ``movecount=M,share=S``: when, for the last M turns of every engine at
  the table, every engine's score gives the same seat (one at the table) a share
  ≤ S, that seat loses.
- **draw** ``movenumber=K,movecount=M,spread=S``: once K plies have been played,
  when for the last M turns of every engine at the table every share of every score
  is within S of an equal split (1000 / seats), the game is drawn.

A turn without a usable score (none reported, or a share list for another number of
seats) breaks that engine's run: an engine that reports no score blocks both rules.
``score win K`` counts as 1000 for the mover and 0 for the others. Resign is checked
before draw. **At the table**: every seat for the first ``2 × seats`` plies, then the
seats that moved in the last ``2 × seats`` plies (a seat eliminated from the game
stops moving and leaves the table; a seat that moves twice in a row does not push
the others off it).

``ScoreAdjudicator`` is the rule as a state machine over turns: the match loop feeds
it each move's score as it is played, ``referee adjudicate`` feeds it the recorded
``s=`` items; both get the same ``Decision`` at the same ply.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from protocol.search_info import SHARE_TOTAL, ForcedWin, Score
from referee.core import AnyGame, Outcome, Termination
from referee.errors import UserError
from referee.results import forfeit_outcome

TAG = "Adjudication"
"""The record tag holding the settings (``ScoreRules.tag_text``)."""


def _settings(text: str, keys: tuple[str, ...], what: str) -> tuple[int, ...]:
    """``k1=v1,k2=v2`` with exactly ``keys`` (any order), as non-negative ints.

    :raises UserError: one line naming what is wrong.
    """
    values: dict[str, int] = {}
    for item in text.split(","):
        key, eq, value = item.strip().partition("=")
        if not eq or key not in keys or key in values:
            raise UserError(
                f"bad {what} setting {item.strip()!r}: expected {','.join(k + '=N' for k in keys)}"
            )
        if not (value.isascii() and value.isdigit()) or len(value) > 9:
            raise UserError(f"bad {what} setting {item.strip()!r}: expected a whole number")
        values[key] = int(value)
    missing = [key for key in keys if key not in values]
    if missing:
        raise UserError(f"{what} needs {', '.join(missing)} (e.g. {_EXAMPLES[what]})")
    return tuple(values[key] for key in keys)


@dataclass(frozen=True, slots=True)
class ResignRule:
    """``movecount=M,share=S``: M ≥ 1 turns of every engine, share S in 0–1000."""

    movecount: int
    share: int

    def __post_init__(self) -> None:
        if self.movecount < 1 or not 0 <= self.share < SHARE_TOTAL:
            raise UserError("resign needs movecount ≥ 1 and share from 0 to 999")

    @classmethod
    def parse(cls, text: str) -> ResignRule:
        """From ``movecount=3,share=50``. :raises UserError: one line."""
        return cls(*_settings(text, ("movecount", "share"), "resign"))

    def __str__(self) -> str:
        return f"movecount={self.movecount},share={self.share}"


@dataclass(frozen=True, slots=True)
class DrawRule:
    """``movenumber=K,movecount=M,spread=S``: after K plies, M turns, within S of even."""

    movenumber: int
    movecount: int
    spread: int

    def __post_init__(self) -> None:
        if self.movecount < 1 or not 0 <= self.spread <= SHARE_TOTAL:
            raise UserError("draw needs movecount ≥ 1 and spread from 0 to 1000")

    @classmethod
    def parse(cls, text: str) -> DrawRule:
        """From ``movenumber=40,movecount=4,spread=20``. :raises UserError: one line."""
        return cls(*_settings(text, ("movenumber", "movecount", "spread"), "draw"))

    def __str__(self) -> str:
        return f"movenumber={self.movenumber},movecount={self.movecount},spread={self.spread}"


_EXAMPLES = {"resign": "movecount=3,share=50", "draw": "movenumber=40,movecount=4,spread=20"}


@dataclass(frozen=True, slots=True)
class ScoreRules:
    """The adjudication settings of a match; either rule may be absent."""

    resign: ResignRule | None = None
    draw: DrawRule | None = None

    def __bool__(self) -> bool:
        return self.resign is not None or self.draw is not None

    def tag_text(self) -> str:
        """``resign movecount=3,share=50; draw movenumber=40,movecount=4,spread=20``."""
        parts = []
        if self.resign is not None:
            parts.append(f"resign {self.resign}")
        if self.draw is not None:
            parts.append(f"draw {self.draw}")
        return "; ".join(parts)

    @classmethod
    def from_tag(cls, text: str) -> ScoreRules:
        """Read ``tag_text``'s form back. :raises UserError: one line."""
        resign: ResignRule | None = None
        draw: DrawRule | None = None
        for part in text.split(";"):
            name, _, settings = part.strip().partition(" ")
            if name == "resign" and resign is None:
                resign = ResignRule.parse(settings)
            elif name == "draw" and draw is None:
                draw = DrawRule.parse(settings)
            else:
                raise UserError(f"bad {TAG} tag {text!r}: expected 'resign …; draw …'")
        return cls(resign, draw)


@dataclass(frozen=True, slots=True)
class Decision:
    """A rule ended the game after ``ply`` plies."""

    rule: str
    """``resign`` or ``draw``."""
    loser: int | None
    """The 0-based seat that loses (resign), None for a draw."""
    ply: int
    last_scores: tuple[tuple[int, tuple[int, ...]], ...]
    """(0-based seat, its last score as shares) of every seat at the table, in seat order."""
    settings: str
    """The rule's settings, as in the tag."""

    @property
    def reason(self) -> str:
        """The ``Reason``: the rule, its settings and the last scores."""
        scores = ", ".join(
            f"seat {seat + 1} {','.join(map(str, s))}" for seat, s in self.last_scores
        )
        if self.loser is None:
            what = "the engines' scores agree on an even game"
        else:
            what = f"the engines' scores agree that seat {self.loser + 1} is lost"
        return f"{self.rule} adjudication ({self.settings}): {what}; last scores: {scores}"


def shares_of(score: Score | None, mover: int, players: int) -> tuple[int, ...] | None:
    """Each seat's share a score gives (``win K``: all to the mover); None if unusable."""
    if score is None:
        return None
    if isinstance(score, ForcedWin):
        return tuple(SHARE_TOTAL if seat == mover else 0 for seat in range(players))
    return score.values if len(score.values) == players else None


class ScoreAdjudicator:
    """The rules of one game as a state machine over its turns (see the module doc)."""

    def __init__(self, rules: ScoreRules, players: int) -> None:
        self.rules = rules
        self.players = players
        window = max(
            rules.resign.movecount if rules.resign is not None else 1,
            rules.draw.movecount if rules.draw is not None else 1,
        )
        self._recent: list[deque[tuple[int, ...] | None]] = [
            deque(maxlen=window) for _ in range(players)
        ]
        # As if every seat had moved at ply 0: all are at the table from the start.
        self._last_turn = [0] * players
        self.ply = 0

    def _table(self) -> list[int]:
        oldest = self.ply - 2 * self.players
        return [seat for seat in range(self.players) if self._last_turn[seat] > oldest]

    def _runs(self, table: list[int], count: int) -> list[list[tuple[int, ...]]] | None:
        """The last ``count`` scores of each seat at the table, or None if one is missing."""
        runs = []
        for seat in table:
            recent = self._recent[seat]
            if len(recent) < count:
                return None
            run = list(recent)[-count:]
            if any(shares is None for shares in run):
                return None
            runs.append([shares for shares in run if shares is not None])
        return runs

    def observe(self, mover: int, score: Score | None) -> Decision | None:
        """One more ply, played by ``mover`` (0-based) who reported ``score``.

        :returns: the decision if a rule ends the game after this ply, else None.
        """
        self.ply += 1
        self._recent[mover].append(shares_of(score, mover, self.players))
        self._last_turn[mover] = self.ply
        table = self._table()
        resign = self.rules.resign
        if resign is not None:
            runs = self._runs(table, resign.movecount)
            if runs is not None:
                for loser in table:
                    if all(shares[loser] <= resign.share for run in runs for shares in run):
                        return self._decide("resign", loser, table, str(resign))
        draw = self.rules.draw
        if draw is not None and self.ply >= draw.movenumber:
            runs = self._runs(table, draw.movecount)
            even = SHARE_TOTAL / self.players
            if runs is not None and all(
                abs(share - even) <= draw.spread for run in runs for s in run for share in s
            ):
                return self._decide("draw", None, table, str(draw))
        return None

    def _decide(self, rule: str, loser: int | None, table: list[int], settings: str) -> Decision:
        last = tuple((seat, self._recent[seat][-1] or ()) for seat in table)
        return Decision(rule, loser, self.ply, last, settings)


def adjudicated_outcome(game: AnyGame, state: Any, decision: Decision) -> Outcome:
    """The outcome of ``decision`` in ``state`` (termination ``adjudication``).

    Resign: the loser is ranked last and the others by ``score_unfinished``, as a
    forfeit (``referee.results.forfeit_outcome``). Draw: every seat shares the point.
    """
    if decision.loser is not None:
        return forfeit_outcome(
            game, state, Termination.ADJUDICATION, decision.loser, decision.reason
        )
    ranks = (1,) * state.num_players
    return Outcome(Termination.ADJUDICATION, ranks, (), None, decision.reason)
