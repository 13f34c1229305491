"""The coverage steps of ``check-engine``, run against real processes of one engine.

Each step starts a fresh process of the engine (a fault of one step never hides the
next), asks what ``scenarios`` found, and checks every answer with the rules: a move
must be legal in the position sent. A step fails on the first wrong answer, naming the
request and the reply (``sent position state … / go movetime 100; got move e3: …``), or
on any engine failure (its message carries the engine's last words). An ``error``
answer to ``newgame`` is a refusal, not a failure: the engine does not play that (SPEC
§3), and a game it refuses is void, never forfeited; the step says what was refused.

Steps: two games in one process; every seat of every player count from the start;
``position state`` starts; rule options; the pie ``swap`` in the history; special moves
in the history (each game's fixed histories of ``histories``, whatever the seed, then
what random playouts met); an unknown command (``error`` expected, the engine alive after it); the
engine's own options at non-default values; real games against ``random``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import trio

from protocol.codec import format_command
from protocol.errors import EngineError, EngineRefusedError
from protocol.messages import ErrorReply, GameOver, Go, NewGame, OptionReply, Position
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from referee.clock import TimeControl
from referee.core import Game, State, Termination
from referee.errors import RulesError
from referee.match import play_game
from referee.players import EnginePlayer
from referee.registry import make_game
from tournaments.checks.coverage.scenarios import (
    Ask,
    GamePlan,
    game_plans,
    option_asks,
    seat_asks,
    special_asks,
    state_asks,
    swap_asks,
)
from tournaments.event.engines import resolve_engine

MOVETIME_MS = 100
"""Each request's ``go movetime``: the engine's own clock plays no part in these steps."""
GAMES_TC = "4+0.04"
"""The clock of the games against ``random`` (seconds plus seconds per move)."""
GAMES_MARGIN = 0.5
"""Their margin: a slow machine must not make a check fail on time."""
UNKNOWN_COMMAND = "frobnicate the-referee-checks-unknown-commands"
"""A command no version of the protocol will have."""
AROUND = 12
"""Transcript lines shown around a failure in a game."""
RESIGNED = "resigned"
"""``_one_game``'s answer when the checked engine resigned (allowed: no fault)."""
REFUSED = "refused"
"""``_one_game``'s answer when the checked engine refused the game (allowed: void)."""

StepResult = tuple[str, bool, str]
"""``(name, passed, detail)`` of one coverage step."""


@dataclass(frozen=True, slots=True)
class Coverage:
    """What the steps need: the engine, the game, the player counts, limits and seed."""

    game: str
    spec: EngineSpec
    counts: tuple[int, ...]
    """Player counts to check, the game's (or the one asked for)."""
    timeout: float
    """Seconds for each reply."""
    seed: int
    games: int
    """Games against ``random`` in the last step."""


def _shown_position(position: Position) -> str:
    """The ``position`` line, its middle cut when long (start and latest moves kept)."""
    line = format_command(position)
    return line if len(line) <= 160 else f"{line[:90]} ... {line[-60:]}"


def _why_illegal(game: Game[Any, Any], state: State[Any], text: str | None) -> str | None:
    """None if ``text`` is a legal move in ``state``, else why not."""
    if text is None:
        return "it resigned, in a position with legal moves"
    try:
        state.play(game.parse_move(state, text))
    except RulesError as error:
        return f"not legal here: {error}"
    return None


class _Asker:
    """Asks one ``Ask`` at a time through a session; remembers refusals."""

    def __init__(self, session: EngineSession, coverage: Coverage) -> None:
        self.session = session
        self.coverage = coverage
        self.asked = 0
        self.refused: list[str] = []

    async def ask(self, ask: Ask) -> str | None:
        """None if the engine answered ``ask`` with a legal move (or refused the game),
        else what went wrong, led by the ask's label: with what was sent and received, or
        how the engine failed (an ``EngineError``, after which the session is not asked
        again: every caller stops at the first problem)."""
        try:
            return await self._ask(ask)
        except EngineError as error:
            return f"{ask.label}: {error}"

    async def _ask(self, ask: Ask) -> str | None:
        """``ask``'s answer checked. :raises EngineError: the engine failed."""
        game = ask.make_game()
        state = ask.state(game)
        seat = state.to_move
        assert seat is not None  # scenarios never ask in a finished game
        newgame = NewGame(
            game.name, ask.players, seat + 1, self.coverage.seed, tuple(game.options.items())
        )
        timeout = self.coverage.timeout
        try:
            await self.session.new_game(newgame, timeout=timeout)
        except EngineRefusedError as error:
            self.refused.append(f"{ask.label} ({error})")
            return None
        position, go = Position(ask.moves, ask.start), Go(movetime=MOVETIME_MS)
        answer = await self.session.request_move(
            position, go, deadline=trio.current_time() + timeout
        )
        await self.session.notify(GameOver("*", "adjudication", "compliance check"))
        self.asked += 1
        why = _why_illegal(game, state, answer.move)
        if why is None:
            return None
        got = "resign" if answer.move is None else f"move {answer.move}"
        return (
            f"{ask.label}: sent {format_command(newgame)!r}, {_shown_position(position)!r}, "
            f"{format_command(go)!r}; got {got!r}: {why}"
        )

    def summary(self, what: str) -> str:
        text = f"{self.asked} {what} answered with legal moves"
        if self.refused:
            text += f"; refused {len(self.refused)} (void, not a forfeit): {self.refused[0]}"
            if len(self.refused) > 1:
                text += f" and {len(self.refused) - 1} more"
        return text


