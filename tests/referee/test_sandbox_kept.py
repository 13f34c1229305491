"""A kept sandbox (``protocol.keeper``): one bubblewrap sandbox per player, and in it a
fresh game each time: a fresh process in a PID namespace of its own, empty scratch, no
System V object, keyring key or process of an earlier game, no capability; the same
limits and verdicts as a sandbox of its own; a game cut off ends whole; a kept sandbox
that breaks or does not come up leaves the games to a sandbox each, and says so; and
everything dies with a killed referee (skipped, with the reason, where bwrap cannot
run)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from protocol.errors import EngineStartError
from protocol.keeper import Keeper
from protocol.keeper import available as keeper_available
from protocol.sandbox import SandboxSettings
from protocol.sandbox.kept import KeeperGone
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import play_game
from referee.players import EnginePlayer, GameSetup
from referee.registry import make_game
from tests.hostile import ENGINE, ROOT, hostile_argv, processes_mentioning
from tests.procs import left_by_killed_referee, ready_holder

GAME = make_game("trike", {"size": "7"})
TC = TimeControl.parse("10+0")
RANDOM = (sys.executable, "-m", "bots", "random")


@pytest.fixture
def kept(bwrap: None) -> None:
    """Skip where no kept sandbox can be had (no C compiler for the compiled warden)."""
    if not keeper_available(EngineSpec("probe", RANDOM, sandbox=SandboxSettings())):
        pytest.skip("no kept sandbox here: the compiled warden cannot be built")


def hostile(attack: str, marker: str, max_processes: int = 64) -> EngineSpec:
    sandbox = SandboxSettings(max_processes=max_processes)
    return EngineSpec(attack, hostile_argv(attack, marker), sandbox=sandbox)


async def games(spec: EngineSpec, count: int) -> tuple[list[list[str]], EnginePlayer, list[str]]:
    """Play ``count`` games of ``spec`` against a plain random bot: each game's
    transcript lines, the player (after its block), and each game's reason."""
    ended: list[list[str]] = []
    reasons = []
    async with (
        EnginePlayer.open(EngineSpec("plain", RANDOM)) as plain,
        EnginePlayer.open(spec, on_transcript=lambda t: ended.append(t.lines())) as boxed,
    ):
        for seed in range(1, count + 1):
            result = await play_game(GAME, [plain, boxed], TC, seed=seed)
            reasons.append(result.outcome.reason)
        assert boxed._keeper is not None and boxed._keeper.games == count
    return ended, boxed, reasons


def said(lines: list[str], what: str) -> list[str]:
    """What the hostile engine said of ``what`` in a transcript."""
    prefix = f"hostile: {what}: "
    return [line.split(prefix, 1)[1] for line in lines if prefix in line]


async def test_every_game_a_fresh_process_with_empty_scratch(kept: None, tmp_path: Path) -> None:
    ended, boxed, _ = await games(hostile("leftovers", str(tmp_path)), 3)
    assert [said(lines, "leftovers") for lines in ended] == [["none"]] * 3
    assert len(set(boxed.pids)) == 1 and boxed.starts == 3  # one kept sandbox, three games
    assert all("(in its kept bwrap sandbox)" in " ".join(lines) for lines in ended)
    assert processes_mentioning(str(tmp_path)) == []


async def test_no_ipc_object_key_process_or_capability_reaches_the_next_game(
    kept: None, tmp_path: Path
) -> None:
    """Each game leaves a shared memory segment, a message queue, a key in its user and
    session keyrings and a sleeping process in a session of its own: the next finds
    none of them, and no capability."""
    ended, _, _ = await games(hostile("traces", str(tmp_path)), 3)
    assert [said(lines, "traces") for lines in ended] == [["none"]] * 3
    assert processes_mentioning(str(tmp_path)) == []


async def test_limits_hold_game_after_game(kept: None, tmp_path: Path) -> None:
    spec = hostile("forkbomb", str(tmp_path), max_processes=16)
    with trio.fail_after(120):
        _, _, reasons = await games(spec, 2)
    assert all("process limit (16 processes and threads)" in r for r in reasons), reasons
    assert processes_mentioning(str(tmp_path)) == []


