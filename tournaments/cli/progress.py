"""Live progress of a running tournament on the terminal.

On a terminal: one line per finished game, and below them a progress line that is
redrawn in place (games done, a bar, elapsed time, ETA, the current leader).
When the output is not a terminal (a pipe, a file, CI logs) only the per-game
lines are written, so logs stay clean; ``quiet`` drops those too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # annotations only: ``play`` shows its games without the tournament runner
    from tournaments.results.game import GameReport
    from tournaments.runner.run import Progress

BAR_WIDTH = 20


def clock(seconds: float) -> str:
    """``h:mm:ss`` or ``m:ss``."""
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def game_line(report: GameReport, total: int) -> str:
    """``Game 12/48 (round 2): a vs b: 1-0 [2,1] (rules, 27 plies) reason``; after an
    opening ``(rules, 27 plies after a 2-ply opening)``, since a forfeit reason's ply counts
    the opening's plies too (``at ply 30``)."""
    outcome = report.outcome
    result = _tag(report.record, "Result") or "*"
    score = _tag(report.record, "Score")
    score_text = f" [{score}]" if score else ""
    reason = f" {outcome.reason}" if outcome.reason else ""
    opening = _tag(report.record, "Opening")
    after = f" after a {len(opening.split())}-ply opening" if opening else ""
    line = (
        f"Game {report.number}/{total} (round {report.round}): {' vs '.join(report.seats)}: "
        f"{result}{score_text} ({outcome.termination.value}, {report.plies} plies{after})"
        f"{reason}"
    )
    if report.transcript and (outcome.termination.is_forfeit or report.void):
        line += f"\n  transcript of game {report.number}: {report.transcript}"
    return line


def _tag(record: str, name: str) -> str | None:
    prefix = f'[{name} "'
    for line in record.splitlines():
        if line.startswith(prefix) and line.endswith('"]'):
            return line[len(prefix) : -2].replace('\\"', '"').replace("\\\\", "\\")
        if not line:
            break
    return None


def progress_line(progress: Progress) -> str:
    """``[#####-----] 12/48 25% 0:03 ETA 0:09 leader greedy-1 10/12``."""
    total = max(progress.total, 1)
    filled = min(BAR_WIDTH, BAR_WIDTH * progress.done // total)
    bar = "#" * filled + "-" * (BAR_WIDTH - filled)
    eta = progress.eta
    parts = [
        f"[{bar}] {progress.done}/{progress.total} {100 * progress.done // total}%",
        clock(progress.elapsed),
        f"ETA {clock(eta)}" if eta is not None else "ETA -",
    ]
    if progress.leader is not None:
        parts.append(f"leader {progress.leader} {progress.leader_points:g}/{progress.leader_games}")
    return " ".join(parts)


class ProgressDisplay:
    """Writes game lines and, on a terminal, a redrawn progress line."""

    def __init__(self, stream: TextIO, *, tty: bool | None = None, quiet: bool = False) -> None:
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self.quiet = quiet
        self._shown = False

    def game(self, report: GameReport, progress: Progress) -> None:
        """One game finished."""
        self.clear()
        if not self.quiet:
            self.stream.write(game_line(report, progress.total) + "\n")
        if self.tty:
            self.stream.write(progress_line(progress))
            self._shown = True
        self.stream.flush()

    def clear(self) -> None:
        """Remove the progress line (before other output)."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self._shown = False
            self.stream.flush()
