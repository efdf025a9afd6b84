from django.apps import AppConfig


class TestGameConfig(AppConfig):
    name = "tests.testgame"
    label = "testgame"
    verbose_name = "High Card (tests only)"
