"""How a ruleset's words about a number read: its templates with the numbers put in.

A ruleset writes the message and fix of a constraint's problem as text that names its
numbers in braces (Python's format syntax with names only). A number is written as it is
(``{limit}``), with a noun that it counts (``{units:unit}``: "1 unit", "5 units"), or as the
form it chooses among several separated by ``|``: a form ``=N text`` is said of exactly N,
the last form of every other number, and ``#`` in a form stands for the number
(``{limit:=1 is|are}``, ``{limit:=0 may have no specialist|may have at most #}``).
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping


class WordingError(ValueError):
    """A template that cannot be said: what is wrong, in words for the ruleset's author."""


def say(number: int, form: str) -> str:
    """``number`` in the words of one form (see the module's docstring)."""
    said = str(number)
    if "|" not in form:
        return f"{said} {form if number == 1 else form + 's'}"
    *exact, other = form.split("|")
    for choice in exact:
        # Checked when the ruleset is read (check_template): each is "=N text".
        value, _, text = choice[1:].partition(" ")
        if int(value) == number:
            return text.replace("#", said)
    return other.replace("#", said)


@functools.lru_cache(maxsize=1024)
def _compiled(template: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The template as a format string whose numbers said in words are positional, and
    those numbers' names and forms (a ruleset has a few dozen templates: each is read once)."""
    parts: list[str] = []
    said: list[tuple[str, str]] = []
    for literal, name, form, _ in string.Formatter().parse(template):
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is None:
            continue
        if form:
            parts.append(f"{{{len(said)}}}")
            said.append((name, form))
        else:
            parts.append(f"{{{name}}}")
    return "".join(parts), tuple(said)


def fill(template: str, values: Mapping[str, int | str]) -> str:
    """The template with its names filled in; numbers may be said in words (a template
    checked by check_template says only numbers in words)."""
    text, said = _compiled(template)
    return text.format(*[say(int(values[name]), form) for name, form in said], **values)


def fill_each(templates: tuple[str, ...], values: Mapping[str, int | str]) -> tuple[str, ...]:
    """Each template with the same names filled in (an empty template stays empty)."""
    return _filled(templates, tuple(values.items()))


# The editor validates a list a dozen times a change, its copies breaking the same limits
# with the same numbers: their words are said once.
@functools.lru_cache(maxsize=4096)
def _filled(
    templates: tuple[str, ...], values: tuple[tuple[str, int | str], ...]
) -> tuple[str, ...]:
    named = dict(values)
    return tuple(fill(template, named) if template else "" for template in templates)


def check_template(template: str, numbers: tuple[str, ...], words: tuple[str, ...]) -> None:
    """Raise WordingError unless ``template`` names only ``numbers`` and ``words`` (text),
    and says only numbers in words, each form well made."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as error:
        raise WordingError(f"cannot be read ({error}); write a brace as {{{{ or }}}}") from None
    known = ", ".join(f"{{{name}}}" for name in numbers + words)
    for _, name, form, conversion in fields:
        if name is None:
            continue
        if name not in numbers and name not in words:
            raise WordingError(f"{{{name}}} is not one of its names: {known}")
        if conversion is not None or (form and "{" in form):
            raise WordingError(f"{{{name}}}: write a name, or a number with its words")
        if form and name in words:
            raise WordingError(f"{{{name}:{form}}}: only a number is said in words")
        if form and "|" in form:
            _check_forms(name, form)


def _check_forms(name: str, form: str) -> None:
    *exact, _ = form.split("|")
    for choice in exact:
        value, space, _ = choice.partition(" ")
        if not (value.startswith("=") and value[1:].isdigit() and space):
            raise WordingError(
                f"{{{name}:{form}}}: each form before the last is '=N words', like '=1 is'"
            )
