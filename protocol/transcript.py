"""A bounded, timestamped record of everything said with one engine (pure, no clock).

Each entry has a time in seconds (relative to ``origin``, which the caller
chooses), a marker and the text::

    >  a line sent to the engine        <  a line received from the engine
    !  a line the engine wrote to stderr   #  a note from the referee

Memory is bounded whatever the engine does: the protocol lines (``>``, ``<``,
``#``) and the stderr lines (``!``) are kept in two separate rings, so a stderr
flood cannot push the protocol exchange out; each stored line is cut at
``max_chars``. The numbers of lines dropped from each ring are counted.
"""

from __future__ import annotations

from collections import deque
from itertools import count
from pathlib import Path
from typing import NamedTuple

SENT = ">"
RECEIVED = "<"
STDERR = "!"
NOTE = "#"

MARKERS = frozenset({SENT, RECEIVED, STDERR, NOTE})


class TranscriptLine(NamedTuple):
    """One recorded line."""

    seq: int
    """Order of recording, across both rings."""
    time: float
    """Seconds since the transcript's origin."""
    marker: str
    """One of ``>``, ``<``, ``!``, ``#``."""
    text: str
    """The line, without its terminator, cut to the transcript's ``max_chars``."""

    def format(self) -> str:
        """``"   12.345 > go movetime 100"``."""
        return f"{self.time:9.3f} {self.marker} {self.text}"


_Entry = tuple[int, float, str, str]
"""A ``TranscriptLine``'s fields as a plain tuple: what the rings hold (cheaper to make
on the per-ply path; a ``TranscriptLine`` is made when the transcript is read)."""


class Transcript:
    """A bounded log of protocol lines and stderr lines with caller-supplied times.

    ``record`` takes absolute times from the caller's clock (the session uses
    ``trio.current_time()``); they are stored relative to ``origin``.
    """

    def __init__(
        self,
        *,
        origin: float = 0.0,
        max_lines: int = 2000,
        max_stderr_lines: int = 500,
        max_chars: int = 500,
    ) -> None:
        if max_lines < 1 or max_stderr_lines < 1 or max_chars < 1:
            raise ValueError("transcript limits must be positive")
        self.origin = origin
        self.max_chars = max_chars
        self._main: deque[_Entry] = deque(maxlen=max_lines)
        self._stderr: deque[_Entry] = deque(maxlen=max_stderr_lines)
        self._seq = count()
        self._recorded = 0
        self._recorded_stderr = 0

    def record(self, time: float, marker: str, text: str) -> None:
        """Store one line (``marker`` is ``>``, ``<``, ``!`` or ``#``)."""
        if marker == STDERR:
            self._recorded_stderr += 1
            self._stderr.append((next(self._seq), time - self.origin, marker, self._cut(text)))
        elif marker in MARKERS:
            self._recorded += 1
            self._main.append((next(self._seq), time - self.origin, marker, self._cut(text)))
        else:
            raise ValueError(f"unknown transcript marker {marker!r}")

    def _cut(self, text: str) -> str:
        """``text``, or its first ``max_chars`` characters and how many more there were."""
        if len(text) <= self.max_chars:
            return text
        return f"{text[: self.max_chars]}... [{len(text) - self.max_chars} more chars]"

    # ``sent``, ``sent_lines`` and ``received`` are the per-ply path (two lines sent and
    # one received per move): each appends a plain tuple, without dispatch.

    def sent(self, time: float, text: str) -> None:
        """Record a line sent to the engine."""
        if len(text) > self.max_chars:
            text = self._cut(text)
        self._recorded += 1
        self._main.append((next(self._seq), time - self.origin, SENT, text))

    def sent_lines(self, time: float, texts: list[str]) -> None:
        """Record lines sent to the engine together, in order (as ``sent`` for each)."""
        at = time - self.origin
        limit = self.max_chars
        seq = self._seq
        append = self._main.append
        for text in texts:
            if len(text) > limit:
                text = self._cut(text)
            append((next(seq), at, SENT, text))
        self._recorded += len(texts)

    def received(self, time: float, text: str) -> None:
        """Record a line received from the engine."""
        if len(text) > self.max_chars:
            text = self._cut(text)
        self._recorded += 1
        self._main.append((next(self._seq), time - self.origin, RECEIVED, text))

    def stderr(self, time: float, text: str) -> None:
        """Record a line the engine wrote to stderr."""
        self.record(time, STDERR, text)

    def note(self, time: float, text: str) -> None:
        """Record a remark of the referee (start, exit status, errors)."""
        self.record(time, NOTE, text)

    def last_stderr(self, count: int) -> list[str]:
        """The last ``count`` stderr lines kept, oldest first (texts only)."""
        return [entry[3] for entry in list(self._stderr)[-count:]] if count > 0 else []

    def last_exchanged(self, count: int) -> list[str]:
        """The last ``count`` protocol lines kept, oldest first, as ``"> sent"`` or
        ``"< received"`` (the referee's notes left out)."""
        found: list[str] = []
        for _, _, marker, text in reversed(self._main):
            if len(found) >= count:
                break
            if marker != NOTE:
                found.append(f"{marker} {text}")
        return found[::-1]

    @property
    def dropped(self) -> int:
        """How many protocol and note lines fell out of the ring."""
        return self._recorded - len(self._main)

    @property
    def dropped_stderr(self) -> int:
        """How many stderr lines fell out of their ring."""
        return self._recorded_stderr - len(self._stderr)

    @property
    def mark(self) -> int:
        """The sequence number the next recorded line gets (for ``lines_since``)."""
        return self._recorded + self._recorded_stderr

    def lines_since(self, mark: int) -> list[str]:
        """The kept lines recorded at or after ``mark`` (a past ``self.mark``), formatted,
        in recording order. Lines that fell out of the rings are not there."""
        newer: list[_Entry] = []
        for ring in (self._main, self._stderr):
            for entry in reversed(ring):
                if entry[0] < mark:
                    break
                newer.append(entry)
        newer.sort()  # by sequence number, which is unique
        # As ``TranscriptLine.format`` does, without making each line a named tuple.
        return [f"{time:9.3f} {marker} {text}" for _, time, marker, text in newer]

    def entries(self) -> list[TranscriptLine]:
        """Every line kept, in recording order."""
        merged = [*self._main, *self._stderr]
        if self._stderr and self._main:
            merged.sort()  # by sequence number, which is unique
        return [TranscriptLine(*entry) for entry in merged]

    def lines(self) -> list[str]:
        """Every line kept, formatted, in recording order; a first line tells what was dropped."""
        out = [line.format() for line in self.entries()]
        if self.dropped or self.dropped_stderr:
            out.insert(
                0,
                f"# {self.dropped} earlier protocol lines and "
                f"{self.dropped_stderr} earlier stderr lines were dropped",
            )
        return out

    def dump(self, path: str | Path) -> None:
        """Write ``lines()`` to ``path`` as UTF-8, one per line."""
        text = "\n".join(self.lines())
        Path(path).write_text(text + "\n" if text else "", encoding="utf-8")

    def __len__(self) -> int:
        return len(self._main) + len(self._stderr)
