"""Shared plumbing for the engine's commands: reading a JSON file with a clear error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from onefinity.rules import RulesetError
from onefinity.rules.jsontext import JsonTextError, parse_json

# Refuse absurd inputs before parsing them: no legal document comes close.
MAX_DOCUMENT_BYTES = 1_000_000


def read_json_file(filename: str, what: str) -> Any:
    """Parse a JSON file, or raise CommandError (exit 2) with one clear line."""
    path = Path(filename)
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            raise CommandError(
                f"{filename}: {size} bytes is too large for a {what} (at most {MAX_DOCUMENT_BYTES})",
                returncode=2,
            )
        text = path.read_text(encoding="utf-8")
    except CommandError:
        raise
    except IsADirectoryError:
        raise CommandError(f"{filename}: is a folder, not a {what} file", returncode=2) from None
    except FileNotFoundError:
        raise CommandError(f"{filename}: no such file", returncode=2) from None
    except PermissionError:
        raise CommandError(f"{filename}: permission denied", returncode=2) from None
    except UnicodeDecodeError:
        raise CommandError(f"{filename}: not UTF-8 text, so not a {what}", returncode=2) from None
    except OSError as error:
        raise CommandError(f"{filename}: cannot be read ({error.strerror})", returncode=2) from None
    try:
        return parse_json(text)
    except JsonTextError as error:
        raise CommandError(f"{filename}: {error}", returncode=2) from None


def write_json(command: Any, document: Any) -> None:
    command.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))


class EngineCommand(BaseCommand):
    """A command over the pure rules engine: no database or URLs needed, so it skips the
    site's system checks, and a broken ruleset file is one clear line (exit 2)."""

    requires_system_checks: list[str] = []

    def execute(self, *args: Any, **options: Any) -> Any:
        try:
            return super().execute(*args, **options)
        except RulesetError as error:
            raise CommandError(f"the ruleset cannot be used: {error}", returncode=2) from None
