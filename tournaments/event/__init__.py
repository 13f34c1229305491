"""What is to be played: the event as data (pure; pydantic only at the config edge).

``config`` reads and validates a tournament file (``cluster_settings`` its ``[cluster]``
table); ``engines`` turns entrant commands and built-in names into ``EngineSpec``;
``schedule`` pairs entrants into fixtures (round robin, gauntlet, Swiss, seat-balanced
tables); ``openings`` picks opening lines; ``plan`` puts it together as a ``Plan`` with a
``Job`` per game (``jobs``: the small JSON-able values a game slot receives); ``wire``
is the one codec that carries them (and every dataclass inside them) to worker processes
and Dask tasks, field by field from the types themselves, so a new field needs no JSON
code. New config keys, formats and scheduling rules go here.
"""
