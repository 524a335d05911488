"""Load the demo data for `make run`: a demo account holding the example lists and tables."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from forcebuilder.models import Force
from onefinity.examples import example_forces
from onefinity.rules import library
from onefinity.rules.hexgrid import standard_board
from tablegen.engine.generate import Parameters, generate_table
from tablegen.models import Table

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "onefinity-demo"


class Command(BaseCommand):
    help = "Create the demo account and its example lists (local development only; idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("load_demo creates a known password: run it only with DEBUG=1")
        user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        state = "created" if created else "already there"
        self.stdout.write(f"Demo account {DEMO_USERNAME!r} / {DEMO_PASSWORD!r}: {state}.")
        current = library().current
        for example in example_forces():
            if Force.objects.filter(owner=user, name=example.force.name).exists():
                continue
            Force.create_from_spec(
                example.force,
                example.force.ruleset or current.version,
                example.force.points_limit or current.force_limits.points,
                owner=user,
            )
            verdict = "legal" if example.report.legal else "not legal"
            self.stdout.write(
                f"Demo list {example.force.name!r}: {example.report.points} points, {verdict}."
            )
        rules = current.table
        for seed, symmetry in ((2026, "point"), (1111, "mirror")):
            name = f"Demo table {seed} ({symmetry} symmetry)"
            if Table.objects.filter(owner=user, name=name).exists():
                continue
            spec, _ = generate_table(
                rules,
                Parameters(seed=seed, symmetry=symmetry),
                standard_board(rules.rows, rules.columns),
                name,
            )
            table = Table(owner=user)
            table.set_spec(spec)
            table.save()
            self.stdout.write(f"Demo table {name!r}.")
