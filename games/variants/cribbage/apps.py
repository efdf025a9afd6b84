from django.apps import AppConfig


class CribbageWebConfig(AppConfig):
    name = "games.variants.cribbage"
    label = "cribbage_web"
    verbose_name = "Cribbage (web)"
