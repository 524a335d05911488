from typing import Any

from django import forms

from onefinity.rules import current_ruleset
from onefinity.rules.combat import CLOSE_COMBAT, MAX_BURST, MAX_WOUNDS, SHOOTING


def _cards_field(
    label: str, help_text: str, deck: int, required: bool = True, initial: int = 2
) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        min_value=1,
        max_value=deck,
        initial=initial,
        required=required,
        error_messages={
            "min_value": "A player draws at least 1 card.",
            "max_value": f"A player draws at most {deck} cards (a whole deck).",
            "invalid": "Enter a whole number of cards.",
        },
    )


class CardOddsForm(forms.Form):
    """How many cards each side draws in one exchange."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        deck = current_ruleset().cards.deck_size
        self.fields["attacker"] = _cards_field(
            "Attacker draws",
            "Trooper Combat Modifier: fire power + weapon bonus + modifiers.",
            deck,
        )
        self.fields["defender"] = _cards_field(
            "Defender draws",
            "1 + Trooper Defense Modifier: armor + cover + other bonuses "
            "(in close combat: 1 + its close-combat modifier).",
            deck,
        )
        # The whole exchange: optional, each with the value of a plain single shot.
        self.fields["mode"] = forms.ChoiceField(
            label="Exchange",
            choices=[(SHOOTING, "Shooting"), (CLOSE_COMBAT, "Close combat")],
            required=False,
        )
        self.fields["burst"] = _bounded(
            "Shots at the target (burst)", MAX_BURST, "A weapon with B 2 shoots twice."
        )
        self.fields["reaction"] = forms.BooleanField(
            label="The defender reacts with fire (at once; first in close combat)",
            required=False,
        )
        self.fields["reaction_cards"] = _cards_field(
            "It shoots back with",
            "Cards for its reaction: fire power 1 unless an ability says otherwise, + bonuses.",
            deck,
            required=False,
            initial=1,
        )
        self.fields["attacker_defense"] = _cards_field(
            "The attacker defends with", "1 + its Trooper Defense Modifier.", deck, False, 1
        )
        self.fields["attacker_wounds"] = _bounded("Attacker's wounds", MAX_WOUNDS)
        self.fields["defender_wounds"] = _bounded("Defender's wounds", MAX_WOUNDS)
        self.fields["ties_fail"] = forms.BooleanField(
            label="Play-test variant: ties are not broken by suit and fail both sides",
            required=False,
        )


def _bounded(label: str, most: int, help_text: str = "") -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        min_value=1,
        max_value=most,
        initial=1,
        required=False,
        error_messages={
            "min_value": "At least 1.",
            "max_value": f"At most {most}.",
            "invalid": "Enter a whole number.",
        },
    )
