"""The messages of protocol version 1: immutable values.

Frozen dataclasses, but for the two commands of every ply, ``Position`` and ``Go``:
``NamedTuple``s, several times cheaper to make (a frozen dataclass sets each field
through ``object.__setattr__``), as immutable, and matched and compared by their
fields alike (change one with ``_replace``).

``Command`` is what the referee sends, ``Reply`` what an engine sends. The wire
form of each is in ``protocol/SPEC.md``; ``protocol.codec`` converts. Seats are
1-based on the wire and here. Times are integer milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

PROTOCOL_NAME = "rgp"
PROTOCOL_VERSION = 1


# --- referee -> engine ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """``rgp <version>``: opens the handshake."""

    version: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class SetOption:
    """``setoption name <name> value <value>``: set an engine option (no reply)."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class NewGame:
    """``newgame game <id> players <n> seat <k> seed <s> [options <k=v,...>]``.

    Answered by ``ok`` or ``error <text>``.
    """

    game: str
    players: int
    seat: int
    """The engine's own seat, 1-based."""
    seed: int
    options: tuple[tuple[str, str], ...] = ()
    """Every rule option, defaults included, in the game's order."""


class Position(NamedTuple):
    """``position start [moves m1 m2 ...]`` or ``position state <enc> [moves ...]`` (no reply)."""

    moves: Sequence[str] = ()
    """The move tokens since the start: a tuple, or a ``protocol.history.MoveHistory``
    (the match loop's, which lets a session build the line from the last one)."""
    state: str | None = None
    """An encoded start position; None means the game's initial position."""


class Go(NamedTuple):
    """``go [nodes <n>] [depth <d>] [time t1,... inc i1,... [movestogo <m>] | movetime <ms>]``.

    Answered by ``info`` lines, then ``move <token>`` or ``resign``. The search
    limits ``nodes`` and ``depth`` are sent only to an engine that declared them
    in the handshake (``feature nodes`` / ``feature depth``).
    """

    times: tuple[int, ...] | None = None
    """Remaining time of every seat in seat order, ms."""
    incs: tuple[int, ...] | None = None
    """Increment of every seat in seat order, ms (present exactly when ``times`` is)."""
    movetime: int | None = None
    """Fixed time for this move, ms."""
    nodes: int | None = None
    """Search at most this many nodes (the engine's own count), at least 1."""
    depth: int | None = None
    """Search at most this many plies deep, at least 1."""
    movestogo: int | None = None
    """Moves the seat to move must make before its next session's time is added, this
    one included, at least 1 (moves-per-session controls only; only with ``times``).
    Optional: an engine may ignore it, its clock lists are the same either way."""


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping <token>``: answered by ``pong <token>`` at any time."""

    token: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """``gameover result <r> reason <termination> [detail <text>]`` (no reply)."""

    result: str
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Quit:
    """``quit``: the engine exits."""


Command = Hello | SetOption | NewGame | Position | Go | Ping | GameOver | Quit


# --- engine -> referee ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IdReply:
    """``id name <text>`` or ``id author <text>``."""

    key: str
    """``name`` or ``author``."""
    value: str


@dataclass(frozen=True, slots=True)
class OptionReply:
    """``option name <n> type <t> default <d> [min <a>] [max <b>] [var <v>]...``."""

    name: str
    type: str
    """One of ``spin``, ``check``, ``combo``, ``string``."""
    default: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Feature:
    """``feature <name>...``: during the handshake, what the engine supports.

    Version 1 defines ``nodes`` and ``depth`` (it honours those ``go`` limits);
    other names are allowed and ignored, for later versions.
    """

    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HelloOk:
    """``rgpok``: ends the handshake."""


@dataclass(frozen=True, slots=True)
class Ok:
    """``ok``: accepts a ``newgame``."""


@dataclass(frozen=True, slots=True)
class Info:
    """``info <text>``: while thinking; kept in the transcript and the record.

    The text is free, or structured items that ``protocol.search_info.parse_info`` reads.
    """

    text: str


@dataclass(frozen=True, slots=True)
class MoveReply:
    """``move <token>``: the engine's move, an opaque token for the referee's rules."""

    move: str


@dataclass(frozen=True, slots=True)
class Resign:
    """``resign``: the engine gives up the game."""


@dataclass(frozen=True, slots=True)
class Pong:
    """``pong <token>``: answers ``ping <token>``."""

    token: str


@dataclass(frozen=True, slots=True)
class ErrorReply:
    """``error <text>``: the engine refuses the last command."""

    text: str


Reply = (
    IdReply | OptionReply | Feature | HelloOk | Ok | Info | MoveReply | Resign | Pong | ErrorReply
)
