from typing import Any

from django.apps import AppConfig
from django.core import checks


class TablegenConfig(AppConfig):
    name = "tablegen"
    verbose_name = "Table generator"

    def ready(self) -> None:
        checks.register(check_terrain_library)


def check_terrain_library(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Read the terrain library at start-up: a broken pieces.toml stops the server and every
    command with one line naming the file and the key, as a broken ruleset does."""
    from onefinity.rules import RulesetError, current_ruleset
    from tablegen.engine.library import LibraryError, terrain_library

    try:
        terrain_library(tuple(current_ruleset().table.terrain))
    except RulesetError:
        return []  # onefinity's own check reports it
    except LibraryError as error:
        return [checks.Error(str(error), id="tablegen.E001")]
    return []
