"""CrossCrib on the command line: the same `score` and `layout` as Table Top Cribbage, which
read the variant's own flush rule and allow `layout --crib`."""

from ..tabletop.cli import add_commands

__all__ = ["add_commands"]
