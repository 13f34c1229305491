"""What runs on a Dask worker: a batch of games, and the preflight check of the engines.

Imported on the workers (which need this package installed, as the runner does) and
free of Dask at import time, so it also runs without a cluster (tests).

* ``play_batch`` is one Dask task: its own trio loop (``trio.run`` inside the task's
  thread), one slot, the games played in turn by ``tournaments.play.worker.play_jobs`` (the
  very loop of a local worker process). Finished games' reports are published on the
  run's event topic within ``STREAM_INTERVAL`` of their end, so a worker that dies
  loses only the game it was playing (and at most that interval's games, which are
  played again); the task's return value repeats them all (the runner keeps the first
  copy of each game). Each game travels as a ``Finished`` (its report, and its
  transcript block: transcripts are written to a temporary directory here and travel
  back beside the reports, for the runner alone writes the output directory), written
  and read by the one codec (``event.wire``).
* ``preflight`` (through ``Client.run``, on every worker) resolves each entrant's
  engine as the games will and runs the first steps of ``referee check-engine`` on it.

Engines are resolved on the worker, per entrant, from the first of: the worker's
``REFEREE_ENGINES`` file (TOML, ``name = "command"``: for binaries whose path differs
between machines), the config's ``[cluster.engines]``, the entrant's ``command``. A
built-in name (``random``, ``greedy``, ``mcts``, ``trike-c``) becomes the worker's own
Python or its own build of the C engine. ``cwd``, ``env``, options, limits and the sandbox
stay the entrant's; a sandboxed entrant's view hides the other entrants' directories as
they are on this worker, and the preflight checks that bubblewrap works here.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import tomllib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import trio

from bots.cbuild import BuildError
from protocol.errors import EngineSetupError
from protocol.sandbox.host import SandboxUnavailable, probe
from protocol.spec import EngineSpec
from tournaments.checks.check_engine import check_engine
from tournaments.event.engines import hide_each_other, resolve_engine
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.wire import from_json, to_json
from tournaments.play.worker import play_jobs
from tournaments.results.game import GameReport
from tournaments.store import transcripts

ENGINES_VARIABLE = "REFEREE_ENGINES"
"""Environment variable of a worker naming its TOML file of entrant commands."""
PREFLIGHT_STEPS = (1, 3, 4)
"""``check_engine`` steps an engine must pass to play: handshake, newgame, a first move."""
STREAM_INTERVAL = 0.25
"""Seconds between a task's messages of finished games: one message per game costs the
worker a wake-up of its event loop (and the GIL) per game, 40% of the throughput with
instant engines; games longer than this still go out one by one as they end."""


class EntrantError(EngineSetupError):
    """An entrant's engine cannot be resolved on this worker; one line."""


