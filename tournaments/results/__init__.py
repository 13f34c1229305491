"""Finished games and what they add up to (pure: no I/O, no trio).

``game`` holds ``GameReport``, the one value a played game is reduced to; ``standings``
the points, places and crosstable; ``elo``, ``plackett_luce`` and ``sprt`` the ratings
and the sequential test; ``summary`` the whole event's figures (what ``results.json``,
``referee standings`` and the report show); ``tables`` renders them as text;
``timeline`` follows them game by game for the report's charts. New scoring, rating or
statistics code goes here.
"""
