"""An engine that misbehaves on purpose, to test the referee: ``python -m bots faulty --mode MODE``.

It plays like the random bot until the first ``go`` at ply ``--at N`` or later
(default: the first ``go`` it gets), then does its one misdeed. Modes:

==================  ====================================================================
at the trigger ``go``
``illegal``         a well-formed move the rules reject (computed: e.g. an occupied cell)
``unparsable``      a move token that is not in the game's notation (``zz99``)
``garbage``         the line ``hello there``, then its move
``wrong-reply``     ``ok`` instead of a move
``non-utf8``        the line ``move`` followed by bytes that are not UTF-8
``huge-info``       an ``info`` line of 1 MiB (over the referee's line limit), then its move
``flood``           100 MB without a newline (1 MiB writes), then sleeps
``crash``           exits with status 3 instead of answering
``exit0``           exits with status 0 instead of answering
``stall``           never answers: sleeps forever, ignoring its input
``resign``          resigns
``linger-child``    starts ``sleep 1000`` holding its pipes, then exits with status 3
``fork``            forks a copy that keeps running (in its process group), then exits
``setsid-fork``     forks a copy that leaves the process group (``setsid``) and keeps
                    running with a child of its own, then exits with status 3
``info-flood``      ``info`` lines as fast as it can: for ``--flood-ms`` ms, then its move
                    (default: for ever)
``info-trickle``    one ``info`` line every 20 ms, likewise
``double-move``     its move, and a second ``move`` line in the same write
``premove``         its move, then (in a write of its own) the same ``move`` line again
``odd-blank``       its move followed by the character ``--char`` (default U+00A0, a
                    no-break space) on the same line
``setsid-scrub``    forks a copy that leaves its session (``setsid``) and re-executes
                    itself without ``REFEREE_ENGINE_TAG`` in its environment, sleeping
                    forever, then exits with status 3
``setsid-chain``    forks a copy that leaves its session, then forks again and exits
                    about every millisecond (a new pid each time, each in a new
                    session), for 30 s; the engine exits with status 3
elsewhere
``no-handshake``    ignores ``rgp 1`` and sleeps forever
``option-flood``    answers ``rgp 1`` with distinct ``option`` lines for ever
``handshake-flood`` answers ``rgp 1`` with ``info`` lines for ever
``slow-handshake``  sleeps ``--slow`` ms before answering ``rgp 1`` (then plays normally)
``crash-before``    exits with status 3 on ``rgp 1``, before any game
``exit-on-newgame`` exits (status 0) on ``newgame``
``error-on-newgame`` answers ``newgame`` with ``error unsupported``
``bad-pong``        answers ``ping <t>`` with ``pong <t>x`` (the wrong token)
``after-gameover``  answers ``gameover`` with a ``move`` line (a reply to nothing)
``ignore-quit``     ignores ``quit``, SIGTERM and end of input, and sleeps forever
``ignore-state``    reads ``position state S moves …`` as ``position start moves …``
``ignore-options``  plays every game with the default rule options, whatever ``newgame``
                    says
``no-swap``         does not know the pie ``swap``: answers ``go`` after a history
                    holding it with ``error``
``die-on-unknown``  exits with status 3 on a command it does not know
``second-newgame``  answers a second ``newgame`` with ``ok`` but keeps the first game's
                    state, so every later ``go`` is answered ``error no game``
``no-castling-ep``  a Trichess engine that knows neither castling nor en passant: answers
                    ``go`` after a history holding either with ``error``
==================  ====================================================================

The last six are the faults ``check-engine``'s coverage steps must name (each passes
the nine basic steps).

Combinable flags: ``--stderr TEXT`` (write the line TEXT to stderr just before the
misdeed, as a program that reports its fatal error would), ``--slow MS`` (sleep before
each move; with ``slow-handshake``, before the handshake instead), ``--spawn-child`` (at
start, spawn ``sleep 1000`` sharing the pipes; with no mode it stalls at the trigger),
``--stderr-flood`` (about 1 MB to stderr
at start and 0.5 MB before each move), ``--trail FILE`` (``setsid-chain``: each link
appends its pid to FILE). The old spellings ``--illegal``, ``--crash`` …
are aliases of ``--mode illegal``, ``--mode crash`` ….
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from itertools import count
from typing import Any, BinaryIO, NoReturn, cast

from bots.engine import EngineLoop
from bots.random_bot import AnyState, RandomBrain
from protocol.messages import GameOver, Go, Hello, MoveReply, NewGame, Ok, Ping, Pong, Resign
from referee.core import AnyGame
from referee.errors import RulesError

MODES = {
    "illegal": "send a well-formed illegal move",
    "unparsable": "send a move token outside the game's notation",
    "garbage": "write 'hello there', then the move",
    "wrong-reply": "answer go with 'ok'",
    "non-utf8": "write a line that is not UTF-8",
    "huge-info": "write a 1 MiB info line, then the move",
    "flood": "write 100 MB without a newline, then sleep",
    "crash": "exit with status 3 instead of moving",
    "exit0": "exit with status 0 instead of moving",
    "stall": "never answer: sleep forever",
    "resign": "resign",
    "linger-child": "start a child holding the pipes, then exit with status 3",
    "fork": "fork a copy that keeps running, then exit with status 3",
    "setsid-fork": "fork a copy that calls setsid and keeps running, then exit with status 3",
    "info-flood": "write info lines as fast as it can (--flood-ms, then its move)",
    "info-trickle": "write an info line every 20 ms (--flood-ms, then its move)",
    "double-move": "answer go with two move lines",
    "premove": "write its move again, unasked, right after answering",
    "odd-blank": "end its move line with the character --char (default U+00A0)",
    "setsid-scrub": "fork a copy that calls setsid and drops its tag, then exit with status 3",
    "setsid-chain": "fork a setsid chain that changes pid every millisecond, then exit",
    "no-handshake": "ignore 'rgp 1' and sleep",
    "option-flood": "answer 'rgp 1' with distinct option lines for ever",
    "handshake-flood": "answer 'rgp 1' with info lines for ever",
    "slow-handshake": "sleep --slow ms before the handshake",
    "crash-before": "exit with status 3 on 'rgp 1'",
    "exit-on-newgame": "exit on 'newgame'",
    "error-on-newgame": "answer 'newgame' with an error",
    "bad-pong": "answer pings with a wrong token",
    "after-gameover": "answer 'gameover' with a move line",
    "ignore-quit": "ignore quit, SIGTERM and end of input",
    "ignore-state": "read 'position state S moves ...' as 'position start moves ...'",
    "ignore-options": "play with the default rule options whatever newgame says",
    "no-swap": "answer go with error after a history holding the pie swap",
    "die-on-unknown": "exit with status 3 on an unknown command",
    "second-newgame": "answer a second newgame with ok but keep the first game's state",
    "no-castling-ep": "answer go with error after a history holding castling or en passant",
}
"""Every misdeed, with its help text."""
FLOOD_BYTES = 100 * 1024 * 1024
CRASH_CODE = 3
TRICKLE_SECONDS = 0.02
"""The pause between two lines of ``info-trickle``."""
TAG_VARIABLE = "REFEREE_ENGINE_TAG"
"""What the referee's reaper tags its engines' environments with (``protocol.reaper``)."""
SLEEPER = "import time\nwhile True: time.sleep(3600)"
"""The program ``setsid-scrub`` becomes (its other arguments keep the bot's own)."""


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


def castling_or_en_passant(
    game: AnyGame, players: int, start: str | None, moves: Sequence[str]
) -> str | None:
    """The first castling or en passant among ``moves`` (legal from ``start``, or from
    the initial position) of a Trichess game, as ``"castling We1-Wg1"``, else None.

    Told from the boards before and after each move, as an engine that does not know
    these moves would get them wrong: castling moves two of the mover's pieces; en
    passant empties an opponent's cell the moving pawn does not land on.
    """
    if game.name != "trichess":
        return None
    state: Any = game.decode(start) if start is not None else game.initial_state(players)
    for text in moves:
        after: Any = state.play(game.parse_move(state, text))
        before_board, after_board, me = state.board, after.board, state.turn
        changed = [cell for cell, code in enumerate(before_board) if after_board[cell] != code]
        if sum(1 for cell in changed if before_board[cell] >> 3 == me and before_board[cell]) == 2:
            return f"castling {text}"
        if any(
            before_board[c] and before_board[c] >> 3 != me and not after_board[c] for c in changed
        ):
            return f"en passant {text}"
        state = after
    return None


KNOWN_COMMANDS = frozenset(
    {"rgp", "setoption", "newgame", "position", "go", "ping", "gameover", "quit"}
)


class RewrittenInput:
    """Standard input as the faulty engine misreads it: each line through ``rewrite``."""

    def __init__(self, stream: BinaryIO, rewrite: Callable[[bytes], bytes]) -> None:
        self.stream = stream
        self.rewrite = rewrite

    def readline(self) -> bytes:
        line = self.stream.readline()
        return self.rewrite(line) if line else line


def misread(mode: str | None, line: bytes) -> bytes:
    """``line`` as an engine with the input fault ``mode`` understands it."""
    words = line.split()
    if not words:
        return line
    if mode == "ignore-state" and words[:2] == [b"position", b"state"] and len(words) > 2:
        return b" ".join([b"position", b"start", *words[3:]]) + b"\n"
    if mode == "ignore-options" and words[0] == b"newgame" and b"options" in words:
        return b" ".join(words[: words.index(b"options")]) + b"\n"
    if mode == "no-swap" and words[0] == b"position":
        # ``swap`` read as a cell name that is not there: the history no longer reads.
        return b" ".join(b"swap?" if word == b"swap" else word for word in words) + b"\n"
    if mode == "die-on-unknown" and words[0] not in {w.encode() for w in KNOWN_COMMANDS}:
        sys.stderr.write(f"faulty: unknown command {words[0].decode(errors='replace')}\n")
        sys.stderr.flush()
        os._exit(CRASH_CODE)
    return line
CHAIN_SECONDS = 30.0
"""How long a fork chain goes on before it ends by itself: far longer than any test waits
for the referee to kill it, and short enough that a chain a failed or killed test left
behind does not eat the machine for good (each link costs a fork)."""


def fork_chain(trail: str | None) -> NoReturn:
    """Leave the session, then hand over to a fresh child about every millisecond, for
    ``CHAIN_SECONDS``: the pid to kill is never the same for long. Each link appends its
    pid to the file ``trail``, if given (a link lives too briefly to be seen in ``/proc``)."""
    fd = os.open(trail, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600) if trail else -1
    end = time.monotonic() + CHAIN_SECONDS  # inherited by every link
    while time.monotonic() < end:
        os.setsid()
        if fd >= 0:
            os.write(fd, f"{os.getpid()}\n".encode())
        time.sleep(0.001)
        if os.fork() != 0:
            os._exit(0)
    os._exit(0)


class FaultyLoop(EngineLoop):
    """The engine loop with the misdeeds of ``args`` wired into its handlers."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.random = RandomBrain(args.seed)
        self.newgames = 0
        mode = args.mode
        stdin = cast(BinaryIO, RewrittenInput(sys.stdin.buffer, lambda line: misread(mode, line)))
        super().__init__(self.random, name="faulty", author="referee project tests", stdin=stdin)

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

    def flood_info(self, pause: float, seconds: float | None) -> None:
        """Write numbered ``info`` lines, ``pause`` s apart, for ``seconds`` (None: for ever)."""
        end = math.inf if seconds is None else time.monotonic() + seconds
        block = b"info string flood line\n" * 4096  # as fast as it can: ~94 KB a write
        n = 0
        while time.monotonic() < end:
            if pause:
                self.write_line(f"info string flood line {n}")
                n += 1
                time.sleep(pause)
            else:
                self.stdout.write(block)
                self.stdout.flush()

    def own_move(self, command: Go) -> str:
        """The move the random bot would answer (the game is running)."""
        tracker = self.tracker
        assert tracker is not None
        return self.random.choose(tracker.state, command, lambda _: None)

    def ply(self) -> int:
        tracker = self.tracker
        if tracker is None:
            return 0
        return int(tracker.state.ply) if tracker.problem is None else len(tracker.moves)

    def triggered(self) -> bool:
        at: int | None = self.args.at
        return at is None or self.ply() >= at

    # --- handlers ----------------------------------------------------------------------

    def run(self) -> int:
        status = super().run()
        if self.args.mode == "ignore-quit":
            sleep_forever()
        return status

    def last_words(self) -> None:
        """``--stderr TEXT``: say it on stderr before the misdeed."""
        if self.args.stderr is not None:
            sys.stderr.write(self.args.stderr + "\n")
            sys.stderr.flush()

    def on_hello(self, command: Hello) -> None:
        mode = self.args.mode
        if mode in ("no-handshake", "crash-before"):
            self.last_words()
        if mode == "no-handshake":
            sleep_forever()
        if mode == "crash-before":
            os._exit(CRASH_CODE)
        if mode == "slow-handshake":
            time.sleep(self.args.slow / 1000)
        if mode == "option-flood":
            for n in count():
                self.write_line(f"option name flood{n} type spin default 0 min 0 max {n}")
        if mode == "handshake-flood":
            self.flood_info(0.0, None)
        super().on_hello(command)

    def on_newgame(self, command: NewGame) -> None:
        mode = self.args.mode
        self.newgames += 1
        if mode == "second-newgame" and self.newgames >= 2:
            self.reply(Ok())  # and nothing else: the first game's state stays
            return
        if mode == "exit-on-newgame":
            self.stdout.flush()
            os._exit(0)
        if mode == "error-on-newgame":
            self.write_line("error unsupported")
            return
        super().on_newgame(command)

    def on_ping(self, command: Ping) -> None:
        if self.args.mode == "bad-pong":
            self.reply(Pong(command.token + "x"))
            return
        super().on_ping(command)

    def on_gameover(self, command: GameOver) -> None:
        super().on_gameover(command)
        if self.args.mode == "after-gameover":
            self.write_line("move a1")

    def on_go(self, command: Go) -> None:
        args = self.args
        if args.stderr_flood:
            self.stderr_flood(512 * 1024)
        if args.mode == "no-castling-ep" and self.tracker is not None:
            tracker = self.tracker
            if tracker.problem is None:
                found = castling_or_en_passant(
                    tracker.game, tracker.players, tracker.start, tracker.moves
                )
                if found is not None:
                    self.error(f"cannot read the history: unknown move ({found})")
                    return
        if not self.in_game or not self.triggered():
            super().on_go(command)
            return
        if args.slow and args.mode != "slow-handshake":
            time.sleep(args.slow / 1000)
        mode = args.mode
        if mode is None and args.spawn_child:
            mode = "stall"
        self.last_words()
        if mode in ("crash", "exit0"):
            self.stdout.flush()
            os._exit(CRASH_CODE if mode == "crash" else 0)
        elif mode == "stall":
            sleep_forever()
        elif mode == "flood":
            block = b"z" * (1 << 20)
            for _ in range(FLOOD_BYTES // len(block)):
                self.stdout.write(block)
                self.stdout.flush()
            sleep_forever()
        elif mode == "resign":
            self.reply(Resign())
        elif mode == "garbage":
            self.write_line("hello there")
            super().on_go(command)
        elif mode == "wrong-reply":
            self.write_line("ok")
        elif mode == "non-utf8":
            self.stdout.write(b"move \xff\xfe\n")
            self.stdout.flush()
        elif mode == "huge-info":
            self.stdout.write(b"info " + b"i" * (1 << 20) + b"\n")
            super().on_go(command)
        elif mode in ("info-flood", "info-trickle"):
            seconds = args.flood_ms / 1000 if args.flood_ms else None
            self.flood_info(TRICKLE_SECONDS if mode == "info-trickle" else 0.0, seconds)
            super().on_go(command)
        elif mode == "double-move":
            move = self.own_move(command)
            self.stdout.write(f"move {move}\nmove {move}\n".encode())
            self.stdout.flush()
        elif mode == "premove":
            move = self.own_move(command)
            self.reply(MoveReply(move))
            self.reply(MoveReply(move))  # a write of its own: a guess at its next turn
        elif mode == "odd-blank":
            self.stdout.write(f"move {self.own_move(command)}{chr(args.char)}\n".encode())
            self.stdout.flush()
        elif mode == "unparsable":
            self.reply(MoveReply("zz99"))
        elif mode == "illegal":
            self.play_illegal(command)
        elif mode == "linger-child":
            subprocess.Popen(["sleep", "1000"])  # inherits the pipes and the process group
            self.stdout.flush()
            os._exit(CRASH_CODE)
        elif mode == "fork":
            if os.fork() == 0:
                sleep_forever()  # the copy keeps the pipes and the process group
            self.stdout.flush()
            os._exit(CRASH_CODE)
        elif mode == "setsid-fork":
            if os.fork() == 0:
                os.setsid()  # out of the engine's process group: a group kill misses it
                os.fork()  # and a child of its own, in its new group (same command line)
                sleep_forever()
            self.stdout.flush()
            os._exit(CRASH_CODE)
        elif mode == "setsid-scrub":
            if os.fork() == 0:
                os.setsid()
                env = {k: v for k, v in os.environ.items() if k != TAG_VARIABLE}
                # exec: a new environment, with no trace of the tag in /proc/PID/environ
                os.execve(sys.executable, [sys.executable, "-c", SLEEPER, *sys.argv[1:]], env)
            self.stdout.flush()
            os._exit(CRASH_CODE)
        elif mode == "setsid-chain":
            if os.fork() == 0:
                fork_chain(args.trail)
            self.stdout.flush()
            os._exit(CRASH_CODE)
        else:
            super().on_go(command)

    def play_illegal(self, command: Go) -> None:
        tracker = self.tracker
        assert tracker is not None  # on_go checked that a game runs
        if tracker.problem is not None:
            self.error(tracker.problem)
            return
        text = find_illegal_move(tracker.game, tracker.state, tuple(tracker.moves))
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
    group.add_argument("--mode", choices=sorted(MODES), default=None, help="the misdeed")
    for mode, text in MODES.items():  # the old spellings, kept as aliases
        group.add_argument(f"--{mode}", dest="mode", action="store_const", const=mode, help=text)
    parser.add_argument(
        "--slow", type=int, default=0, metavar="MS", help="sleep MS ms before each move"
    )
    parser.add_argument(
        "--spawn-child", action="store_true", help="start 'sleep 1000' sharing the pipes"
    )
    parser.add_argument("--stderr-flood", action="store_true", help="write lots to stderr")
    parser.add_argument(
        "--stderr", default=None, metavar="TEXT", help="write TEXT to stderr before the misdeed"
    )
    parser.add_argument(
        "--flood-ms", type=int, default=0, metavar="MS", help="info-flood: stop after MS ms"
    )
    parser.add_argument(
        "--char",
        type=lambda text: int(text, 0),
        default=0xA0,
        metavar="CODE",
        help="odd-blank: the code point after the move (default 0xa0)",
    )
    parser.add_argument(
        "--trail", metavar="FILE", default=None, help="setsid-chain: each link appends its pid"
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the faulty bot as an engine on stdin/stdout."""
    args = build_parser().parse_args(argv)
    if args.mode == "ignore-quit":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.spawn_child:
        # Inherits stdin, stdout and stderr, and our process group.
        subprocess.Popen(["sleep", "1000"])
    if args.stderr_flood:
        loop = FaultyLoop(args)
        loop.stderr_flood(1024 * 1024)
        return loop.run()
    return FaultyLoop(args).run()
