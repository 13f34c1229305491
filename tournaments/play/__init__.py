"""Playing the games of an event (trio, processes and files).

``slot`` plays one job after another with cached engines and builds each game's record
(the only code that plays a game, for ``tournament`` and ``play`` alike); ``worker`` runs
slots in separate processes; ``check_engine`` walks an engine through the protocol;
``journal`` is the append-only, crash-safe log of finished games (its format and
readers), ``writer`` appends to it and resumes it, ``index`` and ``checkpoint`` (with
``numbers``) keep what the tables need beside it, and ``event_dir`` reads an event
directory back; ``fdlimit`` sizes the open-file limit; ``errors`` what the runner and the
cluster share. New ways of running engines or storing per-game output go here.
"""
