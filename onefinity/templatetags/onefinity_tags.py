from fractions import Fraction

from django import template

from onefinity.rules.ruleset import ALL, CatalogueEntry, Ruleset, TrooperClass

register = template.Library()


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
def effects_summary(entry: CatalogueEntry) -> str:
    effects = entry.effects
    parts = []
    for name, label in (
        ("shooting", "shooting"),
        ("close_combat", "close combat"),
        ("defense", "defense"),
        ("movement", "movement"),
        ("wounds", "wounds"),
    ):
        value = getattr(effects, name)
        if value:
            parts.append(f"{value:+d} {label}")
    if parts and effects.bands:
        parts.append("at " + "/".join(effects.bands))
    return " ".join(parts)


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
