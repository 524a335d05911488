from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")

    def save_once(self) -> Any | None:
        """Make the account, or None (with the form's error on the name) when a sign-up at
        the same moment took the name between the form's check and this write: the
        database's unique constraint decides, on SQLite as on PostgreSQL."""
        try:
            with transaction.atomic():
                return self.save()
        except IntegrityError:
            self.add_error(
                "username",
                "This user name was taken a moment ago by someone signing up at the same "
                "time. Nothing was made: choose another name and send the form again.",
            )
            return None