async def test_a_game_cut_off_ends_whole_and_the_next_one_plays(kept: None, tmp_path: Path) -> None:
    """An engine that spins past its time is cut off: its game (and its sandbox's
    processes) end, and the kept sandbox plays the next game."""
    spec = hostile("spin", str(tmp_path))
    async with (
        EnginePlayer.open(EngineSpec("plain", RANDOM)) as plain,
        EnginePlayer.open(spec) as spinner,
    ):
        for seed in (1, 2):
            result = await play_game(GAME, [plain, spinner], TimeControl.parse("0.3+0"), seed=seed)
            assert result.outcome.termination is Termination.TIMEOUT, result.outcome
        assert spinner._keeper is not None and spinner._keeper.broken is None
        assert spinner._keeper.games == 2
    assert processes_mentioning(str(tmp_path)) == []


async def test_a_kept_sandbox_that_dies_leaves_the_games_to_a_sandbox_each(
    kept: None, tmp_path: Path
) -> None:
    ended: list[list[str]] = []
    spec = hostile("leftovers", str(tmp_path))
    async with (
        EnginePlayer.open(EngineSpec("plain", RANDOM)) as plain,
        EnginePlayer.open(spec, on_transcript=lambda t: ended.append(t.lines())) as boxed,
    ):
        result = await play_game(GAME, [plain, boxed], TC, seed=1)
        assert result.outcome.culprit is None
        assert boxed._keeper is not None
        os.killpg(boxed._keeper.pid, signal.SIGKILL)  # bubblewrap and its whole sandbox
        for seed in (2, 3):
            result = await play_game(GAME, [plain, boxed], TC, seed=seed)
            assert result.outcome.culprit is None, result.outcome.reason
        assert boxed._keeper is None and not boxed.keep_sandbox
    # The start it refused has a transcript of its own, then the games go on.
    # (Refused by the socket, or sent as the sandbox died and never set up: either way
    # the sandbox's failure, not the engine's.)
    refused = " ".join(ended[1])
    assert len(ended) == 4 and "engine 'leftovers'" in refused and "kept sandbox" in refused
    assert [said(ended[i], "leftovers") for i in (0, 2, 3)] == [["none"]] * 3
    second = " ".join(ended[2])
    assert "from now on a sandbox per game" in second and "(in the bwrap sandbox)" in second
    assert processes_mentioning(str(tmp_path)) == []


