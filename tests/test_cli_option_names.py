"""Errors about an option name the option the user typed (``--movetime``), never the
config key it becomes (``movetime_ms``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import cli

ENGINES = ("-e", "random", "-e", "random")
INTERNAL_KEYS = ("movetime_ms", "margin_ms", "command line:", " tc:")

CASES = [
    (("--movetime", "0"), "'--movetime'"),
    (("--movetime", "-5"), "'--movetime'"),
    (("--margin", "-1"), "'--margin'"),
    (("--tc", "0"), "--tc: bad time control '0'"),
    (("--tc", "fast"), "--tc: bad time control 'fast'"),
    (("--tc", "1+0", "--movetime", "100"), "give either --tc or --movetime, not both"),
]


@pytest.mark.parametrize("command", ["play", "tournament"])
@pytest.mark.parametrize(("args", "named"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_a_bad_clock_option_is_named_as_typed(
    command: str,
    args: tuple[str, ...],
    named: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    where = ("trike",) if command == "play" else ("-g", "trike", "--games", "2")
    out = str(tmp_path / "out")
    code, _, err = cli(capsys, command, *where, *ENGINES, *args, "--out", out)
    assert code == 2, err
    assert err.count("\n") == 1 and named in err, err
    assert not any(key in err for key in INTERNAL_KEYS), err
    assert not Path(out).exists()


def test_bench_names_its_tc_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "bench", "-c", "1", "--tc", "fast")
    assert code == 2
    assert err.startswith("referee: error: --tc: bad time control 'fast': expected")
    assert err.count("\n") == 1 and "bench: tc" not in err
