"""`python -m games.engine ...`: the command line, built from each game's own subcommands."""

import sys

from .core.cli import main

if __name__ == "__main__":
    sys.exit(main())
