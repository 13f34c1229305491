"""The tournament runner: ``run.run_tournament`` drives an event to its end.

``run`` is the loop: it opens the journal, chooses where games are played (``slots``:
``tournaments.play`` slots and worker processes, or ``tournaments.cluster``), feeds the
``phases`` (all fixtures, or Swiss rounds paired from the results so far), records each
finished game (``records``: the journal in synced groups and ``results.json``), keeps the
running points and SPRT counts (``tally``) and stops on an SPRT decision. The one place
where an event's I/O is orchestrated. ``match.run_match`` is ``referee play``: a
one-encounter plan on the same slots and void policy (``slots.play_all``), its records
appended to one file instead of an event directory.
"""
