"""Small formatting helpers for the force builder's pages."""

from __future__ import annotations

from django import template

from onefinity.wording import place_in_words as _place_in_words

register = template.Library()


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


@register.filter
def article(word: str) -> str:
    """'a' or 'an' before a word, as it is spoken often enough: 'an Engineer', 'a TAG'."""
    return "an" if word[:1].upper() in "AEIOU" else "a"


@register.filter
def place_in_words(path: str) -> str:
    """A rule's path, ``units[1].troopers[0]``, as "unit 2, trooper 1"."""
    return _place_in_words(path)
