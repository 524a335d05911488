"""Small formatting helpers for the force builder's pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


@register.filter
def article(word: str) -> str:
    """'a' or 'an' before a word, as it is spoken often enough: 'an Engineer', 'a TAG'."""
    return "an" if word[:1].upper() in "AEIOU" else "a"
