from django.apps import AppConfig


class CrossCribWebConfig(AppConfig):
    name = "games.variants.crosscrib"
    label = "crosscrib_web"
    verbose_name = "CrossCrib (web)"
