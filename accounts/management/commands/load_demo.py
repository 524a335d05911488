"""Load the demo data for `make run`: a demo account holding each app's examples."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.part_registry import account_parts

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "onefinity-demo"


class Command(BaseCommand):
    help = "Create the demo account and its example lists and tables (local development only; idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("load_demo creates a known password: run it only with DEBUG=1")
        user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        state = "created" if created else "already there"
        self.stdout.write(f"Demo account {DEMO_USERNAME!r} / {DEMO_PASSWORD!r}: {state}.")
        for part in account_parts():
            if part.demo is not None:
                for line in part.demo(user):
                    self.stdout.write(line)
