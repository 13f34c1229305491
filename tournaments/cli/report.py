"""``referee report`` (registered in ``app.py``).

Thin: parse the options, write the report with ``tournaments.html.paged.writer`` (the
single page of ``tournaments.html.report``, or the paged report of
``tournaments.html.paged`` for a big event), say what was written. User errors are
``UserError``s of one line (``JournalError``, ``ReportError``: a page that cannot be
written is one, naming it), which the console script prints as ``referee: error: ...``
(exit status 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tournaments.cli.adjudicate import default_jobs
from tournaments.cli.options import written_path
from tournaments.html.limits import DEFAULT_MAX_POSITIONS, SINGLE_LIMIT

if TYPE_CHECKING:
    from tournaments.html.paged.writer import Layout

REPORT = "report.html"
"""The default file name, in the tournament directory."""


def report_command(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A tournament's --out.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE.html",
            parser=written_path,
            help="The page to write (default DIR/report.html).",
        ),
    ] = None,
    paged: Annotated[
        bool | None,
        typer.Option(
            "--paged/--single",
            help=(
                "A first page plus a folder of block files loaded when needed (--paged), or "
                f"one self-contained page (--single). Default: single up to {SINGLE_LIMIT:,} "
                "games, paged above."
            ),
            show_default=False,
        ),
    ] = None,
    max_positions: Annotated[
        int | None,
        typer.Option(
            "--max-positions",
            min=0,
            help=(
                "Board positions drawn, whole games in journal order "
                f"(default: {DEFAULT_MAX_POSITIONS:,} on a single page, all when paged)."
            ),
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Processes drawing a paged report's games (default: the number of cores).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Write the HTML report: tables, charts and every game replayable."""
    from tournaments.html.paged.writer import write_report

    target = out if out is not None else directory / REPORT
    layout: Layout = "auto" if paged is None else ("paged" if paged else "single")
    written = write_report(
        directory,
        target,
        layout=layout,
        max_positions=max_positions,
        jobs=jobs if jobs is not None else default_jobs(),
    )
    if written.folder is None:
        typer.echo(f"report of {written.games} game(s) written to {written.page}")
    else:
        typer.echo(
            f"report of {written.games} game(s) written to {written.page}, its list and "
            f"games in {written.folder} ({written.files} files: keep them together)"
        )
