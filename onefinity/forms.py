from typing import Any

from django import forms

from onefinity.rules import current_ruleset


def _cards_field(label: str, help_text: str, deck: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        min_value=1,
        max_value=deck,
        initial=2,
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
            "Defender draws", "1 + Trooper Defense Modifier: armor + cover + other bonuses.", deck
        )
        self.fields["ties_fail"] = forms.BooleanField(
            label="Play-test variant: ties are not broken by suit and fail both sides",
            required=False,
        )
