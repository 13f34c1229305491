"""``python -m bots NAME [options]``: run a built-in engine on stdin/stdout.

``BOTS`` maps each name to its ``main(argv) -> exit status``; add an engine by
adding an entry. ``python -m bots NAME --help`` shows a bot's own options.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from bots import faulty_bot, greedy_bot, random_bot
from bots.mcts import brain as mcts_bot

BOTS: dict[str, Callable[[Sequence[str]], int]] = {
    "random": random_bot.main,
    "greedy": greedy_bot.main,
    "mcts": mcts_bot.main,
    "faulty": faulty_bot.main,
}
"""Every bot ``python -m bots`` can run, by name."""

USAGE = f"usage: python -m bots {{{','.join(BOTS)}}} [options]"


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to the bot named by the first argument; 2 on a usage error."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not args else sys.stdout)
        return 2 if not args else 0
    name, rest = args[0], args[1:]
    bot = BOTS.get(name)
    if bot is None:
        known = ", ".join(BOTS)
        print(f"python -m bots: unknown bot {name!r} (known: {known})", file=sys.stderr)
        return 2
    try:
        return bot(rest)
    except BrokenPipeError:
        # The referee went away. Point stdout at /dev/null so the interpreter's
        # final flush does not complain about the broken pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 1


if __name__ == "__main__":
    sys.exit(main())
