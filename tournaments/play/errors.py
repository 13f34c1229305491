"""What the runner and the cluster share about a tournament that cannot go on.

Kept below both (``tournaments.runner`` drives ``tournaments.cluster``), so that neither
imports the other back.
"""

VOID_ATTEMPTS = 3
"""Times a game is tried while it comes out void before the tournament stops."""
RUNNER_VOID_ATTEMPTS = 10
"""Times a game may come out void by the referee's own lateness (``GameReport.runner_fault``),
counted apart from ``VOID_ATTEMPTS``: an overloaded runner is not an engine's failure."""


class TournamentError(ValueError):
    """The tournament cannot go on (a game stays void); one line."""
