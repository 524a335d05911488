from django.apps import AppConfig


class ForcebuilderConfig(AppConfig):
    name = "forcebuilder"
    verbose_name = "Force builder"

    def ready(self) -> None:
        from onefinity import ownership  # noqa: F401  (connects the login signal)
