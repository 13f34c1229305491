"""Results: the ``Result`` tag of an outcome, and the referee's own outcomes.

Shared by the match loop (which decides outcomes), the record writer (which
prints them) and the adjudicator (which recomputes them): one definition each.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from referee.core import AnyGame, Outcome, Seat, Termination, ranks_from_scores

UNFINISHED = "*"
"""The ``Result`` of an unfinished or void game."""

_NUMBER = r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
RESULT_PART = re.compile(rf"{_NUMBER}|(?:0|[1-9][0-9]*)/[1-9][0-9]*")
"""One seat's part of a ``Result``: a number or a fraction such as ``1/2``."""


RUNNER_LATE = "runner late"
"""How the reason of a game voided by the referee's own lateness begins (``referee.match``
voids it; the results and the journal tell it from an engine's fault)."""


def runner_fault(outcome: Outcome) -> bool:
    """True when ``outcome`` is a game voided by the referee's own lateness."""
    return outcome.termination is Termination.VOID and outcome.reason.startswith(RUNNER_LATE)


def parse_result(text: str) -> tuple[Fraction, ...] | None:
    """``Result`` text as exact numbers per seat (``1/2-1/2`` equals ``0.5-0.5``); None for ``*``.

    :raises ValueError: not a well-formed result.
    """
    if text == UNFINISHED:
        return None
    parts = text.split("-")
    if not all(RESULT_PART.fullmatch(part) for part in parts):
        raise ValueError(f"bad result {text!r}")
    return tuple(Fraction(part) for part in parts)


def format_number(value: float) -> str:
    """A number for ``Score``/``Result``: integers without ``.0`` (``5``, ``-2``), else ``1.5``.

    :raises ValueError: ``value`` is not finite.
    """
    if not math.isfinite(value):
        raise ValueError(f"cannot record the number {value!r}")
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def result_text(game: AnyGame, outcome: Outcome | None) -> str:
    """The ``Result`` tag for ``outcome``.

    - None, a void termination or empty ranks: ``*``.
    - A game with ``result_from_scores`` whose outcome has scores and is not a forfeit:
      the scores joined by ``-`` (Trichess ``3-1-0``).
    - Otherwise shares of one point: the seats ranked best split it (``1-0``, ``1/2-1/2``,
      ``1/2-0-1/2``, ``1/3-1/3-1/3``), every other seat gets ``0``.

    :raises ValueError: a score-based result with a negative or non-finite score.
    """
    if outcome is None or outcome.termination is Termination.VOID or not outcome.ranks:
        return UNFINISHED
    if game.result_from_scores and outcome.scores and not outcome.termination.is_forfeit:
        if any(score < 0 for score in outcome.scores):
            raise ValueError(f"a score-based Result cannot hold negative scores {outcome.scores}")
        return "-".join(format_number(score) for score in outcome.scores)
    best = min(outcome.ranks)
    winners = sum(1 for rank in outcome.ranks if rank == best)
    share = "1" if winners == 1 else f"1/{winners}"
    return "-".join(share if rank == best else "0" for rank in outcome.ranks)


def forfeit_outcome(
    game: AnyGame, state: Any, termination: Termination, culprit: Seat, reason: str = ""
) -> Outcome:
    """The referee's outcome when ``culprit`` forfeits (or is adjudicated lost) in ``state``.

    The culprit is ranked last. The other seats are ranked among themselves by
    ``game.score_unfinished(state)``: by its scores when it gives one per seat, else by
    its ranks (with two seats the other simply wins). The outcome carries those scores.
    """
    n = state.num_players
    base_ranks, scores = game.score_unfinished(state)
    others = [seat for seat in range(n) if seat != culprit]
    if len(scores) == n:
        keys = [float(scores[seat]) for seat in others]
    elif len(base_ranks) == n:
        keys = [-float(base_ranks[seat]) for seat in others]
    else:
        keys = [0.0 for _ in others]
    ranks = [n] * n
    for seat, rank in zip(others, ranks_from_scores(keys), strict=True):
        ranks[seat] = rank
    return Outcome(termination, tuple(ranks), tuple(scores), culprit, reason)


def unfinished_outcome(
    game: AnyGame, state: Any, termination: Termination = Termination.MOVE_LIMIT, reason: str = ""
) -> Outcome:
    """The referee's outcome for a game it stops without a culprit (move limit, adjudication):
    ranks and scores from ``game.score_unfinished(state)``."""
    ranks, scores = game.score_unfinished(state)
    return Outcome(termination, tuple(ranks), tuple(scores), None, reason)
