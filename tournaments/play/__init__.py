"""Playing the games of an event (trio and processes).

``slot`` plays one job after another with cached engines and builds each game's record
(the only code that plays a game, for ``tournament`` and ``play`` alike); ``worker`` runs
slots in separate processes; ``features`` refuses, before the first game, an engine
limit the engine cannot honour; ``fdlimit`` sizes the open-file limit; ``errors`` what
the runner and the cluster share (the void policy). What the games leave on disk (the
journal, transcripts, live feeds: the event directory) is ``tournaments.store``, below
this room. New ways of running engines go here.
"""
