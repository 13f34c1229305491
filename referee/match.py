"""The referee loop: one game between N players, under the rules, the clock and the failure policy.

The referee trusts no claim. Results come from the rules (``State.outcome``), the
clock, the move cap, or the failure policy below — never from an engine.

Failure policy (one table; ``FAILURE_POLICY`` is the code of it, tested complete):

==========================  ===========================  ================================
what happened               before the first move request  after it
==========================  ===========================  ================================
engine cannot start /       void game, not scored          —
refuses ``newgame``
process exits / pipe        void game                      forfeit: ``crash``
closed (EngineTerminated)
no reply in time            void game                      forfeit: ``timeout`` (overrun ms)
(EngineTimeoutError)
bad line, ``error`` reply   void game                      forfeit: ``protocol-error``
(ProtocolViolation)
unparsable move text        —                              forfeit: ``illegal-move``
well-formed illegal move    —                              forfeit: ``illegal-move``
reply later than the        —                              forfeit: ``timeout`` (overrun ms),
clock allows (+ margin)                                     or ``void`` if the referee's own
                                                            lateness explains it (below)
``resign``                  —                              forfeit: ``resignation``
==========================  ===========================  ================================

An ``illegal-move`` reason quotes the move, its ply (counted from the game's initial
position, an opening's plies included) and why: the parse error for unparsable text, the
rule it breaks (``State.why_illegal``) for a well-formed one.

**Never blame an engine for the runner's fault.** Each answer carries the referee's own
lateness while it ran (``MoveAnswer.late``: the longest stall of the referee's event
loop, ``protocol.lag``), summed per seat over the game. A reply later than the clock
allows, when the seat's summed lateness is at least the overrun (without the
referee's stalls it would have been in time), voids the game (``RUNNER_LATE`` opens
the reason; no culprit) instead of forfeiting it: a tournament plays it again. A
timeout (``EngineTimeoutError``: the referee looked at the pipe at or after the
deadline and found no answer, so that move is the engine's) voids it when the seat's
lateness summed over its earlier moves is over the margin: the clock the engine was
given had been eaten by the referee.

A forfeit ends the game for every seat count: the culprit is ranked last, the
other seats are ranked among themselves by ``Game.score_unfinished`` (in a
2-player game the other seat simply wins).

With ``ScoreRules`` (``referee.score_rules``) the engines' reported scores may end
the game after a move (termination ``adjudication``); the rules of the game come
first, the move limit after.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from protocol.errors import (
    EngineError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolViolation,
)
from protocol.history import MoveHistory
from protocol.messages import GameOver, Go
from protocol.search_info import NO_SEARCH, SearchInfo, Shares
from referee.clock import Clock, TimeControl
from referee.core import DEFAULT_MAX_PLIES, Game, Outcome, State, Termination
from referee.errors import IllegalMoveError, InvalidMoveError
from referee.players import GameSetup, MoveRequest, Player, tell_game_over
from referee.results import (
    RUNNER_LATE,
    forfeit_outcome,
    result_text,
    runner_fault,
    unfinished_outcome,
)
from referee.score_rules import Decision, ScoreAdjudicator, ScoreRules, adjudicated_outcome

FAILURE_POLICY: dict[type[EngineError], Termination] = {
    EngineStartError: Termination.VOID,
    EngineTerminatedError: Termination.CRASH,
    EngineTimeoutError: Termination.TIMEOUT,
    ProtocolViolation: Termination.PROTOCOL_ERROR,
}
"""Termination of an engine failure after the first move request (before it: VOID)."""



def termination_of(error: EngineError) -> Termination:
    """The forfeit termination of ``error`` (most specific class in ``FAILURE_POLICY``)."""
    for cls in type(error).__mro__:
        if cls in FAILURE_POLICY:
            return FAILURE_POLICY[cls]
    return Termination.PROTOCOL_ERROR


class PlayedMove(NamedTuple):
    """One move of a finished game, with the referee's measurements.

    Immutable, as a frozen dataclass would be, and made once per ply: a ``NamedTuple``
    is several times cheaper to build (a frozen dataclass sets each field through
    ``object.__setattr__``)."""

    seat: int
    """0-based seat that played it."""
    text: str
    """Canonical move text."""
    elapsed: float
    """Seconds charged to the seat."""
    remaining: float | None
    """The seat's clock after the move (clock time controls only), seconds."""
    infos: tuple[str, ...]
    """The engine's ``info`` texts for this move."""
    sent_at: float
    """Clock reading when the request was written."""
    arrived_at: float
    """Clock reading when the reply arrived."""
    search: SearchInfo = NO_SEARCH
    """The engine's last reported search items (a score for another seat count dropped)."""
    late: float = 0.0
    """The referee's own lateness while the move ran (``MoveAnswer.late``), seconds."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """Everything a record or a tournament needs to know about one game."""

    outcome: Outcome
    moves: tuple[PlayedMove, ...]
    start: str | None
    """Encoded start position, or None for the initial position."""
    final_state: State[Any]

    @property
    def void(self) -> bool:
        """True when the game is not to be scored."""
        return self.outcome.termination is Termination.VOID

    @property
    def runner_fault(self) -> bool:
        """True when the game is void because the referee itself was late."""
        return runner_fault(self.outcome)


MoveHook = Callable[[int, PlayedMove], None]


def _void(reason: str, culprit: int | None) -> Outcome:
    return Outcome(Termination.VOID, (), (), culprit, reason)


def _who(seat: int, player: Player) -> str:
    """How a forfeit reason names the seat (built only when a game ends, not per ply)."""
    return f"seat {seat + 1} ({player.name})"


SHOWN_MOVE = 60
"""Characters of an illegal move's text a forfeit reason quotes (the transcript has all)."""


