from django.apps import AppConfig


class TableTopWebConfig(AppConfig):
    name = "games.variants.tabletop"
    label = "tabletop_web"
    verbose_name = "Table Top Cribbage (web)"
