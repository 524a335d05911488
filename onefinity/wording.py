"""A reader's refusal as a player reads it: the problem first, then where it is in words.

The readers (onefinity.rules) say where a document is wrong by its path, ``units[1].troopers[0]
.weapons``, written for a program; a page says "expected a list of ids, got text (unit 2,
trooper 1, weapons)"."""

from __future__ import annotations

import re

from onefinity.rules.text import DocumentError

# A path as the readers write them: names with an optional [index], joined by dots.
_PATH = re.compile(r"\b[a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*")
_STEP = re.compile(r"([a-z_]+)(?:\[(\d+)\])?")
# What one item of each list is called (the list's own name otherwise, as a word).
_ONE = {
    "units": "unit",
    "troopers": "trooper",
    "weapons": "weapon",
    "equipment": "equipment item",
    "abilities": "ability",
    "skills": "unit skill",
    "forces": "list",
    "tables": "table",
    "pieces": "piece",
}


def place_in_words(path: str) -> str:
    """``units[1].troopers[0].weapons`` -> ``unit 2, trooper 1, weapons`` (counted from 1);
    anything not a path, as it is."""
    words = []
    for step in path.split("."):
        match = _STEP.fullmatch(step)
        if match is None:
            return path
        name, index = match.groups()
        word = name.replace("_", " ")
        words.append(f"{_ONE.get(name, word)} {int(index) + 1}" if index is not None else word)
    return ", ".join(words)


def _paths_in_words(text: str) -> str:
    # Only what looks like a path with an index: plain words stay words.
    return _PATH.sub(lambda m: place_in_words(m[0]) if "[" in m[0] else m[0], text)


def problem_in_words(error: DocumentError) -> str:
    """The refusal, problem first: 'expected a list, got a number (unit 1, troopers)'."""
    problem = _paths_in_words(error.problem)
    if not error.path:
        return problem
    where = place_in_words(error.path)
    return problem if where in problem else f"{problem} ({where})"