def _illegal(seat: int, player: Player, text: str, ply: int, error: Exception) -> str:
    """The reason of an illegal move: the move quoted, cut to ``SHOWN_MOVE`` characters
    (an engine may send a 64 KiB token: the reason, the console line and the record's
    ``Reason`` tag quoted it twice, whole), at ``ply``, and why."""
    why = str(error)
    if len(text) > SHOWN_MOVE:
        shown = repr(f"{text[:SHOWN_MOVE]}…")
        why = why.replace(repr(text), shown)
        shown += f" ({len(text):,} characters)"
    else:
        shown = repr(text)
    return f"{_who(seat, player)} plays illegal move {shown} at ply {ply}: {why}"


def _go(clock: Clock, seat: int) -> Go:
    tc = clock.control(seat)
    if tc.base is not None:
        if tc.moves is not None:
            return Go(clock.times_ms(), clock.incs_ms(), movestogo=clock.moves_to_go(seat))
        return Go(clock.times_ms(), clock.incs_ms())  # times, incs
    if tc.movetime is not None:
        return Go(movetime=int(tc.movetime * 1000))
    return Go()


def _search(search: SearchInfo, players: int) -> SearchInfo:
    """``search`` without a share list for another number of seats (SPEC.md §4.1)."""
    score = search.score
    if type(score) is Shares and len(score.values) != players:
        return SearchInfo(depth=search.depth, nodes=search.nodes, pv=search.pv)
    return search


