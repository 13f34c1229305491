"""``restart`` (cutechess's ``restart=on``): an engine gets a fresh process for every game;
without it one process plays game after game."""

from __future__ import annotations

import sys

from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import play_game
from referee.players import EnginePlayer
from referee.registry import make_game


async def test_a_restarting_engine_gets_a_process_per_game_and_a_plain_one_is_reused() -> None:
    argv = (sys.executable, "-m", "bots", "random")
    game = make_game("trike", {"size": "7"})
    tc = TimeControl.parse("10+0")
    async with (
        EnginePlayer.open(EngineSpec("plain", argv)) as plain,
        EnginePlayer.open(EngineSpec("fresh", argv, restart=True)) as fresh,
    ):
        results = [
            await play_game(game, [plain, fresh], tc, seed=s, max_plies=4) for s in (1, 2, 3)
        ]
        assert plain.starts == 1
        assert fresh.starts == 3 and len(set(fresh.pids)) == 3
    for result in results:
        assert result.outcome.termination is not Termination.VOID, result.outcome.reason
        assert result.outcome.culprit is None, result.outcome.reason
