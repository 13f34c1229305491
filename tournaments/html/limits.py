"""The report's size limits, apart from the code that draws it: ``referee report``'s help
names them, and reading them must not read the pages (``referee --help`` does)."""

from __future__ import annotations

DEFAULT_MAX_POSITIONS = 5000
"""Positions drawn per report by default: about 1 kB of page each once shared parts are
stored once (``html_replay.FramePool``), and well under 1 ms of drawing each."""

SINGLE_LIMIT = 1000
"""``auto``: events of up to this many games get the single page."""
