"""What is to be played: the event as data (pure; pydantic only at the config edge).

``config`` reads and validates a tournament file (``cluster_settings`` its ``[cluster]``
table); ``engines`` turns entrant commands and built-in names into ``EngineSpec``;
``schedule`` pairs entrants into fixtures (round robin, gauntlet, Swiss, seat-balanced
tables); ``openings`` picks opening lines; ``plan`` puts it together as a ``Plan`` with a
``Job`` per game (``jobs``: the small JSON-able values a game slot receives). New config
keys, formats and scheduling rules go here.
"""
