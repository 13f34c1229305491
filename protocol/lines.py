"""Sans-I/O line framing for engine output: bytes in, complete text lines out.

A line ends at ``\\n``; one ``\\r`` before it is dropped (engines written on Windows);
the bytes are decoded as UTF-8 with replacement, so no byte sequence is an error.

``LineBuffer`` enforces the protocol's line-length limit on stdout: a line (not
counting its terminator) longer than ``max_line_bytes`` is a ``ProtocolViolation``,
raised as soon as the pending partial line passes the limit. It never holds more
than the limit plus one received chunk, so an engine that writes 100 MB without a
newline costs a violation, not the referee's memory.

``LossyLineBuffer`` frames stderr, where nothing is a violation: it truncates
long lines and drops the excess bytes instead of keeping them.
"""

from __future__ import annotations

from protocol.errors import ProtocolViolation

MAX_LINE_BYTES = 1 << 16
"""The protocol's limit on one line, in bytes, without the terminator (SPEC.md)."""


def _shown(raw: bytes | bytearray, limit: int = 60) -> str:
    text = bytes(raw[:limit]).decode("utf-8", "replace")
    return repr(text + "..." if len(raw) > limit else text)


class LineBuffer:
    """Split a byte stream into lines, enforcing a maximum line length.

    ``feed`` is called with each chunk as it arrives and returns the lines it
    completes, in order. After it has raised, the buffer is empty and the stream
    should be abandoned (the partial line is gone).
    """

    __slots__ = ("_limit", "_pending")

    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be positive")
        self._limit = max_line_bytes
        self._pending = bytearray()

    @property
    def max_line_bytes(self) -> int:
        """The longest line accepted, in bytes, not counting ``\\r\\n`` or ``\\n``."""
        return self._limit

    @property
    def pending(self) -> int:
        """The number of bytes held: the partial line after the last ``\\n``."""
        return len(self._pending)

    def feed(self, data: bytes) -> list[str]:
        """Add ``data`` and return every line it completes (possibly none).

        :raises ProtocolViolation: a complete line, or the pending partial line,
            is longer than ``max_line_bytes``.
        """
        limit = self._limit
        pending = self._pending
        if not pending and data and data.find(b"\n") == len(data) - 1:
            # The usual chunk: exactly one whole line (a reply), nothing held before it.
            raw = data[:-2] if data.endswith(b"\r\n") else data[:-1]
            if len(raw) <= limit:
                return [raw.decode("utf-8", "replace")]
        if b"\n" not in data:
            size = len(pending) + len(data)
            # A partial line of exactly ``limit`` bytes may still be followed by "\r\n".
            if size > limit and not (size == limit + 1 and data.endswith(b"\r")):
                self._overflow(pending, data)
            pending += data
            return []
        parts = data.split(b"\n")
        tail = parts.pop()
        if pending:
            parts[0] = bytes(pending) + parts[0]
            pending.clear()
        lines: list[str] = []
        for raw in parts:
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            if len(raw) > limit:
                pending.clear()
                raise ProtocolViolation(
                    f"line too long: {len(raw)} bytes, the limit is {limit}: {_shown(raw)}"
                )
            lines.append(raw.decode("utf-8", "replace"))
        if tail:
            if len(tail) > limit and not (len(tail) == limit + 1 and tail.endswith(b"\r")):
                self._overflow(pending, tail)
            pending += tail
        return lines

    def _overflow(self, pending: bytearray, data: bytes) -> None:
        head = bytes(pending[:60]) if pending else data[:60]
        pending.clear()
        raise ProtocolViolation(
            f"line too long: over {self._limit} bytes without a newline: {_shown(head)}"
        )


class LossyLineBuffer:
    """Split a byte stream into lines, truncating instead of failing.

    Lines longer than ``max_line_bytes`` are cut at the limit and marked with a
    trailing ``" [...]"``; the bytes beyond the limit are discarded as they
    arrive, so memory stays bounded whatever the stream holds.
    """

    __slots__ = ("_dropping", "_limit", "_pending")

    def __init__(self, max_line_bytes: int = 1024) -> None:
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be positive")
        self._limit = max_line_bytes
        self._pending = bytearray()
        self._dropping = False

    @property
    def pending(self) -> int:
        """The number of bytes held (at most ``max_line_bytes``)."""
        return len(self._pending)

    def feed(self, data: bytes | bytearray) -> list[str]:
        """Add ``data`` and return every line it completes, each truncated to the limit."""
        parts = data.split(b"\n")
        tail = parts.pop()
        lines = [self._take(raw) for raw in parts]
        self._add(tail)
        return lines

    def flush(self) -> list[str]:
        """Return the partial last line, if any (call at end of stream)."""
        if not self._pending and not self._dropping:
            return []
        return [self._take(b"")]

    def _add(self, raw: bytes | bytearray) -> None:
        room = self._limit - len(self._pending)
        if len(raw) > room:
            self._dropping = True
            raw = raw[:room]
        self._pending += raw

    def _take(self, raw: bytes | bytearray) -> str:
        self._add(raw)
        line = bytes(self._pending)
        if line.endswith(b"\r"):
            line = line[:-1]
        text = line.decode("utf-8", "replace")
        if self._dropping:
            text += " [...]"
        self._pending.clear()
        self._dropping = False
        return text
