"""Help a person reads: every command's options shown with plain metavars.

Typer labels values by their Python type (``<bool>``, ``<list[str]>``, ``<int range>
[x>=1]``) and wraps required arguments in braces (``{GAME}``) and optional ones in
brackets. ``readable(command)`` changes a command (and a group's commands made so far)
before it runs (``app`` gives it the root, then each command as it is made), and turns
that into what cutechess or fastchess users expect:

* a flag shows no value at all (``--quiet``, not ``--quiet <bool>``);
* a value shows its metavar: the one the option declares (``GAME``, ``FILE``, ``DIR``,
  ``B+I``), else ``N`` for a whole number, ``X`` for a decimal, ``PATH`` for a path,
  and the option's own name in capitals for text (``--event`` → ``EVENT``);
* a number's range is said in the help text ("at least 1"), not as ``[x>=1]``;
* an argument is shown by its name, ``GAME`` or ``[CONFIG.toml]`` when it may be left out.

It applies to commands added later without any work: ``tests/test_cli_help.py`` walks
every command's help and fails on a type label or an option without help.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from typer.core import TyperArgument, TyperGroup, TyperOption

# Typer renders help through the methods overridden here (its own vendored click): a
# change there shows at once in tests/test_cli_help.py.


class _ReadableOption(TyperOption):
    def display_type_rich(self, ctx: Any) -> str | None:
        if self.is_flag or self.count:
            return None
        return self.metavar

    def _get_number_range_help_str(self) -> str | None:
        return None


class _ReadableArgument(TyperArgument):
    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if not self.required:
            name = f"[{name}]"
        many = self.nargs != 1 and not name.endswith("...")
        return name + ("..." if many else "")

    def _get_number_range_help_str(self) -> str | None:
        return None


def _range_words(param: TyperOption | TyperArgument) -> str:
    low, high = param.min, param.max
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""


_KNOWN = {
    "--engine": "CMD",
    "--tc": "B+I",
    "--movetime": "MS",
    "--margin": "MS",
    "--option": "K=V",
    "--game": "GAME",
    "--players": "N",
    "--format": "FORMAT",
    "--resign": "RULE",
    "--draw": "RULE",
    "--openings": "FILE",
    "--sprt": "ELO0,ELO1",
    "--seat-order": "all|cyclic",
    "--timeout": "SECONDS",
    "--start": "POS",
    "--event": "NAME",
    "--html": "FILE.html",
    "--svg": "FILE.svg",
    "--host": "HOST",
    "--port": "PORT",
    "--transcripts": "failures|all|none",
}
"""Metavars of options that several commands share, when the option names none."""


def _metavar(param: TyperOption) -> str:
    kind = param.type_descriptor
    annotation = kind.annotation
    for name in param.opts:
        if name in _KNOWN and annotation is not int:  # show's --game is a number
            return _KNOWN[name]
    if kind.is_path:
        return "PATH"
    if annotation is int or annotation == list[int]:
        return "N"
    if annotation is float or annotation == list[float]:
        return "X"
    return max(param.opts, key=len).lstrip("-").upper()


def _readable_param(param: Any) -> None:
    if param.help:  # help is rich markup: "[cluster]" would vanish as a style tag
        param.help = escape(param.help)
    if isinstance(param, TyperOption):
        if not (param.is_flag or param.count) and param.metavar is None:
            param.metavar = _metavar(param)
        words = _range_words(param)
        if words and param.help and words not in param.help:
            param.help = f"{param.help.rstrip('.')} ({words})."
        param.__class__ = _ReadableOption
    elif isinstance(param, TyperArgument):
        name = param.metavar if param.metavar is not None else (param.name or "value").upper()
        param.metavar = name.strip("[]")
        words = _range_words(param)
        if words and param.help and words not in param.help:
            param.help = f"{param.help.rstrip('.')} ({words})."
        param.__class__ = _ReadableArgument


def readable(command: Any) -> Any:
    """``command`` and every subcommand with readable help (changed in place)."""
    for param in command.params:
        _readable_param(param)
    make_help_option = command.get_help_option  # built per run, outside ``params``

    def help_option(ctx: Any) -> Any:
        option = make_help_option(ctx)
        if option is not None:
            _readable_param(option)
        return option

    command.get_help_option = help_option
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            readable(sub)
    return command
