from django.apps import AppConfig


class TablegenConfig(AppConfig):
    name = "tablegen"
    verbose_name = "Table generator"
