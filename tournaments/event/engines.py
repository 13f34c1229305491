"""Turning ``--engine`` arguments into engine specs, with the built-in bots by name.

A built-in name (``random``, ``greedy``, ``mcts``, ``trike-c``) needs no path; anything
else is a command line split as a shell splits words but never run through a shell. A
built-in name may be followed by the bot's own arguments (``greedy --seed 2``).
``NAME=COMMAND`` gives the entrant an explicit name.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

from bots.cbuild import build_c_engine
from protocol.sandbox.host import foreign_dirs, program_dirs
from protocol.spec import EngineSpec


def _python_bot(name: str) -> Callable[[], tuple[str, ...]]:
    return lambda: (sys.executable, "-m", "bots", name)


def _c_bot(name: str) -> Callable[[], tuple[str, ...]]:
    return lambda: (str(build_c_engine(name)),)


BUILTIN_ENGINES: dict[str, Callable[[], tuple[str, ...]]] = {
    "random": _python_bot("random"),
    "greedy": _python_bot("greedy"),
    "mcts": _python_bot("mcts"),
    "trike-c": _c_bot("trike_engine"),
}
"""Engines reachable by name; the value builds the command line on demand."""

_NAMED = re.compile(r"^([A-Za-z0-9_.+-]+)=(.+)$", re.DOTALL)


def resolve_engine(text: str) -> EngineSpec:
    """An ``EngineSpec`` from one ``--engine`` argument.

    :raises ValueError: an empty or unbalanced command (one-line message).
    :raises bots.cbuild.BuildError: a built-in C engine that cannot be built.
    """
    text = text.strip()
    name: str | None = None
    match = _NAMED.match(text)
    if match and not os.path.exists(text):
        name, text = match.group(1), match.group(2).strip()
    if text in BUILTIN_ENGINES:
        return EngineSpec(name=name or text, argv=BUILTIN_ENGINES[text]())
    first, _, rest = text.partition(" ")
    if first in BUILTIN_ENGINES and not os.path.exists(first):
        # A built-in with arguments: "greedy --seed 2".
        extra = EngineSpec.from_command(rest, name=first).argv if rest.strip() else ()
        return EngineSpec(name=name or first, argv=BUILTIN_ENGINES[first]() + extra)
    return EngineSpec.from_command(text, name=name)


def unique_names(specs: Sequence[EngineSpec]) -> list[EngineSpec]:
    """Rename repeated entrant names ``x``, ``x#2``, ``x#3`` so standings stay apart."""
    seen: dict[str, int] = {}
    renamed: list[EngineSpec] = []
    for spec in specs:
        count = seen.get(spec.name, 0) + 1
        seen[spec.name] = count
        if count > 1:
            spec = replace(spec, name=f"{spec.name}#{count}")
        renamed.append(spec)
    return renamed


def check_runnable(spec: EngineSpec) -> None:
    """Refuse an engine whose program cannot be started, before any game.

    A program with a ``/`` is looked up relative to the engine's working directory,
    one without on ``PATH`` (the engine's own ``PATH`` if its environment sets one),
    as the spawn will. Whether it then speaks the protocol is the game's business.

    :raises ValueError: one line naming the program.
    """
    program = spec.argv[0]
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        raise ValueError(f"cannot run {program!r}: no directory {spec.cwd!r}")
    if os.sep in program:
        found: str | None = os.path.join(spec.cwd or os.curdir, program)
    else:
        found = shutil.which(program, path=(spec.env or {}).get("PATH"))
    if found is None or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise ValueError(f"cannot run {program!r}: not an executable file")


def _dirs(spec: EngineSpec) -> list[str]:
    return program_dirs(spec.argv, spec.cwd, (spec.env or {}).get("PATH"))


def hide_each_other(specs: Sequence[EngineSpec]) -> tuple[EngineSpec, ...]:
    """The entrants, each sandboxed one with the others' directories hidden from it.

    An entrant's directories are its working directory, its program's and its script's
    (``protocol.sandbox.host.program_dirs``); what every sandbox shows anyway (the
    system, Python, the referee's code) and the entrant's own stay visible.
    """
    if all(spec.sandbox is None for spec in specs):
        return tuple(specs)  # nothing to hide from: no directory need be resolved
    dirs = [_dirs(spec) for spec in specs]
    # How many entrants use each directory: another entrant uses ``d`` when more use it
    # than ``i`` alone (a pass over the field, not over every other entrant per entrant).
    users: dict[str, int] = {}
    for found in dirs:
        for d in set(found):
            users[d] = users.get(d, 0) + 1
    hidden: list[EngineSpec] = []
    for i, spec in enumerate(specs):
        if spec.sandbox is not None:
            own = set(dirs[i])
            others = [d for d, count in users.items() if count > (d in own)]
            extra = [d for d in foreign_dirs(dirs[i], others) if d not in spec.sandbox.hidden]
            spec = replace(spec, sandbox=replace(spec.sandbox, hidden=(*spec.sandbox.hidden,
                                                                        *extra)))  # fmt: skip
        hidden.append(spec)
    return tuple(hidden)


def hide_path(spec: EngineSpec, path: str | os.PathLike[str] | None) -> EngineSpec:
    """``spec`` with ``path`` (the event's output) hidden from it, if it is sandboxed."""
    if spec.sandbox is None or path is None:
        return spec
    real = os.path.realpath(path)
    if real in spec.sandbox.hidden:
        return spec
    return replace(spec, sandbox=replace(spec.sandbox, hidden=(*spec.sandbox.hidden, real)))
