from django.db import models
from django.utils import timezone


class Submission(models.Model):
    """One submission of a form that makes a record (a list, a table, an event...): the
    digest of the form's one-time token with what it sent, and the record it made. A second
    submission of the same form (a double tap, a phone resending on bad Wi-Fi) finds it here
    instead of making another. Kept for ``onefinity.once.KEPT``. See ``onefinity.once``."""

    key = models.CharField(max_length=64, unique=True)
    made = models.BigIntegerField(null=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"submission at {self.at:%Y-%m-%d %H:%M:%S}"
