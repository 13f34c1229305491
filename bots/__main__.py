"""``python -m bots NAME [options]``: run a built-in engine on stdin/stdout.

``BOTS`` maps each name to the module whose ``main(argv) -> exit status`` runs it; add
an engine by adding an entry. ``python -m bots NAME --help`` shows a bot's own options.
Only the named bot's module is imported: the tests start hundreds of these processes, and
a random bot need not read the MCTS searcher's tables.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence

BOTS: dict[str, str] = {
    "random": "bots.random_bot",
    "greedy": "bots.greedy_bot",
    "mcts": "bots.mcts.brain",
    "faulty": "bots.faulty_bot",
}
"""Every bot ``python -m bots`` can run, by name: the module holding its ``main``."""

USAGE = f"usage: python -m bots {{{','.join(BOTS)}}} [options]"


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to the bot named by the first argument; 2 on a usage error."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not args else sys.stdout)
        return 2 if not args else 0
    name, rest = args[0], args[1:]
    module = BOTS.get(name)
    if module is None:
        known = ", ".join(BOTS)
        print(f"python -m bots: unknown bot {name!r} (known: {known})", file=sys.stderr)
        return 2
    bot: Callable[[Sequence[str]], int] = importlib.import_module(module).main
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
