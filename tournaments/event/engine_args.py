"""The command line's ``KEY=VALUE`` text, read in one place: ``--option``, ``-e/--engine``
and ``--each`` of ``play`` and ``tournament``.

An ``-e`` argument is one of two kinds:

- a plain form, as before: a built-in name (``greedy``, with the bot's own arguments:
  ``greedy --seed 2``), a command line, or ``NAME=COMMAND``;
- settings in the manner of cutechess-cli and fastchess: ``KEY=VALUE`` words split like a
  shell line (quote a value with blanks), e.g. ``name=mine cmd=./my-engine tc=10+0.1
  nodes=2000 depth=12 option.Threads=1 dir=engines/mine sandbox=bwrap restart=on``.

It is read as settings when every word is ``KEY=VALUE`` and at least one key is one of
``setting_keys()`` (so ``mine=./engine`` stays ``NAME=COMMAND``); then every key must be
known and ``cmd`` must be there. The keys are a config entrant's (``EntrantConfig``: each
key's kind, text, whole number or switch, is read from the model's own fields), with
cutechess's spellings beside them (``cmd``, ``dir``, ``option.NAME``, ``st``,
``plies`` for ``depth``); the
result is the mapping a config file's ``[[entrants]]`` table gives, so the config's own
validation checks the values' ranges.

``--each`` takes the same settings (not ``name``, ``cmd`` or ``args``: those are each
engine's own) and fills, in every entrant, only the keys it does not set itself
(``fill_unset``; ``option.``/``env.`` key by key).
"""

from __future__ import annotations

import functools
import os
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

from referee.errors import UserError

_WORD = re.compile(r"^([A-Za-z_][A-Za-z0-9_.-]*)=(.*)$", re.DOTALL)

_ALIASES = {"cmd": "command", "dir": "cwd", "plies": "depth"}
"""cutechess/fastchess spellings of a config entrant's keys."""

_UNIONS = (Union, UnionType)


@dataclass(frozen=True, slots=True)
class _Keys:
    """The keys of an ``-e`` setting by kind, read from ``EntrantConfig`` (``_keys``)."""

    text: tuple[str, ...]
    """``name``, ``command``, ``cwd``, ``tc``, ``sandbox``: as written (the config checks them)."""
    whole: tuple[str, ...]
    """The limits (``nodes``, ``depth``, ``max_memory_mb``...): whole numbers."""
    switch: tuple[str, ...]
    """``restart``: a yes/no switch."""
    setting: tuple[str, ...]
    """Every key of an ``-e`` setting, as the help and the errors list them."""


@functools.cache
def _keys() -> _Keys:
    """The keys of an ``-e`` setting, read from ``EntrantConfig`` on first use (then
    kept): each key's kind is read from the model itself, so a key added there is an
    ``-e`` setting with no change here. Read here, not when the module is: ``--option``
    of ``perft``, ``moves`` and ``check-engine`` uses ``key_values`` and needs no config
    model, and engine authors start those commands in loops."""
    from tournaments.event.config import EntrantConfig

    def holding(*kinds: Any) -> tuple[str, ...]:
        # The keys whose value (None aside) is one of ``kinds``, in the model's order.
        found = []
        for name, info in EntrantConfig.model_fields.items():
            hint = info.annotation
            members = (
                set(get_args(hint)) - {type(None)} if get_origin(hint) in _UNIONS else {hint}
            )
            if all(m in kinds or get_origin(m) in kinds for m in members):
                found.append(name)
        return tuple(found)

    text, whole, switch = holding(str, Literal), holding(int), holding(bool)
    setting = tuple(
        dict.fromkeys(
            ("name", "cmd", "command", "args", "dir", "cwd", "tc", "st", "plies", "sandbox",
             *switch, *text, *whole, "option.NAME", "env.NAME")
        )
    )  # fmt: skip
    return _Keys(text=text, whole=whole, switch=switch, setting=setting)


def setting_keys() -> tuple[str, ...]:
    """The keys of an ``-e`` setting, as the help and the errors list them."""
    return _keys().setting


_PREFIXES = {"option": "options", "env": "env"}
"""``option.NAME=V`` and ``env.NAME=V``: one engine option or environment variable."""
_OWN_KEYS = ("name", "command", "args")
"""What ``--each`` cannot set: every engine has its own."""
_ON = {"on": True, "yes": True, "true": True, "1": True}
_OFF = {"off": False, "no": False, "false": False, "0": False}


class EngineArgError(UserError):
    """A ``KEY=VALUE`` argument that does not read; ``str()`` is one line naming it."""