@contextlib.asynccontextmanager
async def _fresh(coverage: Coverage) -> AsyncIterator[EngineSession]:
    async with EngineSession.open(
        coverage.spec, start_timeout=coverage.timeout, quit_grace=coverage.timeout
    ) as session:
        yield session


async def _ask_all(coverage: Coverage, asks: Sequence[Ask], what: str) -> tuple[bool, str]:
    """Ask every one of ``asks`` in one process; fail at the first wrong answer."""
    if not asks:
        return True, f"nothing to ask: no {what} in this game"
    async with _fresh(coverage) as session:
        asker = _Asker(session, coverage)
        refused_counts: set[int] = set()
        for ask in asks:
            if ask.players in refused_counts:
                continue
            before = len(asker.refused)
            problem = await asker.ask(ask)
            if problem is not None:
                return False, problem
            if len(asker.refused) > before and not ask.options and not ask.moves:
                refused_counts.add(ask.players)  # the engine does not play this many seats
        if asker.asked == 0:
            return False, f"every request was refused: {asker.refused[0]}"
        return True, asker.summary(what)


async def _two_games(coverage: Coverage) -> tuple[bool, str]:
    """A game, ``gameover``, then a second ``newgame`` (another seat, other options) in the
    same process: the second game's requests must be answered as a fresh engine would."""
    players = coverage.counts[0]
    first = seat_asks(coverage.game, (players,), coverage.seed)
    second = option_asks(coverage.game, (players,), coverage.seed)
    asks = [*first[:1], *(second[1:2] or first[1:2]), *first[1:2]]
    if len(asks) < 2:
        return True, "nothing to ask"
    async with _fresh(coverage) as session:
        asker = _Asker(session, coverage)
        for number, ask in enumerate(asks, start=1):
            problem = await asker.ask(ask)
            if problem is not None:
                return False, f"game {number} in the same process: {problem}"
        return True, f"{len(asks)} games in one process, each answered with a legal move"


async def _unknown_command(coverage: Coverage) -> tuple[bool, str]:
    async with _fresh(coverage) as session:
        try:
            replies = await session.probe(UNKNOWN_COMMAND, timeout=coverage.timeout)
        except EngineError as error:
            return False, f"sent {UNKNOWN_COMMAND!r} and a ping: {error}"
        errors = [r for r in replies if isinstance(r, ErrorReply)]
        if not errors:
            got = ", ".join(type(r).__name__ for r in replies) or "nothing"
            return False, (
                f"sent {UNKNOWN_COMMAND!r}: expected 'error <text>' (SPEC §5), got {got} "
                "before the pong"
            )
        # The pong came after the error: the engine read on.
        return True, f"answered 'error {errors[0].text}', then pong"


def _other_value(option: OptionReply) -> str | None:
    """A value of ``option`` other than its default, or None (a ``string``: no value is
    known to be valid)."""
    if option.type == "check":
        return "false" if option.default == "true" else "true"
    if option.type == "combo":
        return next((c for c in option.choices if c != option.default), None)
    if option.type == "spin":
        for value in (option.minimum, option.maximum):
            if value is not None and str(value) != option.default:
                return str(value)
        return str(int(option.default) + 1) if option.default.lstrip("-").isdigit() else None
    return None


async def _engine_options(coverage: Coverage) -> tuple[bool, str]:
    async with _fresh(coverage) as session:
        pairs = [(o.name, v) for o in session.engine_options if (v := _other_value(o)) is not None]
        kept = [o.name for o in session.engine_options if _other_value(o) is None]
        if not pairs:
            note = f" (kept: {', '.join(kept)})" if kept else ""
            return True, f"no option with a non-default value to try{note}"
        shown = ", ".join(f"{k}={v}" for k, v in pairs)
        try:
            await session.set_options(pairs, timeout=coverage.timeout)
        except EngineError as error:
            return False, f"setoption {shown}: {error}"
        asker = _Asker(session, coverage)
        asks = [*seat_asks(coverage.game, coverage.counts[:1], coverage.seed)[:1]]
        asks += state_asks(coverage.game, coverage.counts[:1], coverage.seed)[:1]
        for ask in asks:
            problem = await asker.ask(ask)
            if problem is not None:
                return False, f"with {shown}: {problem}"
        note = f"; strings kept at their defaults: {', '.join(kept)}" if kept else ""
        return True, f"set {shown}, then played legal moves{note}"


