"""The one error tree for engine failures, raised by the codec and the session; and
``UserError``, the base of every error of input in every layer.

::

    UserError                   input the user can fix (defined here, in the lowest
    │                           layer, so that every layer can raise one; the other
    │                           layers import it from ``referee.errors``)
    └── EngineSetupError        an engine that cannot be set up: its command does not
                                split, a built-in that cannot be built, no sandbox

The engine failures happen while a game is played and end it as a termination (a
forfeit or a void game), never as a user error::

    EngineError
    ├── EngineStartError        could not spawn, or the handshake failed
    │   └── EngineRefusedError  answered ``error`` to newgame or setoption
    ├── EngineTerminatedError   exited or closed its pipes
    ├── EngineTimeoutError      no terminal reply in time
    └── ProtocolViolation       a line that breaks the grammar or the sequence

``referee.match`` maps each class to a termination in one table. The codec raises
only ``ProtocolViolation``; any other exception escaping it is a bug.
"""

from __future__ import annotations

from collections.abc import Sequence

STDERR_TAIL_LINES = 5
"""At most this many of the engine's last stderr lines go into a failure's message."""
STDERR_TAIL_CHARS = 200
"""Each of them cut to this many characters."""
EXCHANGE_TAIL_LINES = 3
"""The last protocol lines exchanged that go into a failure's message."""
EXCHANGE_TAIL_CHARS = 100
"""Each of them cut to this many characters (a ``position`` line can be long)."""


class UserError(ValueError):
    """Input the user can fix: a config, a record, an engine's setup, a command's
    arguments, a path that cannot be opened. The command line prints it as one line
    (exit status 2); any other exception is a bug and shows its traceback.

    It is a ``ValueError`` so that the code that catches a bad value as ``ValueError``
    (a pydantic validator, a parser's caller that adds where the value came from) still
    does when the error it catches is a ``UserError``."""


class EngineSetupError(UserError):
    """An engine that cannot be set up before any game: a command that is empty or does
    not split, a built-in engine that cannot be built, a sandbox that cannot be made.
    The message is one line."""


def _cut(line: str, limit: int) -> str:
    """``line``, or its first ``limit - 3`` characters and ``...``."""
    return line if len(line) <= limit else line[: limit - 3] + "..."


class EngineError(Exception):
    """Base class of every engine failure. The message is one human-readable line.

    The session adds what the engine said last (``add_diagnostics``): its last
    stderr lines and the last protocol lines, kept as attributes and appended to the
    message, so every report of the failure (console, record ``Reason``,
    ``check-engine``) shows the cause the engine gave.
    """

    stderr_tail: tuple[str, ...] = ()
    """The engine's last stderr lines before the failure (at most ``STDERR_TAIL_LINES``,
    each cut to ``STDERR_TAIL_CHARS``), as written."""
    exchange_tail: tuple[str, ...] = ()
    """The last protocol lines exchanged, ``> sent`` or ``< received`` (at most
    ``EXCHANGE_TAIL_LINES``)."""
    diagnosed = False
    """True once ``add_diagnostics`` ran (a session's fatal error is raised again later:
    it is diagnosed once)."""

    @property
    def brief(self) -> str:
        """The message without the diagnostics: what the other engines at the table are
        told (``gameover … detail``). The failed engine's stderr is the owner's to read,
        not its opponents' (sandboxed engines learn nothing of each other)."""
        return self._brief if self.diagnosed else str(self)

    _brief = ""

    def add_diagnostics(
        self, stderr: Sequence[str], exchange: Sequence[str], hint: str = ""
    ) -> None:
        """Keep the tails of ``stderr`` and ``exchange`` and append them (and ``hint``)
        to the message, bounded: ``…; stderr: 'fatal: no weights'; last lines: '> go'``.
        Only the first call has an effect."""
        if self.diagnosed:
            return
        self.diagnosed = True
        self._brief = str(self)
        self.stderr_tail = tuple(
            _cut(line, STDERR_TAIL_CHARS) for line in stderr[-STDERR_TAIL_LINES:]
        )
        self.exchange_tail = tuple(
            _cut(line, EXCHANGE_TAIL_CHARS) for line in exchange[-EXCHANGE_TAIL_LINES:]
        )
        parts = [str(self)]
        if hint:
            parts.append(hint)
        # ``repr``: control characters escaped, so the message stays one line.
        if self.stderr_tail:
            parts.append("its stderr ended with: " + " | ".join(map(repr, self.stderr_tail)))
        if self.exchange_tail:
            parts.append("last protocol lines: " + " | ".join(map(repr, self.exchange_tail)))
        self.args = ("; ".join(parts), *self.args[1:])


class EngineStartError(EngineError):
    """The engine could not be started, or failed the handshake."""


class EngineRefusedError(EngineStartError):
    """The engine answered ``error`` to ``newgame`` (or to an option): it cannot play this.

    A subclass of ``EngineStartError`` because it happens before the first move
    request: the game is void, not forfeited.
    """


class EngineTerminatedError(EngineError):
    """The engine process exited or closed its output while the referee needed it."""


class EngineTimeoutError(EngineError):
    """The engine sent no terminal reply before the deadline.

    ``overrun`` is how far past the deadline the referee waited, in seconds; ``late``
    the referee's own lateness while the request ran (``protocol.lag``), when measured.
    """

    def __init__(self, message: str, *, overrun: float = 0.0, late: float = 0.0) -> None:
        super().__init__(message)
        self.overrun = overrun
        self.late = late


class ProtocolViolation(EngineError):
    """A line that is not in the protocol grammar, or not allowed at this point."""
