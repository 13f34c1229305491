"""``python -m tournaments`` is the ``referee`` command."""

from tournaments.cli import main

main()
