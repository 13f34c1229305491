"""``referee report`` (registered in ``app.py``).

Thin: read, build the page with ``tournaments.html.report``, write it. User errors are
``ValueError``s (``JournalError``) or ``OSError``s of one line, which the console script
prints as ``referee: error: ...`` (exit status 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournaments.html.report import DEFAULT_MAX_POSITIONS, build_report
from tournaments.play.event_dir import read_event
from tournaments.play.journal import write_atomic

REPORT = "report.html"
"""The default file name, in the tournament directory."""


def report_command(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A tournament's --out.")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="The page to write (default DIR/report.html)."),
    ] = None,
    max_positions: Annotated[
        int,
        typer.Option("--max-positions", min=0, help="Board positions drawn, in journal order."),
    ] = DEFAULT_MAX_POSITIONS,
) -> None:
    """Write one self-contained HTML page: tables, charts and every game replayable."""
    event = read_event(directory)
    target = out if out is not None else directory / REPORT
    write_atomic(target, build_report(event, max_positions=max_positions))
    typer.echo(f"report of {len(event.games)} game(s) written to {target}")
