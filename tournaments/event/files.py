"""The user's input files of an event (a config, an openings book), read whole, but never
more than ``MAX_INPUT_BYTES`` of them: such a file is small, and a wrong path (a 10 GB
record file, ``/dev/zero``) filled the memory before anything could be said about it.
"""

from __future__ import annotations

from pathlib import Path

MAX_INPUT_BYTES = 64 << 20
"""The largest config or openings file read (64 MiB)."""


class TooLarge(Exception):
    """The file holds more than the limit; the caller names the file in its own error."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"over {limit:,} bytes (the limit for this file)")


def read_input_text(path: Path, limit: int | None = None) -> str:
    """The UTF-8 text of the file at ``path``, reading at most ``limit`` (default
    ``MAX_INPUT_BYTES``) + 1 bytes.

    :raises OSError: the file cannot be opened or read.
    :raises UnicodeDecodeError: it is not UTF-8.
    :raises TooLarge: it holds more than ``limit`` bytes (or never ends: a device).
    """
    limit = MAX_INPUT_BYTES if limit is None else limit
    with path.open("rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(limit)
    return data.decode("utf-8")
