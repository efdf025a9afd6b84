"""Games: the rule engines (games.engine) and, on top, matches played on the site."""
