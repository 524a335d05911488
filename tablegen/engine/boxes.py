"""Terrain boxes: what an organizer owns, the document that says so, and what a box lacks.

The box document is ``{"format": "onefinity-terrain-box", "version": 1, "pieces":
{"<piece id>": count}}`` (with an optional "name", our addition), read strictly like every
document from outside: unknown keys, unknown pieces and counts out of range are refused
with the path of what is wrong.

When a box cannot make a valid table, :func:`what_is_missing` finds out what would: it
tries the box with one or two more of each piece (the pieces most likely to help first,
by what went wrong) and names the smallest additions that make a table.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from onefinity.rules.hexgrid import Board
from onefinity.rules.ruleset import TableRules
from onefinity.rules.text import escaped, quoted, text_problem, without_invisible
from tablegen.engine.generate import (
    Parameters,
    candidates,
    coverage_window,
    encode_counts,
)
from tablegen.engine.library import Piece, TerrainLibrary

__all__ = ["Box", "BoxError", "box_document", "decode_counts", "encode_counts", "read_box_document"]

BOX_FORMAT = "onefinity-terrain-box"
BOX_VERSION = 1
BOX_KEYS = ("format", "version", "name", "pieces")
MAX_COUNT = 99  # of one piece
MAX_PIECES = 300  # in one box, all pieces together
MAX_NAME = 120
DEFAULT_NAME = "My terrain"
# Candidates tried per addition when looking for what a box lacks.
ADVICE_CANDIDATES = 25
NUMBERS = ("no", "one", "two", "three", "four")


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


def _number(count: int) -> str:
    return NUMBERS[count] if count < len(NUMBERS) else str(count)


def _named(count: int, piece: Piece, box: Mapping[str, int]) -> str:
    """`count` of `piece` in words: "two more" of a piece the box holds, "two" of another."""
    more = " more" if box.get(piece.id) else ""
    return f"{_number(count)}{more} {piece.name}"


def _usable(params: Parameters, library: TerrainLibrary) -> list[Piece]:
    return [
        p
        for p in library.pieces.values()
        if params.symmetry != "mirror" or p.mirror_turn is not None
    ]


def shortfall(params: Parameters, rules: TableRules, board: Board, library: TerrainLibrary) -> str:
    """What to add when the box holds too few hexes for the coverage at all; "" when it holds
    enough (whether they make a valid table is for the generator to find out)."""
    assert params.box is not None
    low, _ = coverage_window(params, rules, library, len(board))
    usable = _usable(params, library)
    capacity = sum(params.box.get(p.id, 0) * len(p.hexes) for p in usable)
    if capacity >= low:
        return ""
    short = low - capacity
    largest = max(usable, key=lambda p: (len(p.hexes), p.id))
    count = -(-short // len(largest.hexes))
    if params.symmetry != "none":
        count += count % 2
    unusable = (
        ""
        if params.symmetry != "mirror"
        else (" (in mirror symmetry only pieces whose mirror image is one of their turns count)")
    )
    return (
        f"Add pieces for at least {short} more {'hex' if short == 1 else 'hexes'}: the box "
        f"covers {_hexes(capacity)}{unusable} "
        f"and this coverage needs {low}; for example {_named(count, largest, params.box)}."
    )


def what_is_missing(
    rules: TableRules,
    params: Parameters,
    board: Board,
    library: TerrainLibrary,
    budget_seconds: float = 3.0,
) -> str:
    """In words, what to add to the box of `params` so that it makes a valid table: the
    smallest additions found by trying (e.g. "add one more Large building, 4 hexes, or two
    more Low wall, 3 hexes")."""
    assert params.box is not None
    started = time.perf_counter()
    deadline = started + budget_seconds
    short = shortfall(params, rules, board, library)
    if short:
        return short
    box = dict(params.box)
    low, _ = coverage_window(params, rules, library, len(board))
    pairs = params.symmetry != "none"
    usable = _usable(params, library)
    # What went wrong with the box as it is: the commonest problems of its candidates.
    trouble: Counter[str] = Counter()
    # (at most half the time: the rest is for trying additions)
    for _spec, report, terrain in candidates(
        rules, params, board, limit=ADVICE_CANDIDATES, deadline=started + budget_seconds / 2
    ):
        trouble.update({p.code for p in report.problems})
        if terrain < low:
            trouble["short"] += 1
    height = {p.id: max(rules.terrain[k].height for k in p.kinds()) for p in usable}

    def promise(piece: Piece) -> tuple[int, int]:
        if trouble["table.edge-lanes"] >= trouble["short"] and height[piece.id] > 0:
            return (0, -len(piece.hexes))
        if trouble["short"]:
            return (1, -len(piece.hexes))
        return (2, len(piece.hexes))

    found: list[tuple[int, int, Piece]] = []
    for step in (2, 4) if pairs else (1, 2):
        for piece in sorted(usable, key=promise):
            if time.perf_counter() > deadline or len(found) >= 3:
                break
            if any(f[2].id == piece.id for f in found):
                continue
            extra = step - (box.get(piece.id, 0) % 2 if pairs else 0)
            trial = replace(params, box=box | {piece.id: box.get(piece.id, 0) + extra})
            for _ in candidates(
                rules, trial, board, limit=ADVICE_CANDIDATES, valid_only=True, deadline=deadline
            ):
                found.append((extra * len(piece.hexes), extra, piece))
                break
    if found:
        found.sort(key=lambda f: (f[0], f[1]))
        return "Add " + ", or ".join(_named(extra, piece, box) for _, extra, piece in found) + "."
    return _blocking_advice(rules, params, board, library, usable, deadline)


def _blocking_advice(
    rules: TableRules,
    params: Parameters,
    board: Board,
    library: TerrainLibrary,
    usable: list[Piece],
    deadline: float,
) -> str:
    """When a couple more of any one piece is not enough: how much blocking and elevated
    terrain the box has, against what tables of these settings from the whole catalogue use."""
    assert params.box is not None

    def tall(counts: Mapping[str, int]) -> int:
        return sum(
            n * sum(1 for _, _, k in library.pieces[p].hexes if rules.terrain[k].height > 0)
            for p, n in counts.items()
        )

    have = tall({p.id: params.box.get(p.id, 0) for p in usable})
    used = []
    for seed in range(5):
        catalogue = replace(params, seed=params.seed + seed, box=None)
        if seed and time.perf_counter() > deadline:
            break
        for spec, _, _ in candidates(
            rules, catalogue, board, limit=ADVICE_CANDIDATES, valid_only=True, deadline=deadline
        ):
            counts = Counter(p.piece for p in spec.placed())
            used.append(tall(counts))
            break
    typical = sorted(used)[len(used) // 2] if used else None
    if have and (typical is None or typical <= have):
        # Not a want of tall terrain (or no table of the catalogue made in time to say so):
        # what the box lacks is what fits between its pieces.
        smaller = sorted(usable, key=lambda p: (len(p.hexes), p.id))
        others = [p for p in smaller if not params.box.get(p.id)][:2] or smaller[:2]
        count = 2 if params.symmetry != "none" else 1
        examples = " and ".join(_named(count, p, params.box) for p in others)
        enough = "" if typical is None else ", as many as tables of these settings use,"
        return (
            f"It has {_hexes(have)} of blocking and elevated terrain{enough} but no addition "
            "of one piece tried in the time made a valid table: pieces of other sizes let "
            f"the generator fill the table; try adding {examples}."
        )
    largest = max(
        (p for p in usable if any(rules.terrain[k].height > 0 for k in p.kinds())),
        key=lambda p: (len(p.hexes), p.id),
        default=None,
    )
    need = max((typical or 0) - have, 2)
    example = ""
    if largest is not None:
        tall_hexes = sum(1 for _, _, k in largest.hexes if rules.terrain[k].height > 0)
        count = -(-need // tall_hexes)
        count += count % 2 if params.symmetry != "none" else 0
        example = f", for example {_named(count, largest, params.box)}"
    if typical is None:  # no table of the catalogue made in the time: no figure to give
        return (
            f"The box has {_hexes(have)} of blocking and elevated terrain to close the lanes "
            f"from edge to edge. Add more of it{example}."
        )
    return (
        f"The box has {_hexes(have)} of blocking and elevated terrain to close the lanes from "
        f"edge to edge; tables of these settings use about {typical}. Add {need} or more"
        f"{example}."
    )


def _hexes(count: int) -> str:
    return f"{count} hex" if count == 1 else f"{count} hexes"
