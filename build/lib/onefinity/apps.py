from typing import Any

from django.apps import AppConfig
from django.core import checks


class OnefinityConfig(AppConfig):
    name = "onefinity"
    verbose_name = "Onefinity rules"

    def ready(self) -> None:
        from django.urls import register_converter

        from onefinity.converters import CodeConverter

        checks.register(check_rulesets)
        # Before any URLconf is read: every app's routes write <code:...>.
        register_converter(CodeConverter, "code")


def check_rulesets(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Read the shipped rulesets at start-up (once per process): a broken data file stops
    the server and every command with one line naming the file and the key."""
    from onefinity.rules import RulesetError, library

    try:
        library()
    except RulesetError as error:
        return [checks.Error(str(error), id="onefinity.E002")]
    return []