async def _games(coverage: Coverage) -> tuple[bool, str]:
    """Real games against ``random``: every seat in turn, random options and openings."""
    plans = game_plans(coverage.game, coverage.counts, coverage.games, coverage.seed)
    if not plans:
        return True, "no games asked for"
    tc = TimeControl.parse(GAMES_TC, margin=GAMES_MARGIN)
    ended: list[Transcript] = []
    warnings: list[str] = []
    resigned = refused = 0
    async with contextlib.AsyncExitStack() as stack:
        engine = await stack.enter_async_context(
            EnginePlayer.open(
                coverage.spec, start_timeout=coverage.timeout, on_transcript=ended.append
            )
        )
        randoms = [
            await stack.enter_async_context(
                EnginePlayer.open(resolve_engine("random"), start_timeout=coverage.timeout)
            )
            for _ in range(max(coverage.counts) - 1)
        ]
        for number, plan in enumerate(plans, start=1):
            problem = await _one_game(coverage, plan, engine, randoms, tc, ended)
            if problem is None:
                continue
            if problem == RESIGNED:
                resigned += 1
                continue
            if problem == REFUSED:
                refused += 1
                continue
            if problem.startswith("warning: "):
                warnings.append(f"game {number}: {problem[9:]}")
                continue
            return False, f"game {number} of {len(plans)}: {problem}"
    note = f"; it resigned {resigned}" if resigned else ""
    note += f"; it refused {refused} (void, not a forfeit)" if refused else ""
    note += f"; {'; '.join(warnings)}" if warnings else ""
    return True, f"{len(plans)} games without a protocol or notation fault{note}"


async def _one_game(
    coverage: Coverage,
    plan: GamePlan,
    engine: EnginePlayer,
    randoms: Sequence[EnginePlayer],
    tc: TimeControl,
    ended: list[Transcript],
) -> str | None:
    """None if the checked engine did not forfeit ``plan``'s game; ``RESIGNED`` if it
    resigned, ``REFUSED`` if it refused the game; else what happened, with its transcript
    lines around the end (``warning: …`` for a loss on time: the promise does not cover
    the clock)."""
    game = make_game(coverage.game, dict(plan.options))
    others = iter(randoms)
    table = [engine if seat == plan.seat else next(others) for seat in range(plan.players)]
    ended.clear()
    current = engine.transcript
    mark = current.mark if current is not None else 0
    result = await play_game(game, table, tc, seed=plan.seed, start=plan.start)
    outcome = result.outcome
    if outcome.culprit != plan.seat:
        return None
    if outcome.termination is Termination.RESIGNATION:
        return RESIGNED
    if outcome.termination is Termination.VOID and "refused the game:" in outcome.reason:
        # ``EngineSession.new_game``'s words for an ``error`` answer: a refusal is allowed
        # (the game is void, never forfeited), as in the other steps.
        return REFUSED
    where = (
        f"{plan.players} players, seat {plan.seat + 1}, options "
        f"{game.options_text()}, opening {' '.join(plan.opening) or '(none)'}"
    )
    if outcome.termination is Termination.TIMEOUT:
        return f"warning: lost on time ({where}): {outcome.reason}"
    lines: list[str] = []
    for transcript in [*ended, *([engine.transcript] if engine.transcript is not None else [])]:
        lines += transcript.lines_since(mark if transcript is current else 0)
    around = "\n      ".join(lines[-AROUND:])
    return (
        f"{outcome.termination.value} ({where}): {outcome.reason}\n    transcript:\n      {around}"
    )


STEPS: tuple[tuple[str, Callable[[Coverage], Awaitable[tuple[bool, str]]]], ...] = (
    ("two games in one process", _two_games),
    (
        "every seat from the start",
        lambda c: _ask_all(c, seat_asks(c.game, c.counts, c.seed), "seats"),
    ),
    (
        "position state starts",
        lambda c: _ask_all(c, state_asks(c.game, c.counts, c.seed), "position state starts"),
    ),
    (
        "rule options",
        lambda c: _ask_all(c, option_asks(c.game, c.counts, c.seed), "rule option settings"),
    ),
    (
        "pie swap in the history",
        lambda c: _ask_all(c, swap_asks(c.game, c.counts, c.seed), "pie swap"),
    ),
    (
        "special moves in the history",
        lambda c: _ask_all(c, special_asks(c.game, c.counts, c.seed), "special moves"),
    ),
    ("unknown command", _unknown_command),
    ("engine options", _engine_options),
    ("games against random", _games),
)
"""The coverage steps in order, each with its name (what a failure names)."""


async def coverage_steps(coverage: Coverage) -> list[StepResult]:
    """Run every step in order; never raises for the engine's faults."""
    results: list[StepResult] = []
    for name, step in STEPS:
        try:
            passed, detail = await step(coverage)
        except EngineError as error:
            passed, detail = False, str(error)
        results.append((name, passed, detail))
    return results
