"""Options several commands share, declared here at no cost: this module reads typer
and ``referee.clock``'s help line only, so a command's signature can use them without
importing what runs it (``referee --help`` reads every command's signature).

The score adjudication options of ``play`` and ``tournament`` (cutechess's
``-resign``/``-draw``; the rules are ``referee.score_rules``), the engine options of
``play`` and ``tournament``, and the sandbox options of ``play``, ``tournament`` and
``check-engine`` (what they mean: ``tournaments.cli.sandbox``); and the lines a stop
before the first game ends with (``signals.stoppable``'s).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.clock import TC_HELP


def written_path(text: str) -> Path:
    """The parser of an option that names a path to write (``--out``, ``--html``,
    ``--events``): an empty text would be ``Path("")``, the current folder, and write
    there unasked (a shell variable that was not set, ``--out "$DIR"``).

    :raises typer.BadParameter: the text is empty (a usage error, one line).
    """
    if not text:
        raise typer.BadParameter("an empty path (it would mean the current folder)")
    return Path(text)


ResignOption = Annotated[
    str | None,
    typer.Option("--resign", help="Score adjudication: movecount=M,share=S (thousandths)."),
]
DrawOption = Annotated[
    str | None,
    typer.Option("--draw", help="Score adjudication: movenumber=K,movecount=M,spread=S."),
]
TcOption = Annotated[str | None, typer.Option("--tc", help=TC_HELP)]
"""``--tc`` of ``play`` and ``tournament``: parsed by ``referee.clock``."""

ENGINE_HELP = (
    "An engine: a built-in name, a command, NAME=COMMAND, or settings"
    " 'name=N cmd=COMMAND tc=… nodes=… depth=… option.NAME=V dir=… sandbox=…"
    " restart=on' (tournaments/README.md). Repeat for each engine."
)
"""The help of ``-e`` in ``play`` and ``tournament``."""
EngineOption = Annotated[
    list[str] | None,
    typer.Option("--engine", "-e", metavar="ENGINE", help=ENGINE_HELP),
]
EachOption = Annotated[
    list[str] | None,
    typer.Option(
        "--each",
        metavar="KEY=VALUE…",
        help="Settings for every engine that does not set the key itself (tc=, nodes=,"
        " depth=, option.NAME=, …; as -e's settings). Repeatable.",
    ),
]
NodesOption = Annotated[
    int | None,
    typer.Option(
        "--nodes",
        min=1,
        metavar="N",
        help="Node limit per move (go nodes N) of every engine without its own that declares"
        " 'feature nodes' (the others play without one, with a note). As --each nodes=N.",
    ),
]
DepthOption = Annotated[
    int | None,
    typer.Option(
        "--depth",
        min=1,
        metavar="D",
        help="Depth limit per move (go depth D), as --nodes: for engines declaring"
        " 'feature depth'. As --each depth=D.",
    ),
]


SandboxOption = Annotated[
    str | None,
    typer.Option(
        "--sandbox",
        metavar="none|bwrap",
        help="bwrap: every engine in the bubblewrap sandbox (docs/SECURITY.md).",
    ),
]


SandboxMemoryOption = Annotated[
    int | None,
    typer.Option(
        "--sandbox-memory",
        metavar="MIB",
        min=1,
        help="With --sandbox bwrap: each engine's memory limit, all its processes "
        "together, MiB (default 2048).",
    ),
]
SandboxCpuOption = Annotated[
    int | None,
    typer.Option(
        "--sandbox-cpu",
        metavar="SECONDS",
        min=1,
        help="With --sandbox bwrap: each engine's CPU time per game, all its processes "
        "together, seconds (default 3600).",
    ),
]
SandboxProcsOption = Annotated[
    int | None,
    typer.Option(
        "--sandbox-procs",
        metavar="N",
        min=1,
        max=100_000,
        help="With --sandbox bwrap: processes and threads each engine may have at once "
        "(default 64).",
    ),
]

TOURNAMENT_NOT_STARTED = (
    "interrupted before the tournament started (no game scheduled, nothing to resume):"
    " run the same command again"
)
"""What ``tournament`` stopped before its first game is scheduled ends with."""
PLAY_NOT_STARTED = (
    "interrupted before the first game (nothing written): run the same command again"
)
"""What ``play`` stopped while the match is set up (the config read, the engines checked)
ends with."""
