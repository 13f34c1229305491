"""Open-file budget of a tournament: raise the soft limit, or refuse before the first game.

Each live engine holds three pipe ends in the process that hosts it (stdin, stdout,
stderr), and a game slot keeps up to ``default_cache_size`` engines alive between
games. At high concurrency that passes the common soft limit of 1,024 open files,
and the failure would come mid-event as engines that "cannot start" (fastchess met
it at concurrency 250). So the runner asks for what it needs up front: the soft limit
is raised towards the hard one (any process may do that), and when even the hard
limit is too low the event does not start.
"""

from __future__ import annotations

import resource

from referee.errors import UserError

FILES_PER_ENGINE = 3
"""Pipe ends an engine holds open in the process that runs it."""
FILES_RESERVED = 128
"""Journal, records, transcripts, worker pipes, the event loop's own descriptors."""


class OpenFilesError(UserError):
    """The hard limit on open files is below what the tournament needs."""


def files_needed(concurrency: int, engines_per_slot: int) -> int:
    """Open files for ``concurrency`` slots keeping ``engines_per_slot`` engines each."""
    return concurrency * engines_per_slot * FILES_PER_ENGINE + FILES_RESERVED


def ensure_open_files(needed: int) -> int:
    """Make the soft ``RLIMIT_NOFILE`` at least ``needed`` (children inherit it).

    Returns the soft limit in force afterwards.

    :raises OpenFilesError: the hard limit is below ``needed``; the message says what
        to do, in one line.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return soft
    if hard != resource.RLIM_INFINITY and hard < needed:
        raise OpenFilesError(
            f"this tournament needs about {needed} open files but the hard limit is {hard}:"
            " lower the concurrency or raise the limit (ulimit -Hn)"
        )
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return needed
