"""Admin registrations of the games app (club tournaments; see games/tournaments/admin.py)."""

import games.tournaments.admin  # noqa: F401
