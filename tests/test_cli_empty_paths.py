"""An empty path given to an option that writes (``--out ""``, a shell variable that was
not set) is refused in one line: ``Path("")`` is the current folder, written into unasked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.clirun import cli

ENGINES = ("-e", "random", "-e", "random")

CASES = [
    ("play", ("play", "trike", *ENGINES, "--games", "1", "--out", ""), "'--out'"),
    ("tournament", ("tournament", "-g", "trike", *ENGINES, "--games", "1", "--out", ""),
     "'--out' / '-o'"),
    ("tournament-o", ("tournament", "-g", "trike", *ENGINES, "--games", "1", "-o", ""),
     "'--out' / '-o'"),
    ("report", ("report", "{dir}", "--out", ""), "'--out' / '-o'"),
    ("adjudicate", ("adjudicate", "{dir}/x.tgn", "--html", ""), "'--html'"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "named"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_empty_output_path_is_refused(
    args: tuple[str, ...],
    named: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    args = tuple(a.format(dir=tmp_path) for a in args)
    code, _, err = cli(capsys, *args)
    assert code == 2, err
    assert err == (
        f"referee: error: Invalid value for {named}: an empty path (it would mean the current"
        f" folder) (see 'referee {args[0]} --help')\n"
    )
    assert os.listdir(here) == []  # nothing written where the command ran