def local_engines(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """This worker's entrant commands from ``$REFEREE_ENGINES`` (empty without it).

    :raises EntrantError: an unreadable file or a value that is not a string.
    """
    path = environ.get(ENGINES_VARIABLE)
    if not path:
        return {}
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise EntrantError(f"{ENGINES_VARIABLE}={path}: {exc}") from None
    for name, command in data.items():
        if not isinstance(command, str):
            raise EntrantError(f"{ENGINES_VARIABLE}={path}: {name}: expected a command string")
    return dict(data)


def worker_entrants(
    entrants: Sequence[EngineSpec], commands: Sequence[str]
) -> tuple[EngineSpec, ...]:
    """The entrants with their commands resolved here (see the module's docstring), each
    sandboxed one with the others' directories here hidden from it.

    ``commands[i]`` is entrant ``i``'s command as the runner sends it.

    :raises EntrantError: a command that cannot be parsed, or a built-in that cannot be built.
    """
    local = local_engines()
    resolved: list[EngineSpec] = []
    for spec, command in zip(entrants, commands, strict=True):
        try:
            argv = resolve_engine(local.get(spec.name, command)).argv
        except (ValueError, BuildError) as exc:
            raise EntrantError(f"entrant {spec.name!r}: {exc}") from None
        resolved.append(replace(spec, argv=argv))
    return hide_each_other(resolved)


def _publisher(topic: str | None) -> Callable[[dict[str, Any]], None]:
    """Sends a message to the runner on ``topic``, if this runs in a Dask worker."""
    if topic is None:
        return lambda message: None
    from distributed import get_worker

    try:
        worker = get_worker()
    except ValueError:  # called outside a worker (tests): nobody listens
        return lambda message: None
    return lambda message: worker.log_event(topic, message)


@dataclass(frozen=True, slots=True)
class Finished:
    """A game a task played, as its messages and its result carry it (``to_json``)."""

    report: GameReport
    transcript_text: str | None = None
    """The game's transcript block, when the runner keeps transcripts (the report's
    own ``transcript`` names this worker's scratch store, of no use to the runner)."""


async def _iterate(jobs: Sequence[Job]) -> AsyncIterator[Job]:
    for job in jobs:
        yield job


def play_batch(
    setup_json: Mapping[str, Any],
    commands: Sequence[str],
    jobs_json: Sequence[Mapping[str, Any]],
    tag: str,
    topic: str | None = None,
) -> list[dict[str, Any]]:
    """Play the jobs here; return them as JSON ``Finished`` values (with their transcripts).

    Finished games are also published on ``topic`` as ``{"tag": tag, "reports": [...]}``
    within ``STREAM_INTERVAL`` of their end, the last ones when the batch ends. Never
    raises for anything an engine does (as ``Slot.play``).

    :raises EntrantError: an entrant's engine cannot be resolved on this worker.
    """
    setup = from_json(SlotSetup, setup_json)
    setup = replace(setup, entrants=worker_entrants(setup.entrants, commands))
    jobs = [from_json(Job, job) for job in jobs_json]
    kept_home = setup.out is not None or setup.transcript_file is not None
    wants_logs = kept_home and setup.transcripts != "none"
    publish = _publisher(topic)
    reports: list[dict[str, Any]] = []
    unsent: list[dict[str, Any]] = []

    def flush() -> None:
        if unsent:
            publish({"tag": tag, "reports": list(unsent)})
            unsent.clear()

    with tempfile.TemporaryDirectory(prefix="referee-task-") as scratch:
        # The runner keeps the transcripts (its event's logs/ or play's file): here the
        # slots write theirs to the scratch store, and each game's block goes home.
        setup = replace(setup, out=scratch if wants_logs else None, transcript_file=None)
        store = transcripts.store_path(Path(scratch))
        read = 0
        kept: dict[int, str] = {}

        async def emit(report: GameReport) -> None:
            nonlocal read
            text = None
            if wants_logs:  # the blocks written since the last report: this game's
                blocks, read = transcripts.blocks_after(store, read)
                kept.update(blocks)
                text = kept.pop(report.number, None)
            data = to_json(Finished(report, text))
            reports.append(data)
            unsent.append(data)

        async def stream() -> None:
            while True:
                await trio.sleep(STREAM_INTERVAL)
                flush()

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(stream)
                # The task's loop has this one slot: it writes transcripts directly.
                await play_jobs(setup, _iterate(jobs), emit, shared_loop=False)
                nursery.cancel_scope.cancel()
            flush()  # the last games too: the result is only the fallback

        trio.run(main)
    return reports


def check_entrants(setup_json: Mapping[str, Any], commands: Sequence[str]) -> list[str]:
    """One line per entrant that cannot play here (``entrant 'x': step 1 handshake: …``);
    empty when all can. Starts each entrant's engine and runs ``PREFLIGHT_STEPS`` of the
    compliance check (the rest run too: an engine is not asked twice)."""
    setup = from_json(SlotSetup, setup_json)
    try:
        specs = worker_entrants(setup.entrants, commands)
        if any(spec.sandbox is not None for spec in specs):
            probe()
    except (EntrantError, SandboxUnavailable) as exc:
        return [str(exc)]
    game = setup.make_game()
    problems: dict[int, str] = {}

    async def check(index: int, spec: EngineSpec) -> None:
        steps = await check_engine(
            game, spec, players=setup.players, step_timeout=setup.start_timeout
        )
        required = [s for s in steps if s.number in PREFLIGHT_STEPS and s.passed is not True]
        failed = [s for s in required if s.passed is False] or required
        if failed:
            step = failed[0]
            where = f"step {step.number} {step.name}"
            problems[index] = f"entrant {spec.name!r}: {where}: {step.detail}"

    async def check_all() -> None:
        async with trio.open_nursery() as nursery:
            for index, spec in enumerate(specs):
                nursery.start_soon(check, index, spec)

    trio.run(check_all)
    return [problems[i] for i in sorted(problems)]


async def preflight(setup_json: Mapping[str, Any], commands: Sequence[str]) -> list[str]:
    """``check_entrants`` for ``Client.run``: in a thread, so the worker's own event loop
    (heartbeats, other tasks) keeps running, and trio's loop never meets asyncio's."""
    return await asyncio.to_thread(check_entrants, setup_json, commands)
