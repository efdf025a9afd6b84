from django.apps import AppConfig


class CribistWebConfig(AppConfig):
    name = "games.variants.cribist"
    label = "cribist_web"
    verbose_name = "Cribist (web)"
