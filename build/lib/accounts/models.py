from django.db import models
from django.utils import timezone


class Attempt(models.Model):
    """A password guess, a password-reset e-mail, a sign-up or a fresh piece of heavy work
    (a printout, a job), kept for a while to limit them (shared
    by every app server through the database). Names and addresses are stored as keyed
    digests: the table says how often, never who. See ``accounts.attempts``."""

    class Kind(models.TextChoices):
        PASSWORD = "password", "password guess"
        RESET = "reset", "password-reset e-mail"
        SIGNUP = "signup", "account made"
        WORK = "work", "fresh printout or job"

    kind = models.CharField(max_length=8, choices=Kind)
    account = models.CharField(max_length=64)
    address = models.CharField(max_length=64)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["kind", "account", "at"], name="attempt_by_account"),
            models.Index(fields=["kind", "address", "at"], name="attempt_by_address"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} at {self.at:%Y-%m-%d %H:%M:%S}"
