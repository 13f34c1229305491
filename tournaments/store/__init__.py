"""The event directory: what a tournament keeps on disk (files; no engines, no trio).

``journal`` is the append-only, crash-safe log of finished games (its format and
readers), ``writer`` appends to it and resumes it, ``index`` and ``checkpoint`` (with
``numbers``, the game numbering) keep what the tables need beside it, ``event_dir`` reads
an event directory back, ``transcripts`` keeps the engines' transcripts in a few store
files, and ``live_feed`` the moves of the games in play (``live/``, for the live page and
``--events``). Below ``play``: the slots and the runner write here, the report and the
live view read here, and nothing here plays a game. New per-event files go here.
"""
