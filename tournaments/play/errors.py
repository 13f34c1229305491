"""What the runner and the cluster share about a tournament that cannot go on.

The void policy lives here once: ``VoidTally`` counts one game's void attempts and says
when the tournament must stop, for local slots and cluster tasks alike. Kept below both
(``tournaments.runner`` drives ``tournaments.cluster``), so that neither imports the other
back.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import UserError
from tournaments.results.game import GameReport

VOID_ATTEMPTS = 3
"""Times a game is tried while it comes out void before the tournament stops."""
RUNNER_VOID_ATTEMPTS = 10
"""Times a game may come out void by the referee's own lateness (``GameReport.runner_fault``),
counted apart from ``VOID_ATTEMPTS``: an overloaded runner is not an engine's failure."""


class TournamentError(UserError):
    """The tournament cannot go on (a game stays void); one line."""


@dataclass(slots=True)
class VoidTally:
    """The void attempts of one game: engine voids and, on their own budget, voids the
    referee's own lateness caused (``GameReport.runner_fault``)."""

    voids: int = 0
    runner_voids: int = 0
    resumable: bool = True
    """The stop error says to resume (a tournament), else only what to fix (``play``)."""

    def count(self, number: int, report: GameReport) -> TournamentError | None:
        """Count ``report`` (a void of game ``number``); the error that stops the
        tournament once this attempt spends its budget (``VOID_ATTEMPTS`` engine voids or
        ``RUNNER_VOID_ATTEMPTS`` runner voids), else None: play the game again."""
        if report.runner_fault:
            self.runner_voids += 1
            if self.runner_voids < RUNNER_VOID_ATTEMPTS:
                return None
            return TournamentError(
                f"game {number} was void {RUNNER_VOID_ATTEMPTS} times because"
                f" the runner itself was late ({report.outcome.reason}); lower"
                " the concurrency or unload the machine"
                + (", and resume" if self.resumable else "")
            )
        self.voids += 1
        if self.voids < VOID_ATTEMPTS:
            return None
        return TournamentError(
            f"game {number} was void {VOID_ATTEMPTS} times "
            f"({report.outcome.reason}); fix the engine"
            + (" and resume" if self.resumable else "")
            + (f" (transcript: {report.transcript})" if report.transcript else "")
        )
