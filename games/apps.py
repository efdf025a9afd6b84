from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Connect the listeners of the match layer's signals (it never imports them)."""
        from games import computer, signals
        from games.tournaments import online

        signals.match_changed.connect(computer.on_match_changed, dispatch_uid="computer")
        signals.match_ended.connect(online.on_match_ended, dispatch_uid="tournament-result")
