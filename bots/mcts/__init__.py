"""The ``mcts`` engine: Monte Carlo tree search for every game and seat count.

``values`` (positions as per-seat expected placement points), ``search`` (the tree,
pure), ``timeman`` (time budgets from ``go``), ``brain`` (the engine: limits, ``info``,
``python -m bots mcts``).
"""
