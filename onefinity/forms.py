from typing import Any

from django import forms

from onefinity.rules import current_ruleset
from onefinity.rules.combat import CLOSE_COMBAT, MAX_BURST, MAX_WOUNDS, SHOOTING
from onefinity.rules.text import whole_number


class StrictIntegerField(forms.IntegerField):
    """A whole number read as docs/security.md says every number is: ASCII digits only
    (``onefinity.rules.text.whole_number``), so Arabic-Indic or full-width digits, ``+3``,
    ``1.0``, `` 5`` and ``1_0`` are refused as "invalid", and a number too long for its
    bounds is refused by its count of digits before anything is converted. Django's
    IntegerField takes all of those (it strips, and int() reads any Unicode digit); a form
    of ours never sends them. The bounds' messages (min_value, max_value) are the field's."""

    def __init__(self, *, max_value: int, min_value: int = 0, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.NumberInput(attrs={"inputmode": "numeric"}))
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or value.startswith("+"):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        # Read wide (up to 18 digits), so that the bounds' own validators word a number
        # out of range; longer is refused by its length alone.
        signed = self.min_value is None or self.min_value < 0
        number = whole_number(value, -(10**18) if signed else 0, 10**18)
        if number is None and value.isascii() and value.isdigit():
            raise forms.ValidationError(
                self.error_messages.get(
                    "max_value", "Ensure this value is less than or equal to %(limit_value)s."
                ),
                code="max_value",
                params={"limit_value": self.max_value},
            )
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def _cards_field(
    label: str, help_text: str, deck: int, required: bool = True, initial: int = 2
) -> StrictIntegerField:
    return StrictIntegerField(
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


def _bounded(label: str, most: int, help_text: str = "") -> StrictIntegerField:
    return StrictIntegerField(
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


class PasteOrUploadForm(forms.Form):
    """A document pasted into a text box or uploaded as its file, read one way for every
    import: the file bounded in bytes before it is read and read as UTF-8, the pasted text
    bounded in bytes too, and one message when neither came. A subclass names its pasted
    field and the document in its own words; `clean` leaves the text as `pasted`."""

    paste_name = "text"
    paste_label = "Paste it"
    paste_rows = 6
    upload_label = "or upload its file"
    # The document in words, with its article: "a force document".
    document = "a document"
    most_bytes = 20_000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[self.paste_name] = forms.CharField(
            label=self.paste_label,
            required=False,
            widget=forms.Textarea(attrs={"rows": self.paste_rows}),
        )
        self.fields["file"] = forms.FileField(label=self.upload_label, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        text = cleaned.get(self.paste_name) or ""
        most, document = self.most_bytes, self.document
        if upload is not None:
            if upload.size > most:
                raise forms.ValidationError(
                    f"That file is {upload.size:,} bytes; {document} is at most {most:,}."
                )
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    f"That file is not UTF-8 text, so not {document}."
                ) from None
        if not text.strip():
            raise forms.ValidationError(f"Paste {document} or choose its file.")
        if len(text.encode("utf-8")) > most:
            raise forms.ValidationError(
                f"{document[0].upper()}{document[1:]} is at most {most:,} bytes."
            )
        cleaned["pasted"] = text
        return cleaned
