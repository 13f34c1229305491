"""``python -m tournaments`` is the ``referee`` command."""

from tournaments.cli.app import main

main()
