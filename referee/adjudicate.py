"""Replay game records under their own rules and check their moves and results.

``adjudicate`` is pure: a record in, a ``Verdict`` out. The checks are the table
"What the adjudicator checks" in ``protocol/RECORD.md``:

1. The record must set up: a known game, valid options, the rules version of this
   referee, a player count the game allows, a decodable ``Start``. Else ``invalid-record``.
2. Every move, in order, must be canonical text that parses and is legal, and the
   game must not be over before it. Else ``illegal-move`` at that ply, with why (the
   parse error, or the rule the move breaks: ``State.why_illegal``). Plies count from
   the game's initial position: a record with a ``Start`` begins at the Start's ply.
3. The ``Result`` (and ``Score``, ``Culprit``) must be what the final position and the
   ``Termination`` justify. Else ``wrong-result``.
4. With an ``Adjudication`` tag (score rules, ``referee.score_rules``) the recorded
   ``s=`` items are fed to the rule ply by ply: it must end the game exactly where the
   record ends with termination ``adjudication`` (or where the rules end it), never
   earlier, and an ``adjudication`` must be the one it gives. Else ``wrong-result``.
5. With a ``TimeControl`` tag and the moves' times, the clocks are replayed through the
   referee's own ``Clock`` (``referee.clock_audit``): no move may be past its time plus the
   margin (the mover lost on time there) and every recorded time left must be the
   clock's. Else ``wrong-result`` at that ply. A tag that does not read is
   ``invalid-record``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.clock_audit import MARGIN_TAG, ClockAudit, ClockProblem
from referee.core import AnyGame, Outcome, Termination
from referee.errors import IllegalMoveError, RulesError
from referee.record.model import GameRecord
from referee.registry import make_game
from referee.results import (
    forfeit_outcome,
    format_number,
    parse_result,
    result_text,
    unfinished_outcome,
)
from referee.score_rules import (
    TAG,
    Decision,
    ScoreAdjudicator,
    ScoreRules,
    adjudicated_outcome,
)

GameMaker = Callable[[str, Mapping[str, str]], AnyGame]
"""How a record's ``Game`` and ``Options`` become a game: ``referee.registry.make_game``."""


class VerdictKind(enum.Enum):
    """The adjudicator's finding; the value is the token of ``--json`` output."""

    CONFIRMED = "confirmed"
    """Every move is legal and the result is right."""
    ILLEGAL_MOVE = "illegal-move"
    """A move is unreadable, not canonical, illegal, or made after the game was over."""
    WRONG_RESULT = "wrong-result"
    """The moves are legal but ``Result``, ``Score``, ``Termination`` or ``Culprit`` is wrong."""
    INVALID_RECORD = "invalid-record"
    """The game cannot be set up: unknown game, bad options or version, player count or Start."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The adjudication of one record. Seats and plies count from 1."""

    verdict: VerdictKind
    reason: str
    """One line of human text."""
    ply: int | None = None
    """The ply of the first bad move (``illegal-move``), counted from the game's initial
    position: its index in the movetext plus the ``Start`` position's ply (an opening's
    plies), as the match's forfeit reasons and ``referee show --ply`` count."""
    seat: int | None = None
    """The 1-based seat that made the bad move, or None (e.g. after the game was over)."""
    move: str | None = None
    """The bad move's text (``illegal-move``)."""
    claimed: str | None = None
    """The record's ``Result`` (set once the moves have been replayed)."""
    correct: str | None = None
    """The ``Result`` the rules and the termination justify (set with ``claimed``)."""
    position: str | None = field(default=None, compare=False)
    """The ``Game.render`` diagram of the position at the dispute: before the bad move
    (``illegal-move``) or the final one (``wrong-result``); None otherwise. Shown by
    ``format_verdict``, not part of the JSON."""

    @property
    def confirmed(self) -> bool:
        """Whether the record stands."""
        return self.verdict is VerdictKind.CONFIRMED


def _invalid(reason: str) -> Verdict:
    return Verdict(VerdictKind.INVALID_RECORD, reason)


def _illegal(ply: int, seat: int | None, move: str, reason: str, position: str) -> Verdict:
    return Verdict(
        VerdictKind.ILLEGAL_MOVE,
        reason,
        ply,
        None if seat is None else seat + 1,
        move,
        position=position,
    )


