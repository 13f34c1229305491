"""Errors raised by the rules layer, and ``UserError``, the base of every error of input.

::

    UserError                  (the base of input errors of every layer; see below)
    ├── PathError              a file or folder the user named cannot be opened or written
    └── RulesError
        ├── UnknownGameError       no registered game has that id or alias
        ├── InvalidOptionError     unknown rule option, bad value, or bad player count
        ├── InvalidMoveError       move text that does not parse in the game's notation
        ├── IllegalMoveError       a well-formed move that is not legal in the position
        └── InvalidPositionError   an encoded position that is malformed or inconsistent

Every message is one human-readable line; callers show it as is.

``UserError`` is defined in ``protocol.errors`` (the lowest layer, whose engine-setup
errors are input errors too) and is the same class here. The other input errors
subclass it where they are raised: ``ConfigError`` (a tournament config),
``RecordSyntaxError`` and ``TagError`` (a record), ``EngineSetupError`` (an engine's
command, build or sandbox), ``JournalError``, ``OpeningError``, ``ClusterError`` and
the rest. A ``ValueError`` that is not one of them is a bug (a broken contract between
modules); a caller that hands on the user's value converts the library's
``ValueError`` into a ``UserError`` naming where the value came from. ``leaves`` flattens
the exception group a trio nursery raises, so each caller can tell which kind it holds.
"""

from __future__ import annotations

from protocol.errors import UserError as UserError


def leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    """The errors inside ``group`` and its nested groups, depth first, in order: what a
    trio nursery's group holds once flattened, for the callers that decide whether it is
    one user error (one line) or a bug (its traceback)."""
    found: list[BaseException] = []
    for error in group.exceptions:
        found += leaves(error) if isinstance(error, BaseExceptionGroup) else [error]
    return found


class PathError(UserError):
    """A file or folder the user named that cannot be opened, read or written (missing,
    a directory where a file belongs, no rights, a full disk). Raised where the path is
    opened, with the path and the system's reason in one line (``path_error``)."""


def path_error(path: object, error: OSError, doing: str = "cannot read") -> PathError:
    """``PathError`` for ``error`` met while ``doing`` something with ``path``: one line,
    ``cannot read games.tgn: No such file or directory``."""
    return PathError(f"{doing} {path}: {error.strerror or error}")


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
