"""Tournaments and the command line: the top layer of ``referee``.

Rooms, lowest first (a room imports only rooms listed before it, and the layers
below: ``bots``, ``referee``, ``protocol``):

* ``results``  finished games and what they add up to: ``GameReport``, standings,
  crosstables, Elo, Plackett–Luce, SPRT, the event summary and its text tables (pure).
* ``event``    what is to be played: the config file, entrants, schedules, openings and
  the ``Plan`` with its ``Job`` per game (pure; pydantic only in ``config``).
* ``play``     playing games: game slots, worker processes, the journal and the event
  directory (trio and files).
* ``cluster``  playing the same jobs on a Dask cluster.
* ``runner``   ``run_tournament``: drives slots or the cluster, journals every game,
  stops on SPRT, resumes.
* ``html``     self-contained HTML pages: the report, replays, charts, disputes.
* ``bench``    ``referee bench``: rules speed and match and tournament throughput.
* ``cli``      the ``referee`` command: every command, the composition root.
"""
