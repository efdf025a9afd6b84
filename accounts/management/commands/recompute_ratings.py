"""Rebuild every rating, and any missing statistics, from the match history in order."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from accounts import ratings, stats


class Command(BaseCommand):
    help = (
        "Recompute every rating from the rated matches and table results, in the order they "
        "ended (the same figures as the live updates). Also writes missing match records and "
        "counts missing figures; --figures counts every match's figures again."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--figures", action="store_true", help="Count every match's own figures again."
        )

    def handle(self, *args, figures: bool = False, **options) -> None:
        written, counted = stats.backfill(all_figures=figures)
        results, rows = ratings.recompute()
        self.stdout.write(
            f"{written} match records written, figures counted for {counted} matches; "
            f"{results} rated results give {rows} ratings."
        )
