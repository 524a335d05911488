from django.db import models


class LoginFailure(models.Model):
    """A failed login, kept briefly to slow down password guessing (shared by every app
    server through the database)."""

    key = models.CharField(max_length=64, db_index=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.key} at {self.at:%Y-%m-%d %H:%M}"
