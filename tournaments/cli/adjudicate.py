"""``referee adjudicate FILE.tgn`` (registered in ``app.py``): every verdict as soon as known.

The file is read in batches of whole games (``referee.record.stream``). With ``--jobs N``
above 1 and more than one batch, N worker processes adjudicate batches while this
process reads the next ones and prints the verdicts in file order; at most
``IN_FLIGHT_PER_JOB`` batches per worker are read ahead, so memory stays bounded
whatever the file's size (a batch is about 256 KiB of text, a few hundred games: large
enough that sending it costs little next to adjudicating it). ``--html`` writes its page
as the verdicts come (``tournaments.html.adjudicate.AdjudicationPage``).

User errors are ``UserError``s of one line, which the console script prints as
``referee: error: ...`` (exit status 2): a file that cannot be opened or is not text
(``PathError``, ``NotTextError``), that holds no game (only stray text, or nothing), an
``--html`` page that cannot be written (``ReportError``), a worker process that died.
A broken game is a verdict (``invalid-record``), not an error.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.errors import UserError
from tournaments.cli.options import written_path

if TYPE_CHECKING:  # imported where used: the command line reads this module for --help
    from concurrent.futures import Future

    from referee.adjudicate import Verdict
    from referee.adjudicate_stream import Adjudged, Keep
    from tournaments.html.paged.verdicts import VerdictPages

IN_FLIGHT_PER_JOB = 2
"""Batches read ahead per worker process: one being adjudicated, one waiting."""


def default_jobs() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def _quiet_worker() -> None:
    """Ctrl+C is the main process's to handle: a worker ignores it (no traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def adjudged_batches(
    path: Path, jobs: int, *, keep: Keep | None = None, batch_bytes: int | None = None
) -> Generator[list[Adjudged], None, None]:
    """The ``Adjudged`` of each batch of the file at ``path``, in file order.

    A file of one batch, or ``jobs`` 1, is adjudicated in this process; otherwise in
    ``jobs`` worker processes, started when the second batch is read.

    :raises PathError: the file cannot be opened or read.
    :raises NotTextError: the file is not text.
    :raises BrokenProcessPool: a worker process died.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from referee.adjudicate_stream import adjudicate_batch
    from referee.record.stream import read_batches

    batches = read_batches(path, batch_bytes=batch_bytes)
    first = list(islice(batches, 2))
    if jobs <= 1 or len(first) < 2:
        for batch in chain(first, batches):
            yield adjudicate_batch(batch, keep)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_quiet_worker)
    try:
        pending: deque[Future[list[Adjudged]]] = deque()
        for batch in chain(first, batches):
            pending.append(pool.submit(adjudicate_batch, batch, keep))
            if len(pending) >= jobs * IN_FLIGHT_PER_JOB:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def write_adjudication_page(path: Path, verdicts: Sequence[Verdict], out: Path) -> None:
    """Write the page of ``verdicts`` (one per entry of ``path``, in file order, as
    ``referee.adjudicate_stream.adjudicate_file`` gives them) to ``out``.

    :raises PathError: ``path`` cannot be read again.
    :raises OSError: ``out`` cannot be written.
    :raises ValueError: ``verdicts`` are not as many as the entries.
    """
    from referee.record.model import GameRecord
    from referee.record.stream import iter_entries
    from tournaments.html.adjudicate import AdjudicationPage, seats_text

    with AdjudicationPage(str(path), out) as page:
        for entry, verdict in zip(iter_entries(path), verdicts, strict=True):
            record = entry if isinstance(entry, GameRecord) else None
            page.add(verdict, "" if record is None else seats_text(record), record)
        page.finish()


def adjudicate_command(
    path: Annotated[Path, typer.Argument(metavar="FILE.tgn", help="A record file.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per game.")] = False,
    html_out: Annotated[
        Path | None,
        typer.Option(
            "--html", parser=written_path, help="Also write the verdicts as an HTML page."
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes (default and at most: the number of cores). Verdicts stay"
            " in file order.",
        ),
    ] = None,
) -> None:
    """Replay every game under its rules; exit 0 if all confirmed, 1 on any dispute.

    A game that does not read is `invalid-record` with its FILE:LINE:COLUMN; reading
    goes on at the next game.
    """
    from concurrent.futures.process import BrokenProcessPool

    workers = default_jobs()
    if jobs is not None and jobs > workers:
        # More processes than cores only slows the replay, and a huge --jobs would fork
        # that many processes before the first verdict (a fork bomb by a typo).
        typer.echo(
            f"referee: note: --jobs {jobs} is more than the {workers} core(s) this process"
            f" may use: {workers} worker process(es)",
            err=True,
        )
    elif jobs is not None:
        workers = jobs
    stream = adjudged_batches(path, workers, keep=_page_keeps(html_out))
    try:
        first = _until_a_game(path, stream)
        page = _open_page(path, html_out)
        try:
            count, disputed = _print_verdicts(chain([first], stream), as_json, page)
            if page is not None:
                page.finish()
        finally:
            if page is not None:
                page.close()
    except BrokenProcessPool as exc:  # killed, or out of memory: the user's to fix
        raise UserError(f"a worker process died ({exc}); fewer --jobs may help") from None
    finally:
        stream.close()  # stops the worker processes
    if not as_json:
        typer.echo(f"{count} game(s), {disputed} disputed")
    raise typer.Exit(1 if disputed else 0)


def _page_keeps(html_out: Path | None) -> Keep | None:
    """What ``--html``'s page needs kept of each game; None without it (no page code read)."""
    if html_out is None:
        return None
    from tournaments.html.adjudicate import page_needs

    return page_needs


def _open_page(path: Path, html_out: Path | None) -> VerdictPages | None:
    """``--html``'s page of the verdicts of ``path``; None without it (no page code read)."""
    if html_out is None:
        return None
    from tournaments.html.paged.verdicts import VerdictPages

    return VerdictPages(str(path), html_out)


def _until_a_game(path: Path, stream: Iterator[list[Adjudged]]) -> list[Adjudged]:
    """The entries up to the first batch that holds a game, that batch included.

    Stray text before the first game is held back until a game shows that this is a
    record file (by the format there is at most one such entry).

    :raises UserError: the file holds no game.
    """
    held: list[Adjudged] = []
    for batch in stream:
        held += batch
        if any(adjudged.game for adjudged in batch):
            return held
    if held:  # most likely the wrong file; an exit 0 would hide that
        raise UserError(f"no game records in the file: {held[0].verdict.reason}")
    raise UserError(f"{path}: no game records in the file")


def _print_verdicts(
    batches: Iterator[list[Adjudged]], as_json: bool, page: VerdictPages | None
) -> tuple[int, int]:
    """Print (and add to ``page``) every entry's verdict; return (entries, disputed)."""
    from referee.adjudicate import format_verdict, verdict_to_json

    count = disputed = 0
    for batch in batches:
        lines = []
        for adjudged in batch:
            count += 1
            disputed += not adjudged.verdict.confirmed
            verdict = adjudged.verdict
            if as_json:
                lines.append(json.dumps(verdict_to_json(count, verdict), sort_keys=True))
            else:
                lines.append(format_verdict(count, verdict))
            if page is not None:
                seats = " vs ".join(adjudged.seats)  # as seats_text(record)
                page.add(adjudged.verdict, seats, adjudged.record)
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
    return count, disputed
