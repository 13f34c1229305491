"""Every command's help, walked from the command tree ``main`` runs (so a command added
later is checked too): readable metavars, help on every option, defaults shown."""

from __future__ import annotations

from typing import Any

import pytest

from tests.clirun import cli
from tournaments.cli.app import cli_command

TYPE_LABELS = ("<bool>", "list[str]", "<int", "<str>", "<float", "<path>", "x>=", "x<=", "{", "[[")
"""What Typer shows by itself and a person should not have to read."""


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found += _commands(sub, (*path, name))
    return found


COMMANDS = _commands(cli_command())


def test_the_tree_has_the_commands() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"", "play", "tournament", "standings", "adjudicate", "report", "serve"} <= names


@pytest.mark.parametrize(
    ("path", "command"), COMMANDS, ids=[" ".join(p) or "referee" for p, _ in COMMANDS]
)
def test_every_option_has_help_and_a_readable_metavar(
    path: tuple[str, ...],
    command: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bare = [p.name for p in command.params if not p.hidden and not (p.help or "").strip()]
    assert not bare, f"referee {' '.join(path)}: no help for {bare}"
    monkeypatch.setenv("COLUMNS", "200")
    status, out, err = cli(capsys, *path, "--help")
    assert status == 0, err
    for label in TYPE_LABELS:
        assert label not in out, f"referee {' '.join(path)} --help shows {label!r}:\n{out}"


def test_help_says_what_was_written(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # brackets in a help text are text, not rich markup that would swallow them
    monkeypatch.setenv("COLUMNS", "200")
    _, out, _ = cli(capsys, "tournament", "--help")
    assert "even if the file has [cluster]." in out and "despite )" not in out
    assert "tournament [OPTIONS] [CONFIG.toml]" in out
    _, out, _ = cli(capsys, "play", "--help")
    assert "default 10+0.1" in out  # play's time control, though the option's default is None
    assert "[default: 2]" in out  # the number of games
