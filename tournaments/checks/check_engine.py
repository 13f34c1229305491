"""``referee check-engine``: numbered protocol compliance steps for one engine.

Each step passes or fails with a reason; a failed step that makes the later ones
meaningless (no handshake, no game) marks them ``not run``. The engine plays
seat 1; every move it sends is checked by the referee's own rules.

Steps: 1 handshake, 2 options, 3 newgame, 4 a move from the start, 5 a move in a
later position, 6 search limits and info (a search under the node and depth limits the
engine declared, ``feature nodes``/``depth``; and what its ``info`` lines carried in
steps 4 to 6: structured items seen, malformed ones as a warning, never a failure, as
in a game), 7 ping during a search, 8 gameover (then still responsive), 9 quit (the
process exits by itself).

With ``coverage=True`` (the command line's default) the steps of
``tournaments.checks.coverage.steps`` follow, numbered on from 10, each in a fresh
process: what real games send (every seat and player count, ``position state``
starts, every rule option, the pie ``swap`` and special moves in the history, an
unknown command, the engine's own options, two games in one process), then real games
against ``random``. An engine that passes them all does not forfeit a game of this game
for a protocol or notation reason.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import trio

from protocol.errors import EngineError
from protocol.messages import GameOver, Go, NewGame, Position, Quit
from protocol.search_info import KEYS, NO_SEARCH, SearchInfo, parse_info
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from referee.core import Game, State
from referee.errors import RulesError

STEPS = (
    "handshake",
    "options",
    "newgame",
    "move from the start",
    "move in a later position",
    "search limits and info",
    "ping during search",
    "gameover",
    "quit",
)


@dataclass(frozen=True, slots=True)
class StepResult:
    """One compliance step."""

    number: int
    name: str
    passed: bool | None
    """True passed, False failed, None not run."""
    detail: str


def _later_position(game: Game[Any, Any], players: int, seed: int) -> tuple[State[Any], list[str]]:
    """A seeded random position a few turns in where seat 1 is to move."""
    rng = random.Random(seed)
    for _ in range(100):
        state: State[Any] = game.initial_state(players)
        texts: list[str] = []
        while state.to_move is not None and len(texts) < 8 * players:
            if state.to_move == 0 and len(texts) >= 2 * players:
                return state, texts
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            texts.append(game.format_move(state, move))
            state = state.play(move)
    return game.initial_state(players), []


LIMIT_NODES = 500
LIMIT_DEPTH = 2
"""The limits of step 6's search (each only if the engine declared it)."""
_ITEMS = ("depth", "seldepth", "nodes", "nps", "time", "score", "pv", "string")


def _info_summary(searches: list[SearchInfo]) -> str:
    """What the ``info`` lines of the move steps carried (step 6's second half)."""
    seen = [key for key in _ITEMS if any(getattr(s, key) is not None for s in searches)]
    rejected = [item for search in searches for item in search.rejected]
    text = f"info items {' '.join(seen)}" if seen else "no structured info"
    if rejected:
        first = rejected[0]
        text += (
            f"; warning: {len(rejected)} malformed item(s) kept as text, the first "
            f"{first.text!r}: {first.reason}"
        )
    return text


def _structured(texts: tuple[str, ...]) -> list[SearchInfo]:
    """The ``info`` texts with structured items, parsed (free-text ones left out, as the
    session leaves them: their first word is no item key)."""
    parsed = []
    for text in texts:
        words = text.split(None, 1)
        if words and words[0] in KEYS:
            parsed.append(parse_info(text))
    return parsed


def _check_move(game: Game[Any, Any], state: State[Any], text: str | None) -> str | None:
    """None if ``text`` is a legal move in ``state``, else why not."""
    if text is None:
        return "the engine resigned"
    try:
        state.play(game.parse_move(state, text))
    except RulesError as error:
        return f"illegal move {text!r}: {error}"
    return None


async def check_engine(
    game: Game[Any, Any],
    spec: EngineSpec,
    *,
    players: int,
    step_timeout: float = 10.0,
    seed: int = 1,
    coverage: bool = False,
    counts: tuple[int, ...] = (),
    games: int = 4,
) -> list[StepResult]:
    """Run every step against a fresh process of ``spec``; never raises for the engine's faults.

    With ``coverage``, the coverage steps follow (player counts ``counts``, default
    ``players`` only; ``games`` games against ``random``), unless the engine failed the
    handshake.
    """
    results = await _basic_steps(game, spec, players=players, step_timeout=step_timeout, seed=seed)
    if coverage and results[0].passed:
        # Read here: ``--quick`` runs the nine steps alone and needs no game driver.
        from tournaments.checks.coverage.steps import Coverage, coverage_steps

        found = await coverage_steps(
            Coverage(game.name, spec, counts or (players,), step_timeout, seed, games)
        )
        for name, passed, detail in found:
            results.append(StepResult(len(results) + 1, name, passed, detail))
    return results