async def play_game(
    game: Game[Any, Any],
    players: Sequence[Player],
    tc: TimeControl | Sequence[TimeControl],
    *,
    seed: int = 0,
    start: str | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    on_move: MoveHook | None = None,
    adjudication: ScoreRules | None = None,
) -> GameResult:
    """Play one game; ``players[i]`` sits in seat ``i``.

    ``tc``: every seat's time control, or one per seat (time odds).

    ``adjudication``: the score rules that may end the game early (None: never).

    Never raises for anything a player does: every failure becomes the outcome
    of the table above. Cancellation propagates (the caller decides what a
    cancelled game means).
    """
    num_players = len(players)
    state: State[Any] = game.decode(start) if start is not None else game.initial_state(num_players)
    options = tuple(game.options.items())
    moves: list[PlayedMove] = []
    history = MoveHistory()  # one shared list: a ply adds a move without copying the game

    for seat, player in enumerate(players):
        try:
            await player.start_game(GameSetup(game.name, options, num_players, seat, seed))
        except EngineError as error:
            failed = f"seat {seat + 1} ({player.name}) failed to start: "
            void = _void(failed + str(error), seat)
            return await _finish(game, players, state, void, moves, start, failed + error.brief)

    clock = Clock(tc, num_players)
    adjudicator = ScoreAdjudicator(adjudication, num_players) if adjudication else None
    decision: Decision | None = None
    late_total = [0.0] * num_players  # the referee's own lateness, per seat, this game
    told: str | None = None  # the gameover detail, when it differs from the outcome's reason
    while True:
        outcome = state.outcome()
        if outcome is not None:
            break
        if decision is not None:
            outcome = adjudicated_outcome(game, state, decision)
            break
        if state.ply >= max_plies:
            outcome = unfinished_outcome(game, state, reason=f"move limit of {max_plies} plies")
            break
        mover = state.to_move
        assert mover is not None  # outcome() is None, so someone is to move
        player = players[mover]
        request = MoveRequest(mover, start, history, _go(clock, mover), clock.deadline_after(mover))
        try:
            reply = await player.choose_move(request)
        except EngineError as error:
            # A timeout's own move cannot be the referee's fault (it looked at the pipe
            # after the deadline and found no answer: its stalls only gave more time),
            # but the clock the engine was given may have been eaten on earlier moves.
            margin = clock.control(mover).margin
            if isinstance(error, EngineTimeoutError) and late_total[mover] > margin:
                outcome = _void(
                    f"{RUNNER_LATE}: {_who(mover, player)} timed out, but the referee itself"
                    f" stalled {late_total[mover] * 1000:.0f} ms during its earlier moves"
                    f" (over the {margin * 1000:.0f} ms margin): void, to be played again",
                    None,
                )
                break
            termination = termination_of(error)
            if termination is Termination.VOID:
                termination = Termination.CRASH
            reason = f"{_who(mover, player)}: {error}"
            outcome = forfeit_outcome(game, state, termination, mover, reason)
            told = f"{_who(mover, player)}: {error.brief}"
            break
        if reply.move is None:
            outcome = forfeit_outcome(
                game, state, Termination.RESIGNATION, mover, f"{_who(mover, player)} resigns"
            )
            break
        elapsed = reply.elapsed
        if reply.late:
            late_total[mover] += reply.late
        charge = clock.charge(mover, elapsed)
        if charge.overrun > 0:
            over = round(charge.overrun * 1000)
            if late_total[mover] >= charge.overrun:
                outcome = _void(
                    f"{RUNNER_LATE}: {_who(mover, player)} went {over} ms over its time,"
                    f" but the referee itself stalled {late_total[mover] * 1000:.0f} ms"
                    " during its moves: void, to be played again",
                    None,
                )
            else:
                outcome = forfeit_outcome(
                    game,
                    state,
                    Termination.TIMEOUT,
                    mover,
                    f"{_who(mover, player)} loses on time ({over} ms over)",
                )
            break
        try:
            move = game.parse_move(state, reply.move)
            state = state.play(move)
        except (InvalidMoveError, IllegalMoveError) as error:
            outcome = forfeit_outcome(
                game,
                state,
                Termination.ILLEGAL_MOVE,
                mover,
                # ``state.ply + 1``: counted from the game's initial position, an opening's
                # plies included, as ``referee show --ply`` and ``referee adjudicate`` count.
                _illegal(mover, player, reply.move, state.ply + 1, error),
            )
            break
        text = reply.move  # parse_move accepts canonical text only, so this is canonical
        search = reply.search
        if search is not NO_SEARCH:
            search = _search(search, num_players)
        played = PlayedMove(
            mover,
            text,
            elapsed,
            charge.remaining if clock.counts_time(mover) else None,
            reply.infos,
            reply.sent_at,
            reply.arrived_at,
            search,
            reply.late,
        )
        if adjudicator is not None:
            decision = adjudicator.observe(mover, search.score)
        moves.append(played)
        history = history.appended(text)
        if on_move is not None:
            on_move(len(moves), played)
    return await _finish(game, players, state, outcome, moves, start, told)


async def _finish(
    game: Game[Any, Any],
    players: Sequence[Player],
    state: State[Any],
    outcome: Outcome,
    moves: list[PlayedMove],
    start: str | None,
    told: str | None = None,
) -> GameResult:
    """Tell every player the game is over and return the result. ``told``: the detail
    the players get when it is not the outcome's reason (an engine failure's reason
    without the failed engine's stderr)."""
    notice = GameOver(
        result=result_text(game, outcome),
        reason=outcome.termination.value,
        detail=outcome.reason if told is None else told,
    )
    await tell_game_over(players, notice)
    return GameResult(outcome, tuple(moves), start, state)
