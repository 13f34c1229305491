"""``referee report`` and the page of ``referee adjudicate --html`` (registered in ``cli.py``).

Thin: read, build the page with ``tournaments.html.report`` or
``tournaments.html.adjudicate``, write it. User errors are ``ValueError``s
(``JournalError``) or ``OSError``s of one line, which the console script prints as
``referee: error: ...`` (exit status 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from referee.adjudicate import Verdict
from referee.record.stream import read_records
from tournaments.html.adjudicate import build_adjudication_page
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


def write_adjudication_page(path: Path, verdicts: Sequence[Verdict], out: Path) -> None:
    """Write the page of ``verdicts`` (one per record of ``path``, in file order) to ``out``.

    :raises RecordSyntaxError, OSError: ``path`` cannot be read again, ``out`` written.
    """
    records = read_records(path)
    write_atomic(out, build_adjudication_page(str(path), records, verdicts))
