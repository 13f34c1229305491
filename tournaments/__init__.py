"""Tournaments and the command line: the top layer of ``referee``.

Rooms, lowest first (a room imports only rooms listed before it, and the layers
below: ``bots``, ``referee``, ``protocol``):

* ``results``  finished games and what they add up to: ``GameReport``, standings,
  crosstables, Elo, Plackett–Luce, SPRT, the event summary and its text tables (pure).
* ``event``    what is to be played: the config file, entrants, schedules, openings and
  the ``Plan`` with its ``Job`` per game (pure; pydantic only in ``config``).
* ``store``    the event directory: the journal and its writer, index, checkpoint, game
  numbering, transcripts and live feeds, read back by ``event_dir`` (files).
* ``play``     playing games: game slots and worker processes (trio).
* ``checks``   ``referee check-engine``: an engine walked through the protocol.
* ``cluster``  playing the same jobs on a Dask cluster.
* ``runner``   ``run_tournament``: drives slots or the cluster, journals every game,
  stops on SPRT, resumes.
* ``html``     self-contained HTML pages: the report, replays, charts, disputes.
* ``bench``    ``referee bench``: rules speed and match and tournament throughput.
* ``cli``      the ``referee`` command: every command, the composition root.
"""