def adjudicate(record: GameRecord, *, make: GameMaker = make_game) -> Verdict:
    """Replay ``record`` under its game's rules and options and check its result.

    ``make`` builds the game from the ``Game`` and ``Options`` tags (tests pass their own).
    Never raises for a well-formed record whose game follows the core contract.
    """
    try:
        game = make(record.game, record.options)
    except RulesError as exc:
        return _invalid(str(exc))
    if record.rules_version != game.version:
        return _invalid(
            f"recorded under {game.name} rules version {record.rules_version!r}; "
            f"this referee has version {game.version!r}"
        )
    players = record.players
    start = record.start
    try:
        state = game.initial_state(players) if start is None else game.decode(start)
    except RulesError as exc:
        return _invalid(str(exc))
    if state.num_players != players:
        return _invalid(f"the Start position has {state.num_players} seats, not {players}")
    adjudicator: ScoreAdjudicator | None = None
    settings = record.tag(TAG)
    if settings is not None:
        try:
            adjudicator = ScoreAdjudicator(ScoreRules.from_tag(settings), players)
        except ValueError as exc:
            return _invalid(str(exc))
    try:
        audit = ClockAudit.of_tags(record.tag("TimeControl"), record.tag(MARGIN_TAG), players)
    except ValueError as exc:
        return _invalid(str(exc))
    decision: Decision | None = None
    early: Decision | None = None

    first = state.ply  # the plies before the movetext (an opening's), 0 without Start
    for index, text in enumerate(record.move_texts):
        ply = first + index + 1
        if decision is not None and early is None:
            early = decision  # the rule ended the game, yet the record goes on
        seat = state.to_move
        if seat is None:
            reason = f"move {ply} {text!r}: the game is already over"
            return _illegal(ply, None, text, reason, game.render(state))
        if audit is not None:  # the referee charges the clock before it reads the move
            note = record.moves[index].note
            late = audit.observe(ply, seat, note.used, note.remaining)
            if late is not None:
                return _clock_dispute(game, record, state, ply, seat, text, late)
        try:
            move = game.parse_move(state, text)
        except RulesError as exc:
            reason = f"move {ply} {text!r} is unreadable: {exc}"
            return _illegal(ply, seat, text, reason, game.render(state))
        canonical = game.format_move(state, move)
        if canonical != text:
            reason = f"move {ply} {text!r} is not canonical (write {canonical!r})"
            return _illegal(ply, seat, text, reason, game.render(state))
        try:
            state = state.play(move)
        except IllegalMoveError as exc:
            reason = f"move {ply} {text!r} by seat {seat + 1} is illegal: {exc}"
            return _illegal(ply, seat, text, reason, game.render(state))
        if adjudicator is not None:
            score = record.moves[index].note.score
            decision = adjudicator.observe(seat, score)
    if adjudicator is not None:
        problem = _check_rule(record, state, early, decision, first)
        if problem is not None:
            return _check_result(game, record, state, problem=problem)
        if decision is not None and state.outcome() is None:
            return _check_result(game, record, state, adjudicated=decision)
    return _check_result(game, record, state)


def _clock_dispute(
    game: AnyGame,
    record: GameRecord,
    state: Any,
    ply: int,
    seat: int,
    move: str,
    problem: ClockProblem,
) -> Verdict:
    """``wrong-result`` at ``ply`` for a clock ``problem``: the correct result is the
    mover's time forfeit there when the move was late, unknown when a time left is wrong."""
    timeout = forfeit_outcome(game, state, Termination.TIMEOUT, seat) if problem.late else None
    return Verdict(
        VerdictKind.WRONG_RESULT,
        problem.reason,
        ply,
        seat + 1,
        move,
        claimed=record.result,
        correct=result_text(game, timeout) if timeout is not None else None,
        position=game.render(state),
    )


def _check_rule(
    record: GameRecord, state: Any, early: Decision | None, last: Decision | None, first: int
) -> str | None:
    """What is wrong with the record under its score rules, or None (``first``: the
    plies before the movetext, so that plies count from the game's initial position)."""
    if early is not None:
        return (
            f"the {TAG} rule ends the game after ply {first + early.ply}, but the record goes on:"
            f" {early.reason}"
        )
    termination = record.termination
    if last is not None and state.outcome() is None and termination is not Termination.ADJUDICATION:
        return f"the {TAG} rule ends the game here, but Termination is {termination.value!r}"
    if last is None and termination is Termination.ADJUDICATION:
        return (
            f"the recorded scores do not justify the adjudication under {TAG} {record.tag(TAG)!r}"
        )
    return None


