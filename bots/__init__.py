"""Stand-alone engines that speak the protocol; run as ``python -m bots NAME``."""
