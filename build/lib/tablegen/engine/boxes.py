"""Terrain boxes: what an organizer owns, the document that says so, and what a box lacks.

The box document is ``{"format": "onefinity-terrain-box", "version": 1, "pieces":
{"<piece id>": count}}`` (with an optional "name", our addition), read strictly like every
document from outside: unknown keys, unknown pieces and counts out of range are refused
with the path of what is wrong.

When a box cannot make a valid table, :func:`what_is_missing` says what it lacks (see
tablegen.engine.boxfit and generate.search_advice). This module imports the generator; the
generator never imports it.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace

from onefinity.rules.hexgrid import Board
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import escaped, quoted, text_problem, without_invisible
from tablegen.engine.boxfit import box_problem
from tablegen.engine.generate import (
    ADVICE_CANDIDATES,
    ADVICE_SEEDS,
    Parameters,
    candidates,
    coverage_window,
    encode_counts,
    enough_terrain,
    search_advice,
)
from tablegen.engine.library import TerrainLibrary

__all__ = ["Box", "BoxError", "box_document", "decode_counts", "encode_counts", "read_box_document"]

BOX_FORMAT = "onefinity-terrain-box"
BOX_VERSION = 1
BOX_KEYS = ("format", "version", "name", "pieces")
MAX_COUNT = 99  # of one piece
MAX_PIECES = 300  # in one box, all pieces together
MAX_NAME = 120
DEFAULT_NAME = "My terrain"


class BoxError(ValueError):
    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)


@dataclass(frozen=True)
class Box:
    name: str
    # Piece id -> how many are owned (only counts above 0 are kept).
    pieces: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.pieces.values())


def read_counts(value: object, library: TerrainLibrary, path: str = "pieces") -> dict[str, int]:
    if not isinstance(value, dict):
        raise BoxError(path, 'expected an object of piece ids and counts, like {"wall-3": 4}')
    if len(value) > len(library.pieces):
        raise BoxError(
            path, f"has {len(value)} entries; the library has {len(library.pieces)} pieces"
        )
    counts = {}
    for key, count in value.items():
        if not isinstance(key, str) or key not in library.pieces:
            raise BoxError(f"{path}.{escaped(key)}", "no piece of the library has this id")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
            raise BoxError(f"{path}.{key}", f"expected a whole number from 0 to {MAX_COUNT}")
        if count:
            counts[key] = count
    total = sum(counts.values())
    if total > MAX_PIECES:
        raise BoxError(path, f"holds {total} pieces; a box holds at most {MAX_PIECES}")
    return dict(sorted(counts.items()))


def read_box_document(document: object, library: TerrainLibrary) -> Box:
    if not isinstance(document, dict):
        raise BoxError("", "expected an object: this is not a terrain box document")
    for key in document:
        if key not in BOX_KEYS:
            raise BoxError(
                "", f"unknown key {quoted(key)} (expected one of: {', '.join(BOX_KEYS)})"
            )
    if document.get("format") != BOX_FORMAT:
        raise BoxError("format", f"expected {BOX_FORMAT!r}: this is not a terrain box document")
    version = document.get("version")
    if version != BOX_VERSION or isinstance(version, bool):
        raise BoxError("version", f"this site reads version {BOX_VERSION}")
    name = read_box_name(document.get("name"))
    if "pieces" not in document:
        raise BoxError("pieces", "missing")
    return Box(name, read_counts(document["pieces"], library))


# A box of no pieces would make tables of the whole catalogue, as no box does: a stored one
# still reads (from before it was refused), a new one is refused.
EMPTY_BOX = "holds no piece: a terrain box holds at least one piece"


def read_new_box(document: object, library: TerrainLibrary) -> Box:
    """A box document about to be kept (an import): as read_box_document, and not empty."""
    box = read_box_document(document, library)
    if not box.pieces:
        raise BoxError("pieces", EMPTY_BOX)
    return box


def read_box_name(value: object) -> str:
    if value is None:
        return DEFAULT_NAME
    if not isinstance(value, str):
        raise BoxError("name", f"expected text of at most {MAX_NAME} characters")
    name = " ".join(without_invisible(value).split())
    if len(name) > MAX_NAME:
        raise BoxError("name", f"is {len(name)} characters long; at most {MAX_NAME}")
    problem = text_problem(name)
    if problem:
        raise BoxError("name", problem)
    return name or DEFAULT_NAME


def box_document(box: Box) -> dict[str, object]:
    return {"format": BOX_FORMAT, "version": BOX_VERSION, "name": box.name, "pieces": box.pieces}


def decode_counts(text: str, library: TerrainLibrary) -> dict[str, int]:
    """Counts from `encode_counts`' text; BoxError for anything else."""
    counts: dict[str, int] = {}
    for part in text.split(",") if text else []:
        piece, _, number = part.partition(":")
        if not number.isascii() or not number.isdigit() or len(number) > 2:
            raise BoxError("box", f"expected piece:count pairs, not {quoted(part)}")
        if piece in counts:
            raise BoxError("box", f"{quoted(piece)} is listed twice")
        counts[piece] = int(number)
    return read_counts(counts, library, "box")


# --- What a box lacks ---------------------------------------------------------------------


def what_is_missing(
    rules: TableRules,
    params: Parameters,
    board: Board,
    library: TerrainLibrary,
    budget_seconds: float = 1.0,
) -> str:
    """In words, what the box of `params` lacks for a valid table: at once when counting
    shows it (too few hexes, a symmetry without pairs, sizes that never add up), else from
    the trouble of a few candidates and the additions that make a table (the same whatever
    the seed asked)."""
    assert params.box is not None
    deadline = time.perf_counter() + budget_seconds
    window = coverage_window(params, rules, library, len(board))
    problem = box_problem(board, params.box, params.symmetry, window, params.coverage, library)
    if problem is not None:
        if problem.cause == "coverage":
            problem = enough_terrain(rules, params, board, library, problem, deadline)
        return problem.message
    trouble: Counter[str] = Counter()
    for seed in ADVICE_SEEDS:
        for _spec, report, _ in candidates(
            rules, replace(params, seed=seed), board, limit=ADVICE_CANDIDATES, deadline=deadline
        ):
            trouble.update(p.code for p in report.problems)
    return search_advice(rules, params, board, library, trouble, deadline).message
