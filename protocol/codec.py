"""Pure conversion between protocol lines and messages, both directions.

Contract: ``parse_reply`` and ``parse_command`` either return a message or raise
``ProtocolViolation``; no other exception escapes (fuzzed with hypothesis).
``format_*`` never ends a line with a newline; the caller frames. Formatting a
message and parsing the text back gives the same message.

Grammar (full text in ``protocol/SPEC.md``): words are separated by runs of
ASCII spaces or tabs, and by nothing else (``protocol.words.BLANKS``); a *token* is
one or more printable ASCII characters other than space (``!`` to ``~``); a *text* is
the rest of the line, any characters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from protocol.errors import ProtocolViolation
from protocol.messages import (
    PROTOCOL_NAME,
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
from protocol.words import (
    BLANKS,
    MAX_MS,
    as_text,
    as_token,
    check_int,
    expect_keys,
    int_list,
    ints,
    is_token,
    parse_int,
    signed_int,
    split_words,
    text_after,
)

_OPTION_TYPES = frozenset({"spin", "check", "combo", "string"})
_ID_KEYS = ("name", "author")

_INC_TEXT: dict[tuple[int, ...], str] = {}
"""Formatted ``inc`` lists by value (a bounded cache for the per-ply ``go``)."""


def join_moves(moves: Sequence[str]) -> str:
    """``moves`` joined by spaces, checked to be tokens in a few C-speed passes (hot path).

    :raises ProtocolViolation: a move is not a token.
    """
    joined = " ".join(moves)
    # With exactly one space between moves, no move holds a space; then an empty move
    # shows as two spaces in a row, a space at either end, or nothing at all (asking the
    # moves themselves, ``"" in moves``, raised and caught a ValueError a ply on a
    # ``MoveHistory``).
    if (
        not joined.isascii()
        or not joined.isprintable()
        or joined.count(" ") != len(moves) - 1
        or "  " in joined
        or joined.startswith(" ")
        or joined.endswith(" ")
        or not joined
    ):
        bad = next(m for m in moves if not is_token(m))
        raise ProtocolViolation(f"bad move {bad!r}: expected printable ASCII without spaces")
    return joined


# --- replies: engine -> referee ----------------------------------------------------------


def format_reply(reply: Reply) -> str:
    """The wire line (without newline) of an engine reply."""
    match reply:
        case MoveReply(move):
            return f"move {as_token(move, 'move')}"
        case Info(text):
            return f"info {as_text(text, 'info')}".rstrip(BLANKS)
        case Pong(token):
            return f"pong {as_token(token, 'ping token')}"
        case Ok():
            return "ok"
        case HelloOk():
            return f"{PROTOCOL_NAME}ok"
        case Resign():
            return "resign"
        case IdReply(key, value):
            if key not in _ID_KEYS:
                raise ProtocolViolation(f"bad id key {key!r}: expected 'name' or 'author'")
            return f"id {key} {as_text(value, 'id')}".rstrip(BLANKS)
        case ErrorReply(text):
            return f"error {as_text(text, 'error')}".rstrip(BLANKS)
        case Feature(names):
            if not names:
                raise ProtocolViolation("a feature line names at least one feature")
            return "feature " + " ".join(as_token(name, "feature") for name in names)
        case OptionReply(name, kind, default, minimum, maximum, choices):
            if kind not in _OPTION_TYPES:
                raise ProtocolViolation(f"unknown option type {kind!r}")
            parts = ["option", "name", as_token(name, "option name"), "type", kind]
            parts += ["default", as_token(default, "option default")]
            if minimum is not None:
                parts += ["min", str(check_int(minimum, "option min", minimum=-MAX_MS))]
            if maximum is not None:
                parts += ["max", str(check_int(maximum, "option max", minimum=-MAX_MS))]
            for choice in choices:
                parts += ["var", as_token(choice, "option var")]
            return " ".join(parts)


def _parse_option(words: list[str]) -> OptionReply:
    fields: dict[str, str] = {}
    choices: list[str] = []
    rest = words[1:]
    if len(rest) % 2:
        raise ProtocolViolation("malformed option: expected 'key value' pairs")
    for key, value in zip(rest[::2], rest[1::2], strict=True):
        if key == "var":
            choices.append(as_token(value, "option var"))
        elif key in ("name", "type", "default", "min", "max") and key not in fields:
            fields[key] = value
        else:
            raise ProtocolViolation(f"malformed option: unexpected or repeated key {key!r}")
    for key in ("name", "type", "default"):
        if key not in fields:
            raise ProtocolViolation(f"malformed option: missing '{key}'")
    if fields["type"] not in _OPTION_TYPES:
        raise ProtocolViolation(f"unknown option type {fields['type']!r}")
    minimum = signed_int(fields["min"], "option min") if "min" in fields else None
    maximum = signed_int(fields["max"], "option max") if "max" in fields else None
    return OptionReply(
        name=as_token(fields["name"], "option name"),
        type=fields["type"],
        default=as_token(fields["default"], "option default"),
        minimum=minimum,
        maximum=maximum,
        choices=tuple(choices),
    )


def _rest(line: str) -> str:
    """The text after the first word, with surrounding blanks removed."""
    return text_after(line, 1)


MOVE_REPLIES_KEPT = 4096
"""Distinct ``MoveReply`` objects ``parse_reply`` keeps for reuse (then it starts over)."""
KEPT_MOVE_CHARS = 32
"""Only moves up to this long are kept (so the kept ones hold at most 128 KiB of text,
whatever an engine sends; real moves are a few characters)."""
_MOVE_REPLIES: dict[str, MoveReply] = {}


def _move_reply(move: str) -> MoveReply:
    """The ``MoveReply`` of ``move`` (a token), made once and reused: a reply is immutable,
    and making a frozen dataclass costs about a microsecond, once per ply."""
    reply = _MOVE_REPLIES.get(move)
    if reply is None:
        reply = MoveReply(move)
        if len(move) <= KEPT_MOVE_CHARS:
            if len(_MOVE_REPLIES) >= MOVE_REPLIES_KEPT:
                _MOVE_REPLIES.clear()
            _MOVE_REPLIES[move] = reply
    return reply


def parse_reply(line: str) -> Reply:
    """Parse one line from an engine.

    :raises ProtocolViolation: the line is not a reply of protocol version 1.
    """
    # The hot path, one per ply: ``move <token>`` written plainly (one space, a token of
    # printable ASCII, so no line break, tab or second word) is the reply the general
    # path below would give, without splitting the line into words.
    if line[:5] == "move ":
        move = line[5:]
        if move and " " not in move and move.isascii() and move.isprintable():
            return _move_reply(move)
    # ``split_words`` inlined (one call less on the per-ply path).
    if "\n" in line or "\r" in line:
        raise ProtocolViolation("a line may not contain a line break")
    # ``words_of`` inlined: only space and tab separate words (``str.split()`` would
    # also split at U+00A0, U+3000, U+001C ..., and drop them from a move).
    words = (line.replace("\t", " ") if "\t" in line else line).split(" ")
    if "" in words:
        words = [word for word in words if word]
    if not words:
        raise ProtocolViolation("empty line")
    head = words[0]
    # The hot path (one ``move`` per ply) is tested first.
    if head == "move":
        if len(words) != 2:
            raise ProtocolViolation("malformed move: expected 'move <token>'")
        move = words[1]  # a word: not empty, no blank; a token if printable ASCII
        if move.isascii() and move.isprintable():
            return _move_reply(move)
        return _move_reply(as_token(move, "move"))
    if head == "info":
        return Info(_rest(line))
    if head == "pong":
        if len(words) != 2:
            raise ProtocolViolation("malformed pong: expected 'pong <token>'")
        return Pong(as_token(words[1], "ping token"))
    if len(words) == 1:
        if head == "ok":
            return Ok()
        if head == f"{PROTOCOL_NAME}ok":
            return HelloOk()
        if head == "resign":
            return Resign()
    if head == "id":
        if len(words) < 2 or words[1] not in ("name", "author"):
            raise ProtocolViolation("malformed id: expected 'id name <text>' or 'id author <text>'")
        return IdReply(words[1], text_after(line, 2))
    if head == "error":
        return ErrorReply(_rest(line))
    if head == "option":
        return _parse_option(words)
    if head == "feature" and len(words) > 1:
        return Feature(tuple(as_token(word, "feature") for word in words[1:]))
    shown = line if len(line) <= 80 else line[:77] + "..."
    raise ProtocolViolation(f"unknown or malformed reply {shown!r}")


# --- commands: referee -> engine ---------------------------------------------------------


def format_command(command: Command) -> str:
    """The wire line (without newline) of a referee command."""
    # The hot path (a position and a go per ply) skips the pattern matching below.
    if type(command) is Position:
        start = "start" if command.state is None else f"state {as_token(command.state, 'state')}"
        if not command.moves:
            return f"position {start}"
        return f"position {start} moves {join_moves(command.moves)}"
    if (
        type(command) is Go
        and command.movetime is None
        and command.times is not None
        and command.nodes is None
        and command.depth is None
        and command.movestogo is None
    ):
        remaining, increments = command.times, command.incs
        if increments is None or len(remaining) != len(increments):
            raise ProtocolViolation("go: 'time' and 'inc' must list the same seats")
        inc = _INC_TEXT.get(increments)
        if inc is None:  # increments are constant for a game: format and check them once
            inc = ints(increments, "inc")
            if len(_INC_TEXT) >= 64:
                _INC_TEXT.clear()
            _INC_TEXT[increments] = inc
        if remaining and min(remaining) >= 0 and max(remaining) <= MAX_MS:
            return f"go time {','.join(map(str, remaining))} inc {inc}"
        return f"go time {ints(remaining, 'time')} inc {inc}"  # raises the violation
    match command:
        case Position(moves, state):
            start = "start" if state is None else f"state {as_token(state, 'state')}"
            if not moves:
                return f"position {start}"
            return f"position {start} moves {join_moves(moves)}"
        case Go(times, incs, movetime, nodes, depth, movestogo):
            line = "go"
            if nodes is not None:
                line += f" nodes {check_int(nodes, 'nodes', minimum=1)}"
            if depth is not None:
                line += f" depth {check_int(depth, 'depth', minimum=1)}"
            if movestogo is not None and times is None:
                raise ProtocolViolation("go: 'movestogo' needs 'time' and 'inc'")
            if movetime is not None:
                if times is not None or incs is not None:
                    raise ProtocolViolation("go: 'movetime' excludes 'time' and 'inc'")
                return f"{line} movetime {check_int(movetime, 'movetime')}"
            if times is None and incs is None:
                return line
            if times is None or incs is None or len(times) != len(incs):
                raise ProtocolViolation("go: 'time' and 'inc' must list the same seats")
            line = f"{line} time {ints(times, 'time')} inc {ints(incs, 'inc')}"
            if movestogo is not None:
                line += f" movestogo {check_int(movestogo, 'movestogo', minimum=1)}"
            return line
        case Ping(token):
            return f"ping {as_token(token, 'ping token')}"
        case NewGame(game, players, seat, seed, options):
            check_int(players, "players", minimum=1)
            if not 1 <= seat <= players:
                raise ProtocolViolation(f"bad newgame: seat {seat} of {players} players")
            line = (
                f"newgame game {as_token(game, 'game')} players {players} seat {seat}"
                f" seed {check_int(seed, 'seed')}"
            )
            if options:
                for key, value in options:
                    if not key or not value or "=" in key or "," in key or "," in value:
                        raise ProtocolViolation(f"bad rule option {key}={value}")
                pairs = ",".join(f"{k}={v}" for k, v in options)
                line += f" options {as_token(pairs, 'options')}"
            return line
        case GameOver(result, reason, detail):
            line = (
                f"gameover result {as_token(result, 'result')} reason {as_token(reason, 'reason')}"
            )
            if detail:
                line += f" detail {as_text(detail, 'detail')}"
            return line
        case Hello(version):
            return f"{PROTOCOL_NAME} {check_int(version, 'protocol version', minimum=1)}"
        case SetOption(name, value):
            line = f"setoption name {as_token(name, 'option name')} value {as_text(value, 'value')}"
            return line.rstrip(BLANKS)
        case Quit():
            return "quit"


def _parse_options(word: str) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = []
    for item in word.split(","):
        key, eq, value = item.partition("=")
        if not eq or not key or not value:
            raise ProtocolViolation(f"malformed rule option {item!r}: expected key=value")
        pairs.append((key, value))
    return tuple(pairs)


def _parse_position(words: list[str]) -> Position:
    if len(words) < 2:
        raise ProtocolViolation("malformed position: expected 'position start|state <s> ...'")
    if words[1] == "start":
        state, rest = None, words[2:]
    elif words[1] == "state" and len(words) >= 3:
        state, rest = as_token(words[2], "state"), words[3:]
    else:
        raise ProtocolViolation("malformed position: expected 'start' or 'state <s>'")
    if not rest:
        return Position((), state)
    if rest[0] != "moves" or len(rest) < 2:
        raise ProtocolViolation("malformed position: expected 'moves <m1> ...' after the start")
    return Position(tuple(as_token(m, "move") for m in rest[1:]), state)


def _parse_go(words: list[str]) -> Go:
    limits: dict[str, int] = {}
    rest = words[1:]
    # The search limits come first, in either order, each at most once.
    while rest and rest[0] in ("nodes", "depth"):
        if rest[0] in limits or len(rest) < 2:
            raise ProtocolViolation(f"malformed go: repeated or empty '{rest[0]}'")
        limits[rest[0]] = parse_int(rest[1], rest[0], minimum=1)
        rest = rest[2:]
    nodes, depth = limits.get("nodes"), limits.get("depth")
    if not rest:
        return Go(nodes=nodes, depth=depth)
    if rest[0] == "movetime":
        (ms,) = expect_keys(rest, ("movetime",), "go")
        return Go(movetime=parse_int(ms, "movetime"), nodes=nodes, depth=depth)
    movestogo = None
    if len(rest) == 6 and rest[4] == "movestogo":
        movestogo, rest = parse_int(rest[5], "movestogo", minimum=1), rest[:4]
    time_word, inc_word = expect_keys(rest, ("time", "inc"), "go")
    times, incs = int_list(time_word, "time"), int_list(inc_word, "inc")
    if len(times) != len(incs):
        raise ProtocolViolation("malformed go: 'time' and 'inc' list different numbers of seats")
    return Go(times=times, incs=incs, nodes=nodes, depth=depth, movestogo=movestogo)


def _parse_newgame(words: list[str]) -> NewGame:
    keys = ("game", "players", "seat", "seed")
    has_options = len(words) == 2 * len(keys) + 3
    values = expect_keys(words[1:] if not has_options else words[1:-2], keys, "newgame")
    options: tuple[tuple[str, str], ...] = ()
    if has_options:
        if words[-2] != "options":
            raise ProtocolViolation("malformed newgame: expected 'options <k=v,...>' at the end")
        # The same token rule the formatter applies, so every accepted line round-trips.
        options = _parse_options(as_token(words[-1], "options"))
    players = parse_int(values[1], "players", minimum=1)
    seat = parse_int(values[2], "seat", minimum=1)
    if seat > players:
        raise ProtocolViolation(f"malformed newgame: seat {seat} of {players} players")
    return NewGame(
        game=as_token(values[0], "game"),
        players=players,
        seat=seat,
        seed=parse_int(values[3], "seed"),
        options=options,
    )


def _parse_gameover(line: str, words: list[str]) -> GameOver:
    if len(words) < 5 or words[1] != "result" or words[3] != "reason":
        raise ProtocolViolation("malformed gameover: expected 'gameover result <r> reason <t>'")
    detail = ""
    if len(words) > 5:
        if words[5] != "detail":
            raise ProtocolViolation("malformed gameover: expected 'detail <text>'")
        detail = text_after(line, 6)
    return GameOver(as_token(words[2], "result"), as_token(words[4], "reason"), detail)


def _parse_setoption(line: str, words: list[str]) -> SetOption:
    if len(words) < 4 or words[1] != "name" or words[3] != "value":
        raise ProtocolViolation("malformed setoption: expected 'setoption name <n> value <v>'")
    value = text_after(line, 4)
    return SetOption(as_token(words[2], "option name"), value)


def _parse_hello(words: list[str]) -> Hello:
    if len(words) != 2:
        raise ProtocolViolation(f"malformed hello: expected '{PROTOCOL_NAME} <version>'")
    return Hello(parse_int(words[1], "protocol version", minimum=1))


_COMMANDS: dict[str, Callable[[str, list[str]], Command]] = {
    "position": lambda line, words: _parse_position(words),
    "go": lambda line, words: _parse_go(words),
    "ping": lambda line, words: (
        Ping(as_token(words[1], "ping token"))
        if len(words) == 2
        else _fail("malformed ping: expected 'ping <token>'")
    ),
    "newgame": lambda line, words: _parse_newgame(words),
    "gameover": _parse_gameover,
    "setoption": _parse_setoption,
    PROTOCOL_NAME: lambda line, words: _parse_hello(words),
    "quit": lambda line, words: Quit() if len(words) == 1 else _fail("malformed quit"),
}


def _fail(message: str) -> Command:
    raise ProtocolViolation(message)


def parse_command(line: str) -> Command:
    """Parse one line from the referee (engines and tests use this).

    :raises ProtocolViolation: the line is not a command of protocol version 1.
    """
    words = split_words(line)
    if not words:
        raise ProtocolViolation("empty line")
    parser = _COMMANDS.get(words[0])
    if parser is None:
        shown = line if len(line) <= 80 else line[:77] + "..."
        raise ProtocolViolation(f"unknown command {shown!r}")
    return parser(line.strip(BLANKS), words)
