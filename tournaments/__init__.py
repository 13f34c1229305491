"""Tournaments and the command line: the composition root of the project."""
