"""Golden files: compare a generated text with its checked-in copy, or rewrite it."""

from __future__ import annotations

import os
from pathlib import Path


def check_golden(path: Path, text: str) -> None:
    """Assert ``text`` equals the file at ``path``; with ``UPDATE_GOLDEN=1``, write it first."""
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"{path} differs: check, then run with UPDATE_GOLDEN=1"