async def test_a_kept_sandbox_that_does_not_come_up_leaves_the_games_to_a_sandbox_each(
    kept: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    @contextlib.asynccontextmanager
    async def refused(spec: EngineSpec, transcript: Transcript) -> AsyncIterator[Keeper]:
        raise EngineStartError("the kept sandbox of engine 'x' did not come up: test")
        yield  # pragma: no cover

    monkeypatch.setattr(Keeper, "open", refused)
    ended: list[list[str]] = []
    spec = hostile("leftovers", str(tmp_path))
    async with (
        EnginePlayer.open(EngineSpec("plain", RANDOM)) as plain,
        EnginePlayer.open(spec, on_transcript=lambda t: ended.append(t.lines())) as boxed,
    ):
        for seed in (1, 2):
            result = await play_game(GAME, [plain, boxed], TC, seed=seed)
            assert result.outcome.culprit is None, result.outcome.reason
    assert "did not come up: test: a sandbox per game" in " ".join(ended[0])
    assert all("(in the bwrap sandbox)" in " ".join(lines) for lines in ended)
    assert [said(lines, "leftovers") for lines in ended] == [["none"]] * 2


async def test_an_engine_that_cannot_run_fails_its_game_not_the_kept_sandbox(
    kept: None, tmp_path: Path
) -> None:
    spec = EngineSpec("ghost", (str(ROOT / "no-such-engine"),), sandbox=SandboxSettings())
    async with EnginePlayer.open(spec) as player:
        for _ in range(2):
            with pytest.raises(EngineStartError) as info:
                await player.start_game(GameSetup("trike", (("size", "7"),), 2, 0, 1))
            assert "sandbox: cannot run" in str(info.value), info.value
        assert player._keeper is not None and player._keeper.broken is None


HOLDER = textwrap.dedent(
    """
    import sys, trio
    from protocol.sandbox import SandboxSettings
    from protocol.spec import EngineSpec
    from referee.players import EnginePlayer, GameSetup
    from tests.hostile import hostile_argv

    async def main():
        spec = EngineSpec("kept", hostile_argv("traces", sys.argv[1]), sandbox=SandboxSettings())
        async with EnginePlayer.open(spec) as player:
            await player.start_game(GameSetup("trike", (("size", "7"),), 2, 0, 1))
            assert player._keeper is not None
            print("ready", flush=True)
            await trio.sleep_forever()

    trio.run(main)
    """
)


def test_the_kept_sandbox_and_its_game_die_with_a_killed_referee(
    kept: None, tmp_path: Path
) -> None:
    marker = str(tmp_path)
    with ready_holder(HOLDER, marker, str(ROOT)) as holder:
        assert len(processes_mentioning(marker)) >= 3  # keeper, game warden, engine
        assert left_by_killed_referee(holder, marker) == []


async def test_an_engine_under_tmp_is_shown_again_in_every_game_s_fresh_tmp(
    kept: None, tmp_path: Path
) -> None:
    """A folder the sandbox shows inside its own ``/tmp`` (an engine's, under the host's
    ``/tmp``) is shown again, read-only, over each game's fresh ``/tmp``, with what is
    hidden inside it still covered; what a game wrote in ``/tmp`` is gone."""
    folder = tmp_path / "engine"
    folder.mkdir()
    program = folder / "hostile.py"
    program.write_text(ENGINE.read_text())
    (folder / "own.txt").write_text("mine\n")
    (folder / "secret").mkdir()
    (folder / "secret" / "key.txt").write_text("hidden\n")
    spec = EngineSpec(
        "tmp-engine",
        (sys.executable, str(program), "read", str(folder / "own.txt"),
         str(folder / "secret" / "key.txt"), str(program)),
        sandbox=SandboxSettings(hidden=(str(folder / "secret"),)),
    )  # fmt: skip
    assert str(tmp_path).startswith("/tmp/")
    ended, boxed, _ = await games(spec, 2)
    for lines in ended:
        reads = said(lines, "read " + str(folder / "own.txt"))
        assert reads == ["OK mine"], lines
        assert said(lines, "read " + str(folder / "secret" / "key.txt"))[0].startswith("failed")
    assert len(set(boxed.pids)) == 1

    ended, _, _ = await games(EngineSpec("left", (sys.executable, str(program), "leftovers"),
                                         sandbox=SandboxSettings()), 3)  # fmt: skip
    found = [said(lines, "leftovers") for lines in ended]
    assert all(len(f) == 1 and "left-by-" not in f[0] for f in found), found


async def test_a_game_the_kept_sandbox_does_not_set_up_retires_it(
    kept: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that its kept sandbox never set up (here: a request it must refuse, the
    game's report pipe left out) is the sandbox's failure, not the engine's: the start
    fails, and the kept sandbox takes no more games (``EnginePlayer`` then gives each a
    sandbox of its own, ``test_a_kept_sandbox_that_dies_...``)."""
    spec = EngineSpec("rnd", RANDOM, sandbox=SandboxSettings())
    send_fds = socket.send_fds
    with trio.fail_after(30):
        async with Keeper.open(spec, Transcript()) as keeper:
            async with EngineSession.open(spec, keeper=keeper):
                pass
            monkeypatch.setattr(
                socket, "send_fds", lambda sock, data, fds: send_fds(sock, data, fds[:3])
            )
            # The start fails on the engine's closed input or on the report's end,
            # whichever the session sees first; either way the kept sandbox is to blame.
            with pytest.raises(EngineStartError, match=r"closed its input|did not start in its"):
                async with EngineSession.open(spec, keeper=keeper):
                    pass
            assert keeper.broken == "the kept sandbox failed: a game did not start in it"
            with pytest.raises(KeeperGone):
                keeper.new_game()
