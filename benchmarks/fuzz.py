"""Long fuzz runs of the three parsers of untrusted input, run by hand:

    python benchmarks/fuzz.py --target codec --seconds 300
    python benchmarks/fuzz.py --target record --seconds 300 --seed 7
    python benchmarks/fuzz.py --target config --seconds 300

Each target feeds its parser random inputs and mutations of valid ones (a seed
corpus built here, mutated by flips, inserts of awkward characters, deletions,
duplications, splices and number swaps) and checks the documented contract:

* ``codec``: ``parse_reply`` / ``parse_command`` return a message or raise
  ``ProtocolViolation`` with a one-line message; an accepted line formats back to
  text that parses to the same message.
* ``record``: ``parse_records`` returns records or raises ``RecordSyntaxError``
  whose message is one line starting ``source:line:col:`` with a real line and
  column; accepted text round-trips through ``format_record``, and every accepted
  record is adjudicated without an exception (a verdict, never a crash).
* ``config``: TOML text through ``read_config_data`` and ``parse_config``, and
  mutated mappings through ``parse_config``, then ``Plan.from_config``: a plan or
  ``ConfigError`` whose message is one line starting with the source and, for a
  rejected value, naming its key.

Every input must finish within ``--limit`` seconds (SIGALRM). Anything else is a
finding: printed with the input (repr, cut at 300 characters) and counted; the
exit status is 1 if there was one. The summary line gives the counts.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from protocol.codec import format_command, format_reply, parse_command, parse_reply  # noqa: E402
from protocol.errors import ProtocolViolation  # noqa: E402
from referee.adjudicate import adjudicate  # noqa: E402
from referee.record import build_record, format_record  # noqa: E402
from referee.record.parse import RecordSyntaxError, parse_records  # noqa: E402
from referee.registry import GAMES, make_game  # noqa: E402
from tournaments.event.config import ConfigError, parse_config, read_config_data  # noqa: E402
from tournaments.event.plan import Plan  # noqa: E402

AWKWARD = [
    "\n", "\r", "\t", "\0", " ", "  ", "{", "}", "[", "]", '"', "\\", "=", ",", ".", "+",
    "-", "#", "'", "é", "\u2028", "\x85", "\ufeff", "\U0001f600", "\x7f", "9" * 30, "-1",
    "0", "nan", "inf", "1e999", "true", "[[", "]]", "\\u0000", "\udcff",
]  # fmt: skip
NUMBERS = ["0", "-1", "1", "9" * 25, "-" + "9" * 25, "1e309", "0.5", "nan", "2147483648"]


class Finding(Exception):
    """A broken contract."""


class _Timeout(BaseException):
    pass


class SlowRules(Exception):
    """Adjudication (the game's rules, not a parser) took longer than its own limit."""


ADJUDICATE_LIMIT = [30.0]
"""Seconds allowed to adjudicate the records of one input (``--adjudicate-limit``)."""


def _alarm(_signum: int, _frame: object) -> None:
    raise _Timeout


# --- mutation ---------------------------------------------------------------------------


def mutate(rng: random.Random, text: str, corpus: list[str]) -> str:
    """One to four random edits of ``text``."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        i = rng.randint(0, n)
        j = min(n, i + rng.randint(0, 12))
        kind = rng.randrange(8)
        if kind == 0:
            text = text[:i] + rng.choice(AWKWARD) + text[i:]
        elif kind == 1:
            text = text[:i] + text[j:]
        elif kind == 2:
            text = text[:i] + text[i:j] * rng.randint(2, 5) + text[j:]
        elif kind == 3 and n:
            k = rng.randrange(n)
            text = text[:k] + chr(rng.randrange(0x20, 0x7F)) + text[k + 1 :]
        elif kind == 4:
            other = rng.choice(corpus)
            k = rng.randint(0, len(other))
            text = text[:i] + other[k:]
        elif kind == 5:
            numbers = list(re.finditer(r"\d+", text))
            if numbers:
                m = rng.choice(numbers)
                text = text[: m.start()] + rng.choice(NUMBERS) + text[m.end() :]
        elif kind == 6:
            lines = text.split("\n")
            rng.shuffle(lines) if rng.random() < 0.3 else lines.pop(rng.randrange(len(lines)))
            text = "\n".join(lines)
        else:
            text = text[: rng.randint(0, n)]
    return text


def random_text(rng: random.Random) -> str:
    """Printable ASCII, awkward pieces and arbitrary code points."""
    parts = []
    for _ in range(rng.randint(0, 40)):
        r = rng.random()
        if r < 0.5:
            parts.append(chr(rng.randrange(0x20, 0x7F)))
        elif r < 0.8:
            parts.append(rng.choice(AWKWARD))
        else:
            parts.append(chr(rng.randrange(0, 0x110000)))
    return "".join(parts)


def inputs(rng: random.Random, corpus: list[str]) -> Iterator[str]:
    """Endless: three mutated valid inputs for each random one."""
    while True:
        if rng.random() < 0.25:
            yield random_text(rng)
        else:
            yield mutate(rng, rng.choice(corpus), corpus)


def one_line(message: str) -> None:
    if not message or "\n" in message or "\r" in message:
        raise Finding(f"message is not one line: {message!r}")


# --- codec ------------------------------------------------------------------------------

CODEC_CORPUS = [
    "rgp 1", "id name Random Bot", "id author someone", "rgpok", "ok", "error unsupported",
    "option name Hash type spin default 16 min 1 max 1024", "option name Ponder type check "
    "default false", "option name Style type combo default a var a var b",
    "option name Book type string default <empty>", "setoption name Hash value 32",
    "newgame game trike players 2 seat 1 seed 7 options size=9,mode=zero,pie=yes",
    "newgame game trichess players 3 seat 3 seed 0 options -",
    "position start moves e3 swap d2", "position start", "position state abc123 moves a1",
    "go time 9870,10000 inc 100,100", "go time 1,2,3 inc 0,0,0", "go movetime 500",
    "go infinite", "move e3", "move swap", "resign", "info depth 3 score 12", "ping 42",
    "pong 42", "gameover result 1-0 reason rules detail five in a row", "quit",
    "gameover result 1/2-1/2 reason timeout",
]  # fmt: skip


def check_codec(line: str) -> None:
    try:
        reply = parse_reply(line)
    except ProtocolViolation as exc:
        one_line(str(exc))
    else:
        if parse_reply(format_reply(reply)) != reply:
            raise Finding(f"format then parse changed {reply!r}")
    try:
        command = parse_command(line)
    except ProtocolViolation as exc:
        one_line(str(exc))
    else:
        if parse_command(format_command(command)) != command:
            raise Finding(f"format then parse changed {command!r}")


# --- record -----------------------------------------------------------------------------


def record_corpus(rng: random.Random) -> list[str]:
    """Records of random playouts of every game and player count (some unfinished)."""
    texts = []
    for cls in GAMES:
        for players in cls.player_counts:
            game = make_game(cls.name, {})
            for _ in range(2):
                state = game.initial_state(players)
                moves = []
                for _ in range(rng.randint(0, 40)):
                    legal = state.legal_moves()
                    if state.outcome() is not None or not legal:
                        break
                    move = rng.choice(legal)
                    moves.append(game.format_move(state, move))
                    state = state.play(move)
                names = [f"p{i}" for i in range(players)]
                tags = [("Event", "fuzz"), ("Seed", str(rng.randrange(100)))]
                record = build_record(game, names, moves, state.outcome(), tags)
                texts.append(format_record(record))
    return texts


LOCATED = re.compile(r"^fuzz\.tgn:(\d+):(\d+): \S")


def check_record(text: str) -> None:
    try:
        records = parse_records(text, "fuzz.tgn")
    except RecordSyntaxError as exc:
        message = str(exc)
        one_line(message)
        m = LOCATED.match(message)
        if m is None:
            raise Finding(f"not located as fuzz.tgn:line:col: {message!r}") from None
        line, column = int(m.group(1)), int(m.group(2))
        lines = text.split("\n")
        if not 1 <= line <= len(lines) or not 1 <= column <= len(lines[line - 1]) + 1:
            raise Finding(f"location {line}:{column} outside the text: {message!r}") from None
        return
    again = parse_records("".join(format_record(r) for r in records), "again")
    if again != records:
        raise Finding("format_record then parse_records changed the records")
    # The parse had its limit; adjudication replays the rules (a big Tricolor board
    # costs seconds per ply), so it gets its own, and is reported apart.
    signal.setitimer(signal.ITIMER_REAL, ADJUDICATE_LIMIT[0])
    try:
        for record in records:
            one_line(adjudicate(record).reason)
    except _Timeout:
        raise SlowRules(f"adjudication over {ADJUDICATE_LIMIT[0]:g} s") from None


# --- config -----------------------------------------------------------------------------


def config_corpus() -> list[str]:
    texts = [p.read_text() for p in sorted((ROOT / "tournaments" / "examples").glob("*.toml"))]
    readme = (ROOT / "tournaments" / "README.md").read_text()
    block = readme.split("```toml", 1)[1].split("```", 1)[0]
    # The README's full example, runnable: no engine files or openings file here.
    block = block.replace('file = "openings.txt"', "").replace('cwd = "engines/mine"', "")
    texts.append(block.replace("./my-engine --threads 1", "random"))
    return texts


def _random_value(rng: random.Random) -> Any:
    return rng.choice(
        [0, -1, 1, 2**70, 1.5, float("inf"), float("nan"), "", "x", "x" * 200, "\0",
         "../../x", True, False, [], [1, "a"], {}, {"a": 1}, None, "1+0", "inf", "0+0"]
    )  # fmt: skip


def mutate_mapping(rng: random.Random, data: Any, depth: int = 0) -> Any:
    """A copy of ``data`` with one leaf replaced, a key deleted or an unknown key added."""
    if isinstance(data, dict) and data:
        copy = dict(data)
        key = rng.choice(list(copy))
        r = rng.random()
        if r < 0.15:
            del copy[key]
        elif r < 0.25:
            odd = random_text(rng)[:8]  # a key with line breaks, dots, quotes ...
            copy[rng.choice(["bogus", "Game", "entrant", key + "x", odd])] = _random_value(rng)
        elif r < 0.4 or depth > 3:
            copy[key] = _random_value(rng)
        else:
            copy[key] = mutate_mapping(rng, copy[key], depth + 1)
        return copy
    if isinstance(data, list) and data:
        copy_list = list(data)
        k = rng.randrange(len(copy_list))
        if rng.random() < 0.3:
            copy_list.pop(k)
        else:
            copy_list[k] = mutate_mapping(rng, copy_list[k], depth + 1)
        return copy_list
    return _random_value(rng)


KEYED = re.compile(r"^(?P<source>[^:]+): (?P<key>(?:[^\s\[:]|\[.+?\])+?): \S")


def _check_config_error(exc: ConfigError, source: str, *, keyed: bool) -> None:
    message = str(exc)
    one_line(message)
    if not message.startswith(source + ": "):
        raise Finding(f"message does not start with the source {source!r}: {message!r}")
    if keyed and KEYED.match(message) is None:
        raise Finding(f"message names no key: {message!r}")


def check_config_mapping(data: Any, source: str = "fuzz.toml") -> None:
    try:
        config = parse_config(data, source)
        Plan.from_config(config, source)
    except ConfigError as exc:
        _check_config_error(exc, source, keyed=isinstance(data, dict))


class ConfigTarget:
    """TOML text (through a file) and mutated mappings, alternately."""

    def __init__(self, rng: random.Random, directory: Path) -> None:
        self.rng = rng
        self.path = directory / "fuzz.toml"
        self.texts = config_corpus()
        self.mappings = [tomllib.loads(t) for t in self.texts]

    def inputs(self) -> Iterator[Any]:
        text_inputs = inputs(self.rng, self.texts)
        while True:
            if self.rng.random() < 0.5:
                yield next(text_inputs)
            else:
                yield mutate_mapping(self.rng, self.rng.choice(self.mappings))

    def check(self, value: Any) -> None:
        if not isinstance(value, str):
            check_config_mapping(value, str(self.path))
            return
        self.path.write_text(value, encoding="utf-8", errors="surrogatepass")
        try:
            data = read_config_data(self.path)
        except ConfigError as exc:
            _check_config_error(exc, str(self.path), keyed=False)
            return
        check_config_mapping(data, str(self.path))


# --- driver -----------------------------------------------------------------------------


def run(target: str, seconds: float, seed: int, limit: float) -> int:
    rng = random.Random(seed)
    tmp = tempfile.TemporaryDirectory()
    source: Iterator[Any]
    check: Callable[[Any], None]
    if target == "codec":
        source, check = inputs(rng, CODEC_CORPUS), check_codec
    elif target == "record":
        source, check = inputs(rng, record_corpus(rng)), check_record
    else:
        config_target = ConfigTarget(rng, Path(tmp.name))
        source, check = config_target.inputs(), config_target.check
    signal.signal(signal.SIGALRM, _alarm)
    count = accepted = findings = slow_rules = 0
    slowest = 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = next(source)
        count += 1
        started = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            check(value)
            accepted += 1
        except _Timeout:
            findings += 1
            print(f"FINDING: over {limit:g} s: {repr(value)[:300]}")
        except SlowRules as exc:
            slow_rules += 1
            print(f"note: {exc}: {repr(value)[:300]}")
        except Finding as exc:
            findings += 1
            print(f"FINDING: {exc}: {repr(value)[:300]}")
        except Exception as exc:  # any other exception is what we hunt
            findings += 1
            print(f"FINDING: {type(exc).__name__}: {exc}: {repr(value)[:300]}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        slowest = max(slowest, time.perf_counter() - started)
    tmp.cleanup()
    print(
        f"{target}: {count} inputs in {seconds:g} s (seed {seed}), {accepted} without a "
        f"finding, {findings} finding(s), slowest {slowest * 1000:.1f} ms"
        + (f", {slow_rules} slow adjudication(s)" if slow_rules else "")
    )
    return 1 if findings else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--target", choices=["codec", "record", "config"], required=True)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=2.0, help="seconds allowed per input")
    parser.add_argument(
        "--adjudicate-limit", type=float, default=30.0, help="seconds to adjudicate one input"
    )
    args = parser.parse_args(argv)
    ADJUDICATE_LIMIT[0] = args.adjudicate_limit
    return run(args.target, args.seconds, args.seed, args.limit)


if __name__ == "__main__":
    sys.exit(main())
