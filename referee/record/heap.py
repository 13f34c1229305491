"""A steady heap for the record reader: large buffers always from their own mappings.

A game at the per-game byte cap makes the reader grow arrays of millions of offsets
(``referee.record.packed``), a realloc at a time. glibc serves a buffer of 128 KiB or more
from a mapping of its own, which grows in place and is returned whole, until the first
such buffer is freed: then it raises that threshold to the freed size (up to 32 MiB),
and the next big buffers come from the heap, where each growth may copy and leave a
hole. How much that costs depends on the order of every allocation before it, so one and
the same hostile game peaked at 120 MB in one process and 160 MB in another, against
the 150 MB that ``adjudicate --jobs N`` promises per process. Setting the threshold
once turns that adjustment off (glibc's documented ``mallopt``), and the peak stays at
about 95 MB wherever it runs.

Elsewhere (another C library, no ``mallopt``) nothing is changed.
"""

from __future__ import annotations

import ctypes

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter for the size from which a buffer gets its own mapping."""

MMAP_THRESHOLD = 128 * 1024
"""glibc's default threshold, kept fixed."""

_fixed = False


def fix_mmap_threshold() -> None:
    """Fix the process's mmap threshold at ``MMAP_THRESHOLD`` (once per process; cheap
    after the first call, so the reader calls it per batch)."""
    global _fixed
    if _fixed:
        return
    _fixed = True
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