def _expected(game: AnyGame, record: GameRecord, state: Any) -> tuple[Outcome | None, str | None]:
    """The outcome the final ``state`` and the record's termination justify, or a problem."""
    termination = record.termination
    culprit = record.culprit_seat
    over = state.outcome()
    if over is not None:
        if termination is not Termination.RULES:
            return over, f"the game is over by the rules, but Termination is {termination.value!r}"
        if culprit is not None:
            return over, "Culprit tag on a game that ended by the rules"
        return over, None
    if termination is Termination.RULES:
        return None, "Termination is 'rules', but the final position is not over"
    forfeit = termination.is_forfeit or (
        termination is Termination.ADJUDICATION and culprit is not None
    )
    if termination is Termination.VOID:  # a Culprit may name the seat that failed to start
        return None, None
    if not forfeit:
        if culprit is not None:
            return None, f"Culprit tag with Termination {termination.value!r}"
        return unfinished_outcome(game, state, termination), None
    if culprit is None:
        return None, f"Termination {termination.value!r} needs a Culprit tag"
    expected = forfeit_outcome(game, state, termination, culprit)
    to_move = state.to_move
    if termination in (Termination.ILLEGAL_MOVE, Termination.TIMEOUT) and culprit != to_move:
        return expected, (
            f"Culprit is seat {culprit + 1}, but seat {to_move + 1} was to move "
            f"at the {termination.value}"
        )
    return expected, None


def _check_result(
    game: AnyGame,
    record: GameRecord,
    state: Any,
    *,
    problem: str | None = None,
    adjudicated: Decision | None = None,
) -> Verdict:
    """The verdict on the result; ``adjudicated``: the score rule's decision that ended it."""
    claimed = record.result
    if adjudicated is not None:
        expected: Outcome | None = adjudicated_outcome(game, state, adjudicated)
        if record.culprit_seat != adjudicated.loser:
            want = "no Culprit" if adjudicated.loser is None else f"Culprit {adjudicated.loser + 1}"
            problem = f"the adjudication needs {want}: {adjudicated.reason}"
    elif problem is None:
        expected, problem = _expected(game, record, state)
    else:
        expected = _expected(game, record, state)[0]
    correct = result_text(game, expected)

    def wrong(reason: str) -> Verdict:
        return Verdict(
            VerdictKind.WRONG_RESULT,
            reason,
            claimed=claimed,
            correct=correct,
            position=game.render(state),
        )

    if problem is not None:
        return wrong(problem)
    if parse_result(claimed) != parse_result(correct):
        why = "" if expected is None or not expected.reason else f" ({expected.reason})"
        return wrong(f"Result is {claimed!r}, but the correct result is {correct!r}{why}")
    scores = () if expected is None else expected.scores
    score = record.score
    if score is not None and score != tuple(float(s) for s in scores):
        wanted = ",".join(format_number(s) for s in scores) if scores else "no Score tag"
        return wrong(f"Score is {record.tag('Score')!r}, but the correct score is {wanted!r}")
    return Verdict(VerdictKind.CONFIRMED, "confirmed", claimed=claimed, correct=correct)


def verdict_to_json(index: int, verdict: Verdict) -> dict[str, object]:
    """One verdict as a JSON object; ``index`` is the game's 1-based place in its file."""
    return {
        "index": index,
        "verdict": verdict.verdict.value,
        "ply": verdict.ply,
        "seat": verdict.seat,
        "move": verdict.move,
        "reason": verdict.reason,
        "claimed": verdict.claimed,
        "correct": verdict.correct,
    }


DIAGRAM_INDENT = "    "
"""The indent of the position diagram under a verdict line."""


def format_verdict(index: int, verdict: Verdict) -> str:
    """For humans: ``game 3: illegal-move at ply 12 (seat 2, 'e3'): …``, then, for a
    dispute, the diagram of the position at the dispute (``Verdict.position``), each line
    indented by ``DIAGRAM_INDENT``. A confirmed game is the one line ``game 1: confirmed``."""
    where = ""
    if verdict.ply is not None:
        seat = "" if verdict.seat is None else f"seat {verdict.seat}, "
        where = f" at ply {verdict.ply} ({seat}{verdict.move!r})"
    if verdict.confirmed:
        return f"game {index}: confirmed"
    line = f"game {index}: {verdict.verdict.value}{where}: {verdict.reason}"
    if not verdict.position:
        return line
    diagram = "\n".join((DIAGRAM_INDENT + row).rstrip() for row in verdict.position.splitlines())
    return f"{line}\n{diagram}"
