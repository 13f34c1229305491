"""``check-engine``'s coverage steps: what real games send, beyond the nine basic steps.

``scenarios`` finds the positions to ask about from the rules alone (pure, seeded:
every seat and player count, ``position state`` starts as openings make them, a sweep
of every rule option's values, the pie ``swap`` and the game's other kinds of move in
the history, with ``histories``' fixed ones for the special moves playouts may miss);
``steps`` asks an engine about them, in fresh processes, with an unknown command, its
own options, two games in one process and real games against ``random``.
"""
