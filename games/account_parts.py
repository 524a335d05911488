"""Games in the account pages (accounts.part_registry): the export holds every game the account
plays (its lists, table, state and log); deleting the account deletes the games it started
and leaves those it joined to their other player, without its name."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest

from accounts.part_registry import AccountPart, Damaged, register
from games.models import Game
from games.playing import log_json

GAMES_EXPORT_FORMAT = "onefinity-games"


def export_account(user: Any) -> dict[str, Any]:
    games = []
    for game in Game.objects.playing(user).prefetch_related("steps__player"):
        games.append(
            {
                "side": game.side_of(user),
                "created": game.created.isoformat(),
                "list_a": game.list_a,
                "list_b": game.list_b,
                "table": game.table,
                "table_name": game.table_name,
                "ruleset": game.ruleset_version,
                "vp_target": game.vp_target,
                "state": game.state,
                "log": log_json(game)["steps"],
            }
        )
    return {"format": GAMES_EXPORT_FORMAT, "version": 1, "games": games}


def deletion_summary(user: Any) -> list[str]:
    lines = []
    started = Game.objects.filter(owner=user).count()
    if started:
        lines.append(f"The {started} game{'s' if started != 1 else ''} you started are deleted.")
    joined = Game.objects.filter(player_b=user).exclude(owner=user).count()
    if joined:
        lines.append(
            f"The {joined} game{'s' if joined != 1 else ''} you joined stay with their other "
            "player, without your name."
        )
    return lines


def delete_account_data(user: Any) -> None:
    with transaction.atomic():
        Game.objects.filter(owner=user).delete()
        Game.objects.filter(player_b=user).update(player_b=None, b_left=True)


def _count(request: HttpRequest) -> int:
    return Game.objects.playing(request.user).count()


def _export(request: HttpRequest) -> tuple[Any, list[Damaged]]:
    if not request.user.is_authenticated:
        return {"format": GAMES_EXPORT_FORMAT, "version": 1, "games": []}, []
    return export_account(request.user), []


register(
    AccountPart(
        key="games",
        label="games played",
        count=_count,
        export=_export,
        deletion=deletion_summary,
        delete=delete_account_data,
    )
)