async def _basic_steps(
    game: Game[Any, Any],
    spec: EngineSpec,
    *,
    players: int,
    step_timeout: float,
    seed: int,
) -> list[StepResult]:
    """Steps 1 to 9 in one process."""
    results: list[StepResult] = []

    def record(passed: bool | None, detail: str) -> None:
        number = len(results) + 1
        results.append(StepResult(number, STEPS[number - 1], passed, detail))

    def skip_rest(why: str) -> list[StepResult]:
        while len(results) < len(STEPS):
            record(None, f"not run: {why}")
        return results

    timeout = step_timeout
    go = Go(times=(60_000,) * players, incs=(0,) * players)
    try:
        async with EngineSession.open(spec, start_timeout=timeout, quit_grace=timeout) as session:
            name = session.engine_id.get("name", "(no name)")
            author = session.engine_id.get("author", "(no author)")
            record(True, f"id name {name}, id author {author}")

            try:
                defaults = [(o.name, o.default) for o in session.engine_options]
                await session.set_options(defaults, timeout=timeout)
                record(True, f"{len(defaults)} option(s) declared and set to their defaults")
            except EngineError as error:
                record(False, str(error))

            try:
                await session.new_game(
                    NewGame(game.name, players, 1, seed, tuple(game.options.items())),
                    timeout=timeout,
                )
                record(True, f"accepted {game.name} {game.options_text()}")
            except EngineError as error:
                record(False, str(error))
                return skip_rest("no game")

            start = game.initial_state(players)
            later, later_texts = _later_position(game, players, seed)

            searches: list[SearchInfo] = []
            """Each structured ``info`` line of the move steps, as parsed."""
            last: SearchInfo = NO_SEARCH

            async def move_step(
                state: State[Any], texts: list[str], request: Go = go
            ) -> tuple[bool, str]:
                nonlocal last
                answer = await session.request_move(
                    Position(tuple(texts)), request, deadline=trio.current_time() + timeout
                )
                searches.extend(_structured(answer.infos))
                last = answer.search
                why = _check_move(game, state, answer.move)
                return why is None, why or f"{answer.move} after {len(texts)} plies"

            async def limits_step() -> tuple[bool, str]:
                features = session.engine_features
                nodes = LIMIT_NODES if "nodes" in features else None
                depth = LIMIT_DEPTH if "depth" in features else None
                if nodes is None and depth is None:
                    return True, f"no search limits declared; {_info_summary(searches)}"
                limited = Go(go.times, go.incs, nodes=nodes, depth=depth)
                passed, detail = await move_step(start, [], limited)
                got = last
                asked = " ".join(
                    f"{key} {value}" for key, value in (("nodes", nodes), ("depth", depth)) if value
                )
                reported = ", ".join(
                    f"{key} {value} reported"
                    for key, value in (("nodes", got.nodes), ("depth", got.depth))
                    if value is not None
                )
                detail = f"go {asked}: {detail}" + (f" ({reported})" if reported else "")
                return passed, f"{detail}; {_info_summary(searches)}"

            async def ping_step() -> tuple[bool, str]:
                answer, pong_first = await session.request_move_with_ping(
                    Position(()), go, deadline=trio.current_time() + timeout
                )
                why = _check_move(game, start, answer.move)
                when = "before" if pong_first else "after"
                return why is None, why or f"pong {when} the move {answer.move}"

            async def gameover_step() -> tuple[bool, str]:
                await session.notify(GameOver("*", "adjudication", "compliance check"))
                rtt = await session.ping(timeout)
                return True, f"still answers ping after gameover ({1000 * rtt:.1f} ms)"

            steps: tuple[Callable[[], Awaitable[tuple[bool, str]]], ...] = (
                lambda: move_step(start, []),
                lambda: move_step(later, later_texts),
                limits_step,
                ping_step,
                gameover_step,
            )
            for step in steps:
                try:
                    passed, detail = await step()
                    record(passed, detail)
                except EngineError as error:
                    record(False, str(error))
                    if not session.alive:
                        return skip_rest("the engine is gone")
                    # Its replies can no longer be matched to commands: go straight to quit.
                    failed = len(results)
                    while len(results) < len(STEPS) - 1:
                        record(None, f"not run: step {failed} broke the conversation")
                    break

            try:
                await session.send(Quit())
                code = await session.wait_exit(timeout)
                if code is None:
                    record(False, f"still running {timeout:g}s after quit")
                else:
                    record(code == 0, f"exited with status {code}")
            except EngineError as error:
                record(False, str(error))
    except EngineError as error:
        if not results:
            record(False, str(error))
        skip_rest("no handshake")
    return results
