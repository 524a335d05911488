import datetime
from fractions import Fraction

from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from onefinity.once import FIELD, new_token
from onefinity.rules.combat import ExchangeResult
from onefinity.rules.effects import describe_entry
from onefinity.rules.ruleset import ALL, CatalogueEntry, Ruleset, TrooperClass

register = template.Library()


@register.simple_tag
def utc_time(moment: datetime.datetime | None, shown: str = "j M Y H:i") -> SafeString | str:
    """A moment as the server knows it, "27 Nov 2026 17:58 UTC", in a ``<time>`` that the
    site's script shows in the reader's own time (a phone at the venue: its clock's)."""
    if moment is None:
        return ""
    utc = timezone.localtime(moment, datetime.UTC)
    return format_html(
        '<time datetime="{}" data-local>{} UTC</time>',
        utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        dateformat.format(utc, shown),
    )


@register.simple_tag
def once_token() -> SafeString:
    """The one-time token of a form that makes a record (onefinity.once): a new one each
    time the form is drawn, so the same form sent twice makes one record."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())


@register.filter
def upto(low: int, high: int) -> str:
    """A range of counts as a player reads it: "2 to 6" with an en dash, or "1" where both
    ends are one."""
    return f"{low}" if low == high else f"{low}\N{EN DASH}{high}"


@register.filter
def percent(value: Fraction | float) -> str:
    """A probability as a percentage with one decimal, e.g. 60.6 %."""
    return f"{percent_number(value)} %"


@register.filter
def percent_number(value: Fraction | float) -> str:
    """A probability as a plain percentage number (for CSS widths), e.g. 60.6."""
    return f"{float(value) * 100:.1f}"


@register.filter
def fire_power(weapon: CatalogueEntry, band: str) -> int:
    return weapon.fire_power.get(band, 0)


@register.filter
def availability(entry: CatalogueEntry | TrooperClass, ruleset: Ruleset) -> str:
    """Who may take an entry, in words: 'Light Infantry, Medium Infantry · Exomorph Collective'."""
    if ALL in entry.unit_types:
        types = "all unit types"
    else:
        types = ", ".join(ruleset.unit_types[t].name for t in entry.unit_types)
    if ALL in entry.factions:
        factions = "all factions"
    else:
        factions = ", ".join(ruleset.factions[f].name for f in entry.factions)
    return f"{types} · {factions}"


@register.filter
def effect_words(entry: CatalogueEntry, ruleset: Ruleset) -> str:
    """What an entry does to an exchange, in words generated from its data (the engine's
    own wording: onefinity.rules.effects.describe_entry)."""
    return describe_entry(entry, ruleset)


@register.filter
def fates(result: ExchangeResult) -> list[tuple[str, list[tuple[str, Fraction]]]]:
    """How each side ends an exchange, the chances that are not 0, in words."""
    found = []
    for who, fate in (("defender", result.target), ("attacker", result.attacker)):
        chances = [
            (label, value)
            for label, value in (
                ("unhurt", fate.unhurt),
                ("wounded", fate.wounded),
                ("downed", fate.downed),
                ("killed", fate.killed),
            )
            if value
        ]
        if who == "defender" or fate.unhurt != 1:
            found.append((who, chances))
    return found


@register.filter
def provisional_in(path: str, ruleset: Ruleset) -> bool:
    """Whether the ruleset marks the value at that key path as ours, not the rules'."""
    return ruleset.is_provisional(path)


@register.filter
def cards_at(entry: CatalogueEntry, band: str) -> str:
    """A weapon's cards at a range band before the trooper's own modifiers (the engine's
    CatalogueEntry.cards_at), or an en dash where it cannot fire."""
    cards = entry.cards_at(band)
    return "\N{EN DASH}" if cards is None else str(cards)


@register.filter
def get_weapon(weapons: dict[str, CatalogueEntry], weapon_id: str) -> CatalogueEntry | None:
    return weapons.get(weapon_id)


@register.filter
def get_unit_type(unit_types: dict[str, object], unit_type_id: str) -> str:
    unit_type = unit_types.get(unit_type_id)
    return getattr(unit_type, "name", unit_type_id)


@register.filter
def get_item(mapping: dict[str, object], key: str) -> object:
    return mapping.get(key)
