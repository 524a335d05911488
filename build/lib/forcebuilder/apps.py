from django.apps import AppConfig


class ForcebuilderConfig(AppConfig):
    name = "forcebuilder"
    verbose_name = "Force builder"
