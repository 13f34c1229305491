"""Playing an event's jobs on a Dask cluster (imports Dask only when used).

``client`` submits batches of jobs to the scheduler and collects ``GameReport``s, counting
each game once; ``task`` is what runs on a worker (preflight, then the same game slots as
locally); ``local`` starts a scheduler and workers on this machine for tests and benchmarks.
"""
