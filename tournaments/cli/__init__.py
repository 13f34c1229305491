"""The ``referee`` command line: the composition root.

``app`` defines every command (``games``, ``play``, ``perft``, ``bench``,
``check-engine``) and ``main``; ``tournament``, ``report``, ``show`` and ``adjudicate``
(verdicts streamed from worker processes) hold the larger commands, ``rules`` the
``rules`` and ``moves`` commands (the rules pages, the legal moves of a position);
``progress`` is the live terminal display and ``signals`` turns Ctrl+C and SIGTERM into
a clean stop;
``main`` (the console script) is exported here. Only this room parses options and
prints for people; new commands go here and call the rooms below.
"""

from tournaments.cli.app import main

__all__ = ["main"]
