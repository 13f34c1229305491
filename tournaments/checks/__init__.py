"""Tools that examine an engine rather than play an event: ``check_engine`` walks an
engine through the protocol in numbered steps, and ``coverage`` adds the steps that
replay what real games send. Above ``play`` and ``store`` (it needs neither), below
``cluster`` (a cluster worker checks its engines before it plays).
"""
