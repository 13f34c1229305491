"""Without a kept sandbox, a sandboxed engine's next sandbox is started ahead of its game:
it waits set up, with its engine not started, and the game that takes it starts a fresh
engine in scratch nobody has used, under the same limits; unused, it ends with the
player, and it dies with a killed referee (skipped, with the reason, where bwrap cannot
run). The kept sandbox is turned off here (``no_kept_sandbox``); it has its tests in
``test_sandbox_kept``."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from protocol.errors import EngineStartError
from protocol.messages import GameOver
from protocol.sandbox import SandboxSettings
from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import play_game
from referee.players import EnginePlayer, GameSetup
from referee.registry import make_game
from tests.hostile import ENGINE, ROOT, hostile_argv, processes_mentioning
from tests.procs import left_by_killed_referee, processes, ready_holder


@pytest.fixture(autouse=True)
def no_kept_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sandbox per game, as where no kept sandbox can be had (``protocol.keeper``)."""
    monkeypatch.setattr("referee.players.keeper_available", lambda spec: False)


GAME = make_game("trike", {"size": "7"})
TC = TimeControl.parse("10+0")
RANDOM = (sys.executable, "-m", "bots", "random")
SETUP = GameSetup(game="trike", options=(("size", "7"),), players=2, seat=0, seed=1)
"""A game for a player driven by hand (``start_game``, ``game_over``)."""


def leftovers_engine(marker: str) -> EngineSpec:
    """A sandboxed engine that reports what earlier engines left in its scratch, with
    ``marker`` on its command line (to find its processes)."""
    return EngineSpec("boxed", hostile_argv("leftovers", marker), sandbox=SandboxSettings())


def census(marker: str) -> tuple[int, int]:
    """(engines, wardens) alive whose command line holds ``marker``."""
    engines = wardens = 0
    for proc in processes():
        if marker not in proc.cmdline or proc.state == "Z":
            continue
        if proc.cmdline.startswith(f"{sys.executable} {ENGINE} "):
            engines += 1
        elif proc.cmdline.startswith(("/warden ", f"{sys.executable} -I -S ")):
            wardens += 1
    return engines, wardens


async def wait_until(check: Callable[[], bool], seconds: float = 30.0) -> None:
    with trio.fail_after(seconds):
        while not check():  # noqa: ASYNC110 (no event to wait on: we poll /proc)
            await trio.sleep(0.05)


async def test_the_next_sandbox_waits_set_up_and_its_engine_starts_with_its_game(
    bwrap: None, warden: str, tmp_path: Path
) -> None:
    marker = str(tmp_path)
    spec = leftovers_engine(marker)
    async with EnginePlayer.open(spec) as player:
        assert player.prestart
        await player.start_game(SETUP)
        # The game's engine in its sandbox, and a second sandbox waiting, its engine held.
        await wait_until(lambda: census(marker) == (1, 2))
        first = player.pids[-1]
        await player.game_over(GameOver("1-0", "test"))
        await player.start_game(SETUP)  # takes the waiting sandbox, and prepares the next
        assert player.pids[-1] != first and player.starts == 2
        await wait_until(lambda: census(marker) == (1, 2))
        transcript = player.transcript
        assert transcript is not None
        assert any("started ahead: engine let go" in line for line in transcript.lines())
    # Nothing left: the game's sandbox, nor the one that waited for a game that never came.
    assert processes_mentioning(marker) == []


async def test_a_game_that_gives_up_waiting_for_its_sandbox_leaves_nothing(
    bwrap: None, warden: str, tmp_path: Path
) -> None:
    marker = str(tmp_path)
    spec = leftovers_engine(marker)
    with trio.fail_after(60):  # the block ends: no task waits for an abandoned sandbox
        async with EnginePlayer.open(spec) as player:
            await player.start_game(SETUP)
            await player.game_over(GameOver("1-0", "test"))
            with trio.CancelScope() as scope:
                scope.cancel()  # the next game is called off while it takes the spare
                await player.start_game(SETUP)
            assert player.starts == 1  # the abandoned engine never played
            await player.start_game(SETUP)  # a later game starts an engine all the same
            assert player.starts == 2
            assert player.transcript is not None
    assert processes_mentioning(marker) == []


