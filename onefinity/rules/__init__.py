"""The Onefinity rules engine: pure Python, no Django.

Rules live in data (``onefinity/data/rulesets``); this package loads them and answers
questions about force lists and card draws.
"""

from onefinity.rules.cards import CardOddsError, ExchangeOdds, exchange_odds
from onefinity.rules.choices import added_errors
from onefinity.rules.force import (
    ForceDocumentError,
    ForceSpec,
    TrooperSpec,
    UnitSpec,
    force_document,
    read_force_document,
)
from onefinity.rules.points import force_cost, trooper_cost
from onefinity.rules.profile import TrooperProfile, trooper_profile
from onefinity.rules.ruleset import Ruleset, RulesetError, RulesetLibrary
from onefinity.rules.ruleset_file import current_ruleset, library
from onefinity.rules.validation import (
    Issue,
    Report,
    allowed_entries,
    check_force,
    check_force_document,
    validate_force,
)

__all__ = [
    "CardOddsError",
    "ExchangeOdds",
    "ForceDocumentError",
    "ForceSpec",
    "Issue",
    "Report",
    "Ruleset",
    "RulesetError",
    "RulesetLibrary",
    "TrooperProfile",
    "TrooperSpec",
    "UnitSpec",
    "added_errors",
    "allowed_entries",
    "check_force",
    "check_force_document",
    "current_ruleset",
    "exchange_odds",
    "force_cost",
    "force_document",
    "library",
    "read_force_document",
    "trooper_cost",
    "trooper_profile",
    "validate_force",
]
