from django.apps import AppConfig


class KingsWebConfig(AppConfig):
    name = "games.variants.kings"
    label = "kings_web"
    verbose_name = "Kings Cribbage (web)"
