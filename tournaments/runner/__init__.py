"""The tournament runner: ``run.run_tournament`` drives an event to its end.

It chooses where games are played (``tournaments.play`` slots and worker processes, or
``tournaments.cluster``), journals each finished game, keeps ``results.json`` current,
stops on an SPRT decision and resumes an interrupted event. The one place where an
event's I/O is orchestrated.
"""
