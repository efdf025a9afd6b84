from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Members")

    def ready(self) -> None:
        """Ratings and statistics listen to the match layer and to tournament results; the
        live notices (invitations) to the matches that open."""
        from django.db.models.signals import post_save

        from accounts import notices, ratings, stats
        from games import signals

        signals.match_ended.connect(stats.on_match_ended, dispatch_uid="ratings-and-stats")
        signals.match_changed.connect(notices.on_match_changed, dispatch_uid="member-notices")
        post_save.connect(ratings.on_game_saved, sender="games.Game", dispatch_uid="table-rating")