async def test_every_game_a_fresh_engine_in_empty_scratch(
    bwrap: None, warden: str, tmp_path: Path
) -> None:
    ended: list[list[str]] = []
    spec = leftovers_engine(str(tmp_path))
    async with (
        EnginePlayer.open(EngineSpec("plain", RANDOM)) as plain,
        EnginePlayer.open(spec, on_transcript=lambda t: ended.append(t.lines())) as boxed,
    ):
        for seed in (1, 2, 3):
            result = await play_game(GAME, [plain, boxed], TC, seed=seed)
            assert result.outcome.culprit is None, result.outcome.reason
    # One transcript per game (the unused sandbox at the end leaves none), each an engine
    # that found nothing of the one before; the second and third were started ahead.
    assert len(ended) == 3
    found = [[line for line in lines if "hostile: leftovers:" in line] for lines in ended]
    assert all(len(lines) == 1 and lines[0].endswith("leftovers: none") for lines in found), found
    ahead = ["started ahead: engine let go" in " ".join(lines) for lines in ended]
    assert ahead == [False, True, True]


async def test_limits_hold_in_a_sandbox_started_ahead(
    bwrap: None, warden: str, tmp_path: Path
) -> None:
    marker = str(tmp_path)
    spec = EngineSpec("bomb", hostile_argv("forkbomb", marker),
                      sandbox=SandboxSettings(max_processes=16))  # fmt: skip
    with trio.fail_after(120):
        async with (
            EnginePlayer.open(EngineSpec("plain", RANDOM)) as plain,
            EnginePlayer.open(spec) as bomb,
        ):
            reasons = []
            for seed in (1, 2):
                result = await play_game(GAME, [plain, bomb], TC, seed=seed)
                assert result.outcome.termination is Termination.CRASH, result.outcome
                reasons.append(result.outcome.reason)
            assert bomb.starts == 2
    assert all("process limit (16 processes and threads)" in r for r in reasons), reasons
    assert processes_mentioning(marker) == []


async def test_a_sandbox_started_ahead_that_cannot_run_its_engine_fails_its_game(
    bwrap: None, warden: str, tmp_path: Path
) -> None:
    spec = EngineSpec("ghost", (str(tmp_path / "no-such-engine"),), sandbox=SandboxSettings())
    async with EnginePlayer.open(spec) as player:
        for _ in range(2):  # the first sandbox started at once, the second ahead
            with pytest.raises(EngineStartError) as info:
                await player.start_game(SETUP)
            assert "sandbox: cannot run" in str(info.value), info.value


HOLDER = textwrap.dedent(
    """
    import sys, trio
    from protocol.sandbox import SandboxSettings
    from protocol.spec import EngineSpec
    from referee.players import EnginePlayer, GameSetup
    from tests.hostile import hostile_argv
    from tests.referee.test_sandbox_prestart import census

    async def main():
        spec = EngineSpec("held", hostile_argv("leftovers", sys.argv[1]),
                          sandbox=SandboxSettings())
        async with EnginePlayer.open(spec) as player:
            player.keep_sandbox = False  # a sandbox per game: the one ahead waits
            await player.start_game(GameSetup("trike", (("size", "7"),), 2, 0, 1))
            with trio.fail_after(30):
                while census(sys.argv[1]) != (1, 2):
                    await trio.sleep(0.05)
            print("ready", flush=True)
            await trio.sleep_forever()

    trio.run(main)
    """
)


def test_the_engine_and_the_waiting_sandbox_die_with_a_killed_referee(
    bwrap: None, warden: str, tmp_path: Path
) -> None:
    marker = str(tmp_path)
    with ready_holder(HOLDER, marker, str(ROOT)) as holder:
        assert census(marker) == (1, 2)
        assert left_by_killed_referee(holder, marker) == []
