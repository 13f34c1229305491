"""Playing the games of an event (trio and processes).

``slot`` plays one job after another with cached engines and builds each game's record
(the only code that plays a game, for ``tournament`` and ``play`` alike); ``worker`` runs
slots in separate processes; ``features`` refuses, before the first game, an engine
limit the engine cannot honour; ``live_feed`` publishes a game's moves as they are
played; ``fdlimit`` sizes the open-file limit; ``errors`` what the runner and the cluster
share (the void policy). What is kept on disk (journal, transcripts, the event
directory) is ``tournaments.store``, below this room. New ways of running engines go here.
"""
