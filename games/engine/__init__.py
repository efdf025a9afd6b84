"""Pure-Python rule engines for the cribbage family of games (no Django, no I/O)."""
