"""The site is in English only, with Django's translation machinery off (USE_I18N, for
speed): dates, numbers and Django's own messages read as they do in en-GB."""

from __future__ import annotations

import datetime

import pytest
from django import forms
from django.conf import settings
from django.template import engines


def render(text: str, **context: object) -> str:
    return engines["django"].from_string(text).render(context)


def test_dates_and_numbers_read_as_british_english():
    assert settings.LANGUAGE_CODE == "en-gb"
    day = datetime.date(2026, 2, 3)
    assert render("{{ day }}", day=day) == "3 Feb 2026"
    assert render("{{ day|date:'l j F Y' }}", day=day) == "Tuesday 3 February 2026"
    assert (
        render("{{ share }} {{ size|filesizeformat }}", share=0.45, size=2048) == "0.45 2.0\xa0KB"
    )


def test_djangos_own_messages_are_english():
    with pytest.raises(forms.ValidationError) as refused:
        forms.IntegerField(max_value=3).clean("4")
    assert refused.value.messages == ["Ensure this value is less than or equal to 3."]
    assert forms.CharField().error_messages["required"] == "This field is required."
