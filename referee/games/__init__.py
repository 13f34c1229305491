"""One package per game; ``referee.registry`` lists them explicitly."""
