"""In-process players for tournament tests: the built-in bots' brains as ``LocalPlayer``s;
and a plan with the bots as real processes (``bots_plan``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

from bots.greedy_bot import GreedyBrain
from bots.position import PositionTracker
from bots.random_bot import RandomBrain
from protocol.errors import EngineStartError
from protocol.messages import GameOver, Go, NewGame, Position
from protocol.spec import EngineSpec
from referee.players import GameSetup, LocalPlayer, MoveRequest, Player, PlayerReply
from referee.registry import make_game
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.play.slot import PlayerFactory, TranscriptSink


def brain_player(name: str, brain: RandomBrain) -> LocalPlayer:
    """A ``LocalPlayer`` that asks ``brain`` as the engine loop would."""
    current: list[tuple[GameSetup, PositionTracker]] = []

    def choose(setup: GameSetup, request: MoveRequest) -> str | None:
        if not current or current[0][0] is not setup:
            game = make_game(setup.game, dict(setup.options))
            current[:] = [(setup, PositionTracker(game, setup.players))]
            refusal = brain.newgame(
                game,
                NewGame(setup.game, setup.players, setup.seat + 1, setup.seed, setup.options),
            )
            assert refusal is None, refusal
        tracker = current[0][1]
        tracker.update(Position(request.moves, request.start))
        assert tracker.problem is None, tracker.problem
        return brain.choose(tracker.state, Go(), lambda info: None)

    return LocalPlayer(name, choose)


def bot_factory(opened: list[str] | None = None) -> PlayerFactory:
    """Players for entrants whose command is ``random --seed S`` or ``greedy --seed S``
    (the seed is the last argument); records each opening in ``opened``."""

    def factory(spec: EngineSpec, sink: TranscriptSink) -> AbstractAsyncContextManager[Player]:
        kind = "greedy" if "greedy" in spec.argv else "random"
        seed = int(spec.argv[-1]) if spec.argv[-1].isdigit() else 0
        make: Callable[[int], RandomBrain] = GreedyBrain if kind == "greedy" else RandomBrain

        @contextlib.asynccontextmanager
        async def open_player() -> AsyncIterator[Player]:
            if opened is not None:
                opened.append(spec.name)
            yield brain_player(spec.name, make(seed))

        return open_player()

    return factory


def late_factory(stalls: int) -> PlayerFactory:
    """Players whose first ``stalls`` replies (over all players) arrive a second too late,
    with the referee stalled longer than that while they ran: the runner's fault."""
    inner = bot_factory()
    left = [stalls]

    def factory(spec: EngineSpec, sink: TranscriptSink) -> AbstractAsyncContextManager[Player]:
        @contextlib.asynccontextmanager
        async def open_player() -> AsyncIterator[Player]:
            async with inner(spec, sink) as player:
                original = player.choose_move

                async def choose_move(request: MoveRequest) -> PlayerReply:
                    reply = await original(request)
                    if left[0] <= 0:
                        return reply
                    left[0] -= 1
                    arrived = reply.sent_at + request.timeout + 1.0
                    return reply._replace(arrived_at=arrived, late=request.timeout + 1.5)

                player.choose_move = choose_move  # type: ignore[method-assign]
                yield player

        return open_player()

    return factory


StartHook = Callable[[EngineSpec, GameSetup], None]
"""Called with the entrant's spec and the game's setup as a game starts."""


class _Hooked:
    """``player`` with ``before`` called at each game's start, ahead of its own start."""

    def __init__(self, player: Player, spec: EngineSpec, before: StartHook) -> None:
        self.player = player
        self.name = player.name
        self.spec = spec
        self.before = before

    async def start_game(self, setup: GameSetup) -> None:
        self.before(self.spec, setup)
        await self.player.start_game(setup)

    async def choose_move(self, request: MoveRequest) -> PlayerReply:
        return await self.player.choose_move(request)

    async def game_over(self, over: GameOver) -> None:
        await self.player.game_over(over)


def hooked_factory(before: StartHook) -> PlayerFactory:
    """``bot_factory`` players that call ``before(spec, setup)`` as each game starts.

    What ``before`` raises is that start's failure: an ``EngineStartError`` voids the
    game, anything else stops the run (how the tests interrupt one at a chosen game).
    """
    inner = bot_factory()

    def factory(spec: EngineSpec, sink: TranscriptSink) -> AbstractAsyncContextManager[Player]:
        @contextlib.asynccontextmanager
        async def open_player() -> AsyncIterator[Player]:
            async with inner(spec, sink) as player:
                yield _Hooked(player, spec, before)

        return open_player()

    return factory


def failing_starts(failures: int) -> PlayerFactory:
    """``bot_factory`` players whose first ``failures`` game starts (over all players)
    fail with an ``EngineStartError`` (each a void game); later ones play."""
    left = [failures]

    def fail(spec: EngineSpec, setup: GameSetup) -> None:
        if left[0] > 0:
            left[0] -= 1
            raise EngineStartError(f"{spec.name}: cannot start")

    return hooked_factory(fail)


def bots_plan(games: int) -> Plan:
    """The plan of a Trike event of ``games`` games between the built-in random and
    greedy bots as real processes (their commands on this interpreter)."""
    entrants = [
        {"name": n, "command": f"{sys.executable} -m bots {n}"} for n in ("random", "greedy")
    ]
    config = parse_config(
        {"game": "trike", "games": games, "tc": "10+0.1", "entrants": entrants}, "test"
    )
    return Plan.from_config(config, "test")
