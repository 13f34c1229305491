"""An engine that misbehaves on purpose, to test the referee: ``python -m bots faulty FLAGS``.

It plays like the random bot until the first ``go`` at ply ``--at N`` or later
(default: the first ``go`` it gets), then does its one misdeed:

=====================  ==============================================================
``--illegal``          sends a well-formed move that the rules reject (computed from
                       the rules: an earlier move again, e.g. an occupied cell)
``--garbage``          writes the line ``hello there``, then its move
``--crash``            exits with code 3 instead of answering
``--stall``            never answers: sleeps forever, ignoring its input
``--flood``            writes 100 MB without a newline (1 MiB writes), then sleeps
``--resign``           resigns
``--slow MS``          sleeps MS milliseconds before each move (combines with the rest)
=====================  ==============================================================

Misdeeds not tied to a ply:

=========================  ==========================================================
``--no-handshake``         ignores ``rgp 1`` and sleeps forever
``--exit-on-newgame``      exits (code 0) when it gets ``newgame``
``--error-on-newgame``     answers ``newgame`` with ``error unsupported``
``--bad-pong``             answers ``ping <t>`` with ``pong <t>x`` (the wrong token)
``--spawn-child``          at start, spawns ``sleep 1000`` sharing its stdout and
                           stderr; with no misdeed above, it then stalls at the
                           trigger (so the child holds the pipes open)
``--stderr-flood``         writes about 1 MB to stderr at start and 0.5 MB before each
                           move, while playing normally
=========================  ==========================================================
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

from bots.engine import EngineLoop
from bots.random_bot import AnyGame, AnyState, RandomBrain
from protocol.messages import Go, Hello, MoveReply, NewGame, Ping, Pong, Resign
from referee.errors import RulesError

ACTIONS = {
    "illegal": "send a well-formed illegal move",
    "garbage": "write 'hello there', then the move",
    "crash": "exit with code 3 instead of moving",
    "stall": "never answer: sleep forever",
    "flood": "write 100 MB without a newline, then sleep",
    "resign": "resign",
}
"""Misdeeds done at the trigger ply, with their help texts."""
FLOOD_BYTES = 100 * 1024 * 1024
CRASH_CODE = 3


def sleep_forever() -> NoReturn:
    """Block until killed, reading nothing."""
    while True:
        time.sleep(3600)


def find_illegal_move(game: AnyGame, state: AnyState, history: Sequence[str]) -> str | None:
    """Text of a move that parses in ``state`` but is not legal there, or None.

    Tries the moves already played (latest first: in placement games the cell is
    now occupied), then moves that are legal one and two plies later (e.g. a
    pie swap before its time).
    """
    seen: set[str] = set()

    def illegal(text: str) -> bool:
        if text in seen:
            return False
        seen.add(text)
        try:
            move = game.parse_move(state, text)
        except RulesError:
            return False
        return not state.is_legal(move)

    for text in reversed(history):
        if illegal(text):
            return text
    frontier = [state]
    for _ in range(2):
        successors = []
        for parent in frontier:
            for move in parent.legal_moves()[:8]:
                child = parent.play(move)
                successors.append(child)
                for reply in child.legal_moves():
                    text = game.format_move(child, reply)
                    if illegal(text):
                        return text
        frontier = successors
    return None


class FaultyLoop(EngineLoop):
    """The engine loop with the misdeeds of ``args`` wired into its handlers."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.random = RandomBrain(args.seed)
        super().__init__(self.random, name="faulty", author="referee project tests")

    # --- helpers -----------------------------------------------------------------------

    def stderr_flood(self, total: int) -> None:
        line = b"x" * 127 + b"\n"
        chunk = line * 512 + b"y" * 100_000  # the last run has no newline until later
        written = 0
        while written < total:
            sys.stderr.buffer.write(chunk)
            written += len(chunk)
        sys.stderr.buffer.write(b"\n")
        sys.stderr.buffer.flush()

    def ply(self) -> int:
        try:
            return int(self.random.replay(self.position).ply)
        except ValueError:
            return len(self.position.moves)

    def triggered(self) -> bool:
        at: int | None = self.args.at
        return at is None or self.ply() >= at

    # --- handlers ----------------------------------------------------------------------

    def on_hello(self, command: Hello) -> None:
        if self.args.no_handshake:
            sleep_forever()
        super().on_hello(command)

    def on_newgame(self, command: NewGame) -> None:
        if self.args.exit_on_newgame:
            self.stdout.flush()
            os._exit(0)
        if self.args.error_on_newgame:
            self.write_line("error unsupported")
            return
        super().on_newgame(command)

    def on_ping(self, command: Ping) -> None:
        if self.args.bad_pong:
            self.reply(Pong(command.token + "x"))
            return
        super().on_ping(command)

    def on_go(self, command: Go) -> None:
        args = self.args
        if args.stderr_flood:
            self.stderr_flood(512 * 1024)
        if not self.in_game or not self.triggered():
            super().on_go(command)
            return
        if args.slow:
            time.sleep(args.slow / 1000)
        action = args.action
        if action is None and args.spawn_child:
            action = "stall"
        if action == "crash":
            self.stdout.flush()
            os._exit(CRASH_CODE)
        elif action == "stall":
            sleep_forever()
        elif action == "flood":
            block = b"z" * (1 << 20)
            for _ in range(FLOOD_BYTES // len(block)):
                self.stdout.write(block)
                self.stdout.flush()
            sleep_forever()
        elif action == "resign":
            self.reply(Resign())
        elif action == "garbage":
            self.write_line("hello there")
            super().on_go(command)
        elif action == "illegal":
            self.play_illegal(command)
        else:
            super().on_go(command)

    def play_illegal(self, command: Go) -> None:
        game = self.random.game
        assert game is not None
        try:
            state = self.random.replay(self.position)
        except ValueError as exc:
            self.error(str(exc))
            return
        text = find_illegal_move(game, state, self.position.moves)
        self.reply(MoveReply(text if text is not None else "illegal"))


def build_parser(prog: str = "python -m bots faulty") -> argparse.ArgumentParser:
    """The command-line options of the faulty bot."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="An engine that misbehaves on purpose (see bots/faulty_bot.py).",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of its random play")
    parser.add_argument(
        "--at", type=int, default=None, metavar="N", help="first ply of the misdeed"
    )
    group = parser.add_mutually_exclusive_group()
    for action, text in ACTIONS.items():
        group.add_argument(
            f"--{action}", dest="action", action="store_const", const=action, help=text
        )
    parser.add_argument(
        "--slow", type=int, default=0, metavar="MS", help="sleep MS ms before each move"
    )
    parser.add_argument("--no-handshake", action="store_true", help="ignore 'rgp 1' and sleep")
    parser.add_argument("--exit-on-newgame", action="store_true", help="exit on 'newgame'")
    parser.add_argument(
        "--error-on-newgame", action="store_true", help="answer 'newgame' with an error"
    )
    parser.add_argument("--bad-pong", action="store_true", help="answer pings with a wrong token")
    parser.add_argument(
        "--spawn-child", action="store_true", help="start 'sleep 1000' sharing the pipes"
    )
    parser.add_argument("--stderr-flood", action="store_true", help="write lots to stderr")
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the faulty bot as an engine on stdin/stdout."""
    args = build_parser().parse_args(argv)
    if args.spawn_child:
        # Inherits stdin, stdout and stderr, and our process group.
        subprocess.Popen(["sleep", "1000"])
    if args.stderr_flood:
        loop = FaultyLoop(args)
        loop.stderr_flood(1024 * 1024)
        return loop.run()
    return FaultyLoop(args).run()
