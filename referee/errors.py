"""Errors raised by the rules layer, and ``UserError``, the base of every error of input.

::

    UserError                  (the base of input errors of every layer; see below)
    RulesError
    ├── UnknownGameError       no registered game has that id or alias
    ├── InvalidOptionError     unknown rule option, bad value, or bad player count
    ├── InvalidMoveError       move text that does not parse in the game's notation
    ├── IllegalMoveError       a well-formed move that is not legal in the position
    └── InvalidPositionError   an encoded position that is malformed or inconsistent

Every message is one human-readable line; callers show it as is.
"""

from __future__ import annotations


class UserError(ValueError):
    """Input the user can fix: a config, a record, an engine's setup, a command's
    arguments. The command line prints it as one line (exit status 2); any other
    exception is a bug and shows its traceback.

    It is a ``ValueError`` so that the code that caught these errors as ``ValueError``
    still does."""


class RulesError(UserError):
    """Base class of every error the rules layer raises on bad input."""


class UnknownGameError(RulesError):
    """No registered game has this id or alias."""


class InvalidOptionError(RulesError):
    """A rule option name or value, or a player count, that the game does not accept."""


class InvalidMoveError(RulesError):
    """Move text that is not a well-formed move in the game's canonical notation."""


class IllegalMoveError(RulesError):
    """A well-formed move that is not legal in the given position."""


class InvalidPositionError(RulesError):
    """An encoded position string that is malformed or describes an impossible state."""