def key_value(pair: str, what: str) -> tuple[str, str]:
    """``KEY=VALUE`` split at the first ``=``, both stripped (the value may hold ``=``).

    :raises EngineArgError: no ``=``, or an empty key or value.
    """
    key, eq, value = pair.partition("=")
    if not eq or not key.strip() or not value.strip():
        raise EngineArgError(f"bad {what} {pair!r}: expected key=value")
    return key.strip(), value.strip()


def key_values(pairs: Iterable[str] | None, what: str) -> dict[str, str]:
    """Repeated ``KEY=VALUE`` options (``--option``) as a mapping; a repeated key's last
    value wins. :raises EngineArgError: as ``key_value``."""
    return dict(key_value(pair, what) for pair in pairs or ())


def _words(text: str, what: str) -> list[str]:
    try:
        return shlex.split(text, posix=True)
    except ValueError as exc:
        raise EngineArgError(f"bad {what} {text!r}: {exc}") from None


def _is_setting_key(key: str) -> bool:
    head = key.split(".", 1)[0]
    return key in setting_keys() or (head in _PREFIXES and "." in key)


def is_settings(text: str) -> bool:
    """Whether an ``-e`` argument is cutechess-style settings (see the module's rule)."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        return False
    matches = [_WORD.match(word) for word in words]
    if not words or any(m is None for m in matches):
        return False
    return any(_is_setting_key(m.group(1)) for m in matches if m is not None)


def parse_settings(text: str, what: str) -> dict[str, Any]:
    """``KEY=VALUE`` words as a config entrant's keys, values typed as a config file
    types them (whole numbers, ``restart`` a yes/no switch, option values text).

    :raises EngineArgError: a word that is not ``KEY=VALUE``, an unknown key, a key given
        twice, or a value of the wrong kind (one line naming the word).
    """
    found: dict[str, Any] = {}
    args: list[str] = []
    for word in _words(text, what):
        match = _WORD.match(word)
        if match is None:
            raise EngineArgError(f"bad {what} {text!r}: {word!r} is not KEY=VALUE")
        key, value = match.group(1), match.group(2)
        head, dot, rest = key.partition(".")
        if dot and head in _PREFIXES:
            section = found.setdefault(_PREFIXES[head], {})
            if not rest or rest in section:
                problem = "empty name" if not rest else "given twice"
                raise EngineArgError(f"bad {what} {text!r}: {key}: {problem}")
            section[rest] = value
            continue
        if key == "args":  # fastchess's args=: more arguments after the command
            args.append(value)
            continue
        if key == "st":  # cutechess's st=SECONDS: a fixed time per move
            key, value = "tc", f"movetime={value}"
        key = _ALIASES.get(key, key)
        if key in found:
            raise EngineArgError(f"bad {what} {text!r}: {key} given twice")
        found[key] = _typed(key, value, what, text)
    if args:
        found["args"] = " ".join(args)
    return found


def _typed(key: str, value: str, what: str, text: str) -> Any:
    keys = _keys()
    if key in keys.text:
        if not value:
            raise EngineArgError(f"bad {what} {text!r}: {key} is empty")
        return value
    if key in keys.whole:
        if not value.isdigit():
            raise EngineArgError(f"bad {what} {text!r}: {key}={value!r}: expected a whole number")
        return int(value)
    if key in keys.switch:
        switch = {**_ON, **_OFF}.get(value.lower())
        if switch is None:
            raise EngineArgError(f"bad {what} {text!r}: {key}={value!r}: expected on or off")
        return switch
    if key == "proto":
        raise EngineArgError(
            f"bad {what} {text!r}: proto: every engine speaks this referee's one protocol"
            " (protocol/SPEC.md); leave proto= out"
        )
    known = ", ".join(keys.setting)
    raise EngineArgError(f"bad {what} {text!r}: unknown key {key!r} (known: {known})")


def engine_entrant(text: str) -> dict[str, Any]:
    """One ``-e`` argument as a config entrant mapping (``name``, ``command``, ...).

    A plain form gives ``{"command": TEXT}`` or, for ``NAME=COMMAND``, the name too
    (``resolve_engine`` reads the command). Settings give their keys, ``args`` appended
    to the command.

    :raises EngineArgError: settings that do not read, or without ``cmd``.
    """
    if not is_settings(text):
        name, eq, command = text.partition("=")
        # NAME=COMMAND, unless the '=' belongs to the command (``./x --depth=3``).
        if eq and name and command.strip() and all(c.isalnum() or c in "_.+-#" for c in name):
            return {"name": name, "command": command.strip()}
        return {"command": text}
    entrant = parse_settings(text, "-e")
    if "command" not in entrant:
        raise EngineArgError(f"bad -e {text!r}: no cmd= (the engine's command)")
    args = entrant.pop("args", None)
    if args is not None:
        entrant["command"] = f"{entrant['command']} {args}"
    return entrant


def each_settings(texts: Sequence[str] | None) -> dict[str, Any]:
    """The ``--each`` arguments (each one or more ``KEY=VALUE`` words) as one mapping.

    :raises EngineArgError: as ``parse_settings``, a key of an engine's own (``name``,
        ``cmd``, ``args``), or one key given twice with different values.
    """
    merged: dict[str, Any] = {}
    for text in texts or ():
        settings = parse_settings(text, "--each")
        own = [key for key in _OWN_KEYS if key in settings]
        if own:
            raise EngineArgError(
                f"bad --each {text!r}: {own[0]} is each engine's own: give it with -e"
            )
        for key, value in settings.items():
            old = merged.get(key)
            if isinstance(value, dict):
                for inner, item in value.items():
                    if old is not None and old.get(inner, item) != item:
                        raise EngineArgError(f"--each gives {key}.{inner} twice")
                merged[key] = {**(old or {}), **value}
            elif old is not None and old != value:
                raise EngineArgError(f"--each gives {key} twice: {old!r} and {value!r}")
            else:
                merged[key] = value
    return merged


def fill_unset(entrant: Mapping[str, Any], each: Mapping[str, Any]) -> dict[str, Any]:
    """``entrant`` with every ``each`` key it does not set (an absent or null key);
    ``options`` and ``env`` merged name by name, the entrant's own values winning."""
    filled = dict(entrant)
    for key, value in each.items():
        if isinstance(value, dict):
            own = filled.get(key)
            filled[key] = {**value, **(own if isinstance(own, dict) else {})}
        elif filled.get(key) is None:
            filled[key] = value
    return filled


