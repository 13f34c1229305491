"""``referee bench``: measured speed of the rules (``rules``) and of matches and
tournaments at several concurrencies (``throughput``). Targets live in ``benchmarks/``.
"""
