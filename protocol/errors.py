"""The one error tree for engine failures, raised by the codec and the session.

::

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


class EngineError(Exception):
    """Base class of every engine failure. The message is one human-readable line."""


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

    ``overrun`` is how far past the deadline the referee waited, in seconds.
    """

    def __init__(self, message: str, *, overrun: float = 0.0) -> None:
        super().__init__(message)
        self.overrun = overrun


class ProtocolViolation(EngineError):
    """A line that is not in the protocol grammar, or not allowed at this point."""