ENTRANTS_MODES = ("add", "replace")
"""How ``-e`` entrants meet a config file's: added after them, or instead of them."""


def _anchored(entrant: dict[str, Any], here: str) -> dict[str, Any]:
    # A command line's dir= is relative to where the command runs, not to a config file
    # (whose own entrants' cwd is relative to the file): made absolute here.
    cwd = entrant.get("cwd")
    if isinstance(cwd, str) and not os.path.isabs(cwd):
        return {**entrant, "cwd": os.path.normpath(os.path.join(here, cwd))}
    return entrant


def command_line_entrants(
    file_entrants: Sequence[Any] | None,
    engines: Sequence[str],
    each: Mapping[str, Any],
    *,
    mode: str | None,
    source: str,
    here: str,
) -> tuple[list[Any] | None, list[str]]:
    """The entrants of an event once ``-e`` and ``--each`` are applied, and notes saying
    what happened to a config file's entrants; None when the options change nothing.

    ``file_entrants`` are the config file's (None without a file). ``-e`` entrants are
    added after the file's (``mode`` ``add``, the default) or replace them
    (``replace``); ``--each`` fills every entrant's unset keys, the file's too.
    ``dir=`` values are made absolute against ``here``.

    :raises EngineArgError: a bad ``-e`` or ``--entrants``, or ``--entrants`` without a
        file or without ``-e``.
    """
    if mode is not None and mode not in ENTRANTS_MODES:
        raise EngineArgError(f"bad --entrants {mode!r}: expected add or replace")
    if mode is not None and file_entrants is None:
        raise EngineArgError("--entrants says how -e meets a config file's entrants: give a file")
    if mode is not None and not engines:
        raise EngineArgError(f"--entrants {mode} without -e: no entrant to {mode}")
    added = [_anchored(engine_entrant(text), here) for text in engines]
    notes: list[str] = []
    entrants: list[Any] | None = None
    if added and file_entrants is not None:
        count = len(file_entrants)
        if (mode or "add") == "add":
            entrants = [*file_entrants, *added]
            notes.append(
                f"{len(added)} entrant(s) from -e added to the {count} of {source}"
                " (--entrants replace plays only those of -e)"
            )
        else:
            entrants = added
            notes.append(f"-e replaces the {count} entrant(s) of {source}")
    elif added:
        entrants = added
    elif each and file_entrants is not None:
        entrants = list(file_entrants)
    if entrants is not None and each:
        anchored = _anchored(dict(each), here)
        entrants = [fill_unset(e, anchored) if isinstance(e, dict) else e for e in entrants]
    return entrants, notes
