"""A blocking stdin/stdout engine loop for bots (no trio): the engine side of the protocol.

``run_engine(brain_factory, name=..., author=...)`` answers the handshake, ``ping``,
``newgame`` and ``go``, and asks a *brain* for moves. The loop is single-threaded: it
reads one command, answers it, flushes, and reads the next, so a ``ping`` sent during
a search is answered after the move.

The loop, not the brain, owns the game: ``newgame`` builds the rules object from the
registry (refusing an unknown game, bad options or seat count with ``error``), and each
``position`` updates a ``PositionTracker``, which applies only the moves appended
since the last line, so a long game costs time linear in its length. A brain is asked
for a move with the current ``State``; an illegal history is answered ``error`` at
``go``.

A brain implements ``Brain``. ``EngineLoop`` has one method per command so that
misbehaving bots (``bots.faulty_bot``) can override exactly what they break.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import BinaryIO, Protocol

from bots.position import AnyState, PositionTracker
from protocol.codec import format_reply, parse_command
from protocol.errors import ProtocolViolation
from protocol.messages import (
    PROTOCOL_VERSION,
    Command,
    ErrorReply,
    Feature,
    GameOver,
    Go,
    Hello,
    HelloOk,
    IdReply,
    Info,
    MoveReply,
    NewGame,
    Ok,
    OptionReply,
    Ping,
    Pong,
    Position,
    Quit,
    Reply,
    Resign,
    SetOption,
)
from protocol.search_info import SearchInfo, format_info
from referee.core import AnyGame
from referee.errors import RulesError
from referee.registry import make_game

RESIGN = "resign"
"""What ``Brain.choose`` returns to resign."""


Report = Callable[[SearchInfo], None]
"""Writes one ``info`` line at once (a brain's progress while it searches)."""


class Brain(Protocol):
    """The decision-making part of a bot; the loop does all the protocol work."""

    def newgame(self, game: AnyGame, cmd: NewGame) -> str | None:
        """Prepare for a game of ``game`` (the rules, built from ``cmd``, seat count
        checked). Return None to accept, or a one-line reason to refuse."""

    def choose(self, state: AnyState, go: Go, report: Report) -> str:
        """A move token for the side to move in ``state``, or ``"resign"``.

        ``report`` sends ``info`` lines. May raise ``ValueError``: the loop then
        answers ``error <message>``.
        """


class EngineLoop:
    """Reads commands from ``stdin``, writes replies to ``stdout`` (binary streams)."""

    def __init__(
        self,
        brain: Brain,
        *,
        name: str,
        author: str,
        options: Sequence[OptionReply] = (),
        features: Sequence[str] = (),
        stdin: BinaryIO | None = None,
        stdout: BinaryIO | None = None,
    ) -> None:
        self.brain = brain
        self.name = name
        self.author = author
        self.options = tuple(options)
        self.features = tuple(features)
        """``feature`` names declared in the handshake (``nodes``: honours ``go nodes``)."""
        self.stdin = stdin if stdin is not None else sys.stdin.buffer
        self.stdout = stdout if stdout is not None else sys.stdout.buffer
        self.tracker: PositionTracker | None = None
        """The game's position; None before the first accepted ``newgame``."""
        self.in_game = False
        self.option_values: dict[str, str] = {o.name: o.default for o in self.options}

    # --- output ------------------------------------------------------------------------

    def write_line(self, line: str) -> None:
        """Write one raw line and flush (bypasses the codec: faulty bots use it)."""
        self.stdout.write(line.encode() + b"\n")
        self.stdout.flush()

    def reply(self, *replies: Reply) -> None:
        """Write replies, one per line, in one flush."""
        data = "".join(format_reply(reply) + "\n" for reply in replies)
        self.stdout.write(data.encode())
        self.stdout.flush()

    def error(self, text: str) -> None:
        """Answer ``error <text>`` (the text is made one line)."""
        self.reply(ErrorReply(" ".join(text.split())))

    def info(self, info: SearchInfo) -> None:
        """Write one ``info`` line now (the ``report`` handed to brains)."""
        self.reply(Info(format_info(info)))

    # --- the loop ----------------------------------------------------------------------

    def run(self) -> int:
        """Serve commands until ``quit`` or end of input; return the exit status."""
        readline = self.stdin.readline
        while True:
            raw = readline()
            if not raw:
                return 0
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if not line or line.isspace():
                continue
            try:
                if self.tracker is not None and line.startswith("position "):
                    # The hot path: parse only what the line adds to the last one.
                    self.tracker.update_line(line)
                    continue
                command = parse_command(line)
            except ProtocolViolation as exc:
                self.error(str(exc))
                continue
            if isinstance(command, Quit):
                return 0
            self.handle(command)

    def handle(self, command: Command) -> None:
        """Dispatch one parsed command (``quit`` is handled by ``run``)."""
        # The hot path first: one position and one go per move.
        if isinstance(command, Position):
            self.on_position(command)
        elif isinstance(command, Go):
            self.on_go(command)
        elif isinstance(command, Ping):
            self.on_ping(command)
        elif isinstance(command, NewGame):
            self.on_newgame(command)
        elif isinstance(command, Hello):
            self.on_hello(command)
        elif isinstance(command, SetOption):
            self.on_setoption(command)
        elif isinstance(command, GameOver):
            self.on_gameover(command)

    def on_hello(self, command: Hello) -> None:
        """Answer the handshake: ``id`` lines, ``option`` lines, ``rgpok``."""
        if command.version != PROTOCOL_VERSION:
            self.error("unsupported protocol version")
            return
        self.reply(
            IdReply("name", self.name),
            IdReply("author", self.author),
            *self.options,
            *([Feature(self.features)] if self.features else []),
            HelloOk(),
        )

    def on_setoption(self, command: SetOption) -> None:
        """Store a declared option; refuse an unknown one."""
        if command.name not in self.option_values:
            self.error(f"unknown option {command.name}")
            return
        self.option_values[command.name] = command.value

    def on_ping(self, command: Ping) -> None:
        """Answer ``pong`` with the same token."""
        self.reply(Pong(command.token))

    def on_newgame(self, command: NewGame) -> None:
        """Build the rules, ask the brain; answer ``ok`` or ``error <reason>``."""
        self.in_game, self.tracker = False, None
        try:
            game = make_game(command.game, dict(command.options))
            game.check_players(command.players)
            refusal = self.brain.newgame(game, command)
        except RulesError as exc:
            refusal = str(exc)
        except ValueError as exc:
            refusal = str(exc) or type(exc).__name__
        if refusal is None:
            self.in_game = True
            self.tracker = PositionTracker(game, command.players)
            self.reply(Ok())
        else:
            self.error(refusal)

    def on_position(self, command: Position) -> None:
        """Take a position parsed by the codec (no reply; before any game, nothing)."""
        if self.tracker is not None:
            self.tracker.update(command)

    def on_go(self, command: Go) -> None:
        """Ask the brain for a move; answer ``move <token>``, ``resign`` or ``error``."""
        tracker = self.tracker
        if not self.in_game or tracker is None:
            self.error("no game: send newgame first")
            return
        if tracker.problem is not None:
            self.error(tracker.problem)
            return
        try:
            move = self.brain.choose(tracker.state, command, self.info)
        except ValueError as exc:
            self.error(str(exc) or type(exc).__name__)
            return
        self.reply(Resign() if move == RESIGN else MoveReply(move))

    def on_gameover(self, command: GameOver) -> None:
        """The game ended: nothing to answer."""
        self.in_game = False


def run_engine(
    brain_factory: Callable[[], Brain],
    *,
    name: str,
    author: str,
    options: Sequence[OptionReply] = (),
    features: Sequence[str] = (),
) -> int:
    """Run a brain as a protocol engine on this process's stdin/stdout; return the exit status.

    ``brain_factory`` is called once, before the handshake.
    """
    loop = EngineLoop(brain_factory(), name=name, author=author, options=options, features=features)
    return loop.run()
