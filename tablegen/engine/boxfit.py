"""Where pieces stand on a board, and what a terrain box can make in a symmetry.

In point or mirror symmetry every piece stands with its image: two of the same piece
(a pair), or one piece that is its own image (it stands on the board's centre in point
symmetry, across the middle row in mirror symmetry). A piece whose mirror image is not one
of its turns cannot stand in mirror symmetry at all (a piece is turned, never flipped).
So a box holds fewer usable hexes in a symmetry than it has: its odd pieces need the
centre, and the centre holds little. :func:`box_fit` counts them, exactly, before any
search, so that a box that cannot make a symmetric table is told so at once, with what
would fix it.

Pure: no Django, no generator (the generator and the advice both use this module).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass

from onefinity.rules.hexgrid import Board
from tablegen.engine.library import Piece, TerrainLibrary

# Nodes the search for the most odd pieces that stand on the centre together may visit
# (a handful of pieces, a few spots each: far below this).
CENTRE_SEARCH_NODES = 20_000


@dataclass(frozen=True)
class Spot:
    """One way a piece stands: its hexes (board indices) with their kinds, and with a
    symmetry the hexes of its image (None when the piece is its own image)."""

    hexes: tuple[int, ...]
    kinds: tuple[str, ...]
    image: tuple[int, ...] | None


@dataclass(frozen=True)
class Spots:
    """Every way a piece stands on a board in a symmetry: `pairs` (with an image apart from
    it; every spot without a symmetry) and `centre` (its own image)."""

    pairs: tuple[Spot, ...]
    centre: tuple[Spot, ...]


@functools.lru_cache(maxsize=512)
def spots(board: Board, piece: Piece, symmetry: str) -> Spots:
    """Every placement of `piece` on `board` (each turn, each anchor) in `symmetry`."""
    mapping = None if symmetry == "none" else board.symmetry(symmetry)
    if symmetry == "mirror" and piece.mirror_turn is None:
        return Spots((), ())
    pairs: list[Spot] = []
    centre: list[Spot] = []
    seen: set[tuple[int, ...]] = set()
    for turn in piece.turns:
        cells = piece.cells(turn)
        for q, r in board.hexes:
            indices = []
            for dq, dr, _ in cells:
                index = board.index.get((q + dq, r + dr))
                if index is None:
                    break
                indices.append(index)
            else:
                key = tuple(sorted(indices))
                if key in seen:
                    continue
                seen.add(key)
                kinds = tuple(kind for _, _, kind in cells)
                if mapping is None:
                    pairs.append(Spot(tuple(indices), kinds, None))
                    continue
                image = tuple(mapping[i] for i in indices)
                if dict(zip(image, kinds, strict=True)) == dict(zip(indices, kinds, strict=True)):
                    centre.append(Spot(tuple(indices), kinds, None))
                elif not set(image) & set(indices):
                    pairs.append(Spot(tuple(indices), kinds, image))
    return Spots(tuple(pairs), tuple(centre))


@dataclass(frozen=True)
class BoxFit:
    """What a box can put on a board in a symmetry."""

    symmetry: str
    hexes: int  # every hex of the box
    usable: int  # the most hexes that can stand at once in the symmetry
    # Pieces (id -> how many) that cannot stand: no mirror image, or one of a kind with no
    # room on the centre.
    left_out: dict[str, int]
    # Of those, the ones that would stand with a twin (a second of the same piece).
    want_twin: tuple[str, ...]
    # Whole units the symmetry lays: each pair's hexes (twice the piece's) and each centre
    # piece's, for the sums a table's terrain can reach.
    units: tuple[int, ...]
    # The odd pieces that stand on the centre together, largest first.
    centre: tuple[str, ...] = ()


def _centre_pieces(board: Board, odd: list[Piece], symmetry: str) -> list[Piece]:
    """The most hexes of odd pieces that can stand on the centre together (each its own
    image, none overlapping): an exact search over the few pieces and spots, bounded."""
    candidates = sorted(
        (p for p in odd if spots(board, p, symmetry).centre),
        key=lambda p: (-len(p.hexes), p.id),
    )
    best: list[Piece] = []
    best_hexes = 0
    nodes = 0

    def search(k: int, taken: frozenset[int], chosen: list[Piece], hexes: int) -> None:
        nonlocal best, best_hexes, nodes
        nodes += 1
        if hexes > best_hexes:
            best, best_hexes = list(chosen), hexes
        if k == len(candidates) or nodes > CENTRE_SEARCH_NODES:
            return
        if hexes + sum(len(p.hexes) for p in candidates[k:]) <= best_hexes:
            return
        piece = candidates[k]
        for spot in spots(board, piece, symmetry).centre:
            if not taken & set(spot.hexes):
                chosen.append(piece)
                search(k + 1, taken | set(spot.hexes), chosen, hexes + len(spot.hexes))
                chosen.pop()
                if nodes > CENTRE_SEARCH_NODES:
                    return
        search(k + 1, taken, chosen, hexes)

    search(0, frozenset(), [], 0)
    return best


@functools.lru_cache(maxsize=256)
def _box_fit(board: Board, pieces: tuple[tuple[Piece, int], ...], symmetry: str) -> BoxFit:
    total = sum(len(p.hexes) * n for p, n in pieces)
    if symmetry == "none":
        units = tuple(len(p.hexes) for p, n in pieces for _ in range(n))
        return BoxFit(symmetry, total, total, {}, (), units)
    left_out: dict[str, int] = {}
    units_list: list[int] = []
    odd: list[Piece] = []
    for piece, count in pieces:
        if symmetry == "mirror" and piece.mirror_turn is None:
            left_out[piece.id] = count
            continue
        units_list += [2 * len(piece.hexes)] * (count // 2)
        if count % 2:
            odd.append(piece)
    centre = _centre_pieces(board, odd, symmetry)
    units_list += [len(p.hexes) for p in centre]
    for piece in odd:
        if piece not in centre:
            left_out[piece.id] = left_out.get(piece.id, 0) + 1
    usable = sum(units_list)
    want_twin = tuple(
        p.id for p in odd if p not in centre and (symmetry != "mirror" or p.mirror_turn is not None)
    )
    return BoxFit(
        symmetry,
        total,
        usable,
        left_out,
        want_twin,
        tuple(units_list),
        tuple(p.id for p in centre),
    )


def box_fit(board: Board, box: Mapping[str, int], symmetry: str, library: TerrainLibrary) -> BoxFit:
    """How many of a box's hexes can stand at once in `symmetry`, and which pieces cannot."""
    pieces = tuple((library.pieces[p], n) for p, n in sorted(box.items()) if n > 0)
    return _box_fit(board, pieces, symmetry)


def reachable(units: tuple[int, ...], low: int, high: int) -> bool:
    """Can some of the units together come to between `low` and `high` hexes?"""
    sums = 1
    for size in units:
        sums |= sums << size
        sums &= (1 << (high + 1)) - 1
    return bool(sums >> low)


def nearest_sums(units: tuple[int, ...], low: int, high: int) -> tuple[int | None, int | None]:
    """The nearest sums of some units below `low` and above `high` (None: there is none)."""
    sums = 1
    for size in units:
        sums |= sums << size
    below = sums & ((1 << low) - 1)
    above = sums >> (high + 1)
    under = below.bit_length() - 1 if below else None
    over = high + 1 + (above & -above).bit_length() - 1 if above else None
    return under, over


def hexes_words(count: int) -> str:
    return f"{count} hex" if count == 1 else f"{count} hexes"


# --- What a box lacks, said at once -------------------------------------------------------

NUMBERS = ("no", "one", "two", "three", "four")


@dataclass(frozen=True)
class Advice:
    """What a box lacks for a table, in words, and the pieces that would fix it (added to
    the box they make a table: the tests apply them and generate again)."""

    cause: str  # "coverage", "symmetry", "sizes", "lanes", "balance"
    message: str
    add: dict[str, int]


def number(count: int) -> str:
    return NUMBERS[count] if count < len(NUMBERS) else str(count)


def named(count: int, piece: Piece, box: Mapping[str, int]) -> str:
    """`count` of `piece` in words: "two more" of a piece the box holds, "two" of another."""
    more = " more" if box.get(piece.id) else ""
    return f"{number(count)}{more} {piece.name}"


def listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


SYMMETRY_RULE = {
    "point": (
        "In point symmetry every piece stands with a twin turned half round opposite it; "
        "only a piece that is its own image stands alone, on the centre, and the centre "
        "holds little"
    ),
    "mirror": (
        "In mirror symmetry every piece stands with its mirror image across the middle row, "
        "which must be one of its own turns (pieces are turned, never flipped); only a piece "
        "that is its own image stands alone, across the middle row"
    ),
}


def box_problem(
    board: Board,
    box: Mapping[str, int],
    symmetry: str,
    window: tuple[int, int],
    coverage: float,
    library: TerrainLibrary,
) -> Advice | None:
    """Why the box cannot make a table of this coverage and symmetry at all, found by
    counting (no search): too few hexes, pieces the symmetry cannot stand, or piece sizes
    that never add up to the coverage; None when it may."""
    low, high = window
    whole = box_fit(board, box, "none", library)
    if whole.usable < low:
        return _too_few(board, box, symmetry, whole, low, coverage, library)
    if symmetry == "none":
        fit = whole
    else:
        fit = box_fit(board, box, symmetry, library)
        if fit.usable < low:
            return _unstandable(board, box, symmetry, fit, low, coverage, library)
    if not reachable(fit.units, low, high):
        return _sizes(board, box, symmetry, fit, window, coverage, library)
    return None


def _too_few(
    board: Board,
    box: Mapping[str, int],
    symmetry: str,
    whole: BoxFit,
    low: int,
    coverage: float,
    library: TerrainLibrary,
) -> Advice:
    """The box has fewer hexes than the coverage needs, whatever the symmetry: pieces to
    add, or the most coverage it can make when that may be asked."""
    n = len(board)
    short = low - whole.usable
    add = _enough(library, box, short, symmetry, board)
    lower = math.floor(100 * (whole.usable + library.generator.coverage_slack) / n) / 100
    or_less = (
        f", or ask for coverage {lower:.2f} or less"
        if lower >= library.generator.coverage_asked_min
        else ""
    )
    return Advice(
        "coverage",
        f"The box has {hexes_words(whole.usable)} of terrain and coverage {coverage:.2f} "
        f"needs at least {low} of the board's {n}. Add pieces for {hexes_words(short)} "
        f"more, for example {_add_words(add, library, box)}{or_less}.",
        add,
    )


def _unstandable(
    board: Board,
    box: Mapping[str, int],
    symmetry: str,
    fit: BoxFit,
    low: int,
    coverage: float,
    library: TerrainLibrary,
) -> Advice:
    """The symmetry leaves fewer of the box's hexes standing than the coverage needs: which
    pieces cannot stand, and the twins (then pairs) that would make up the difference."""
    out = [
        f"{named(count, library.pieces[p], {})}"
        for p, count in sorted(fit.left_out.items(), key=lambda kv: kv[0])
    ]
    twins = _twins(board, box, symmetry, fit, low, library)
    fix = f"Add {_add_words(twins, library, box, twin=True)}, or generate with no symmetry"
    return Advice(
        "symmetry",
        f"This box cannot make a table in {symmetry} symmetry at coverage "
        f"{coverage:.2f}. {SYMMETRY_RULE[symmetry]}. Of this box these cannot "
        f"stand: {'; '.join(out)}. That leaves {fit.usable} of its {fit.hexes} "
        f"hexes, and the coverage needs at least {low}. {fix}.",
        twins,
    )


def _twins(
    board: Board,
    box: Mapping[str, int],
    symmetry: str,
    fit: BoxFit,
    low: int,
    library: TerrainLibrary,
) -> dict[str, int]:
    """A twin for each odd piece left out, the largest first, until the coverage is met;
    when twins are not enough, pairs of the box's largest usable piece besides."""
    twins: dict[str, int] = {}
    usable = fit.usable
    for piece_id in sorted(fit.want_twin, key=lambda p: (-len(library.pieces[p].hexes), p)):
        if usable >= low:
            break
        twins[piece_id] = 1
        usable += 2 * len(library.pieces[piece_id].hexes)
    if usable < low:
        extra = _enough(library, box, low - usable, symmetry, board)
        for piece_id, count in extra.items():
            twins[piece_id] = twins.get(piece_id, 0) + count
    return twins


def _sizes(
    board: Board,
    box: Mapping[str, int],
    symmetry: str,
    fit: BoxFit,
    window: tuple[int, int],
    coverage: float,
    library: TerrainLibrary,
) -> Advice:
    low, high = window
    under, over = nearest_sums(fit.units, low, high)
    made = " or ".join(str(v) for v in (under, over) if v is not None)
    step = 1 if symmetry == "none" else 2
    add: dict[str, int] = {}
    for piece in sorted(library.pieces.values(), key=lambda p: (len(p.hexes), p.id)):
        if symmetry == "mirror" and piece.mirror_turn is None:
            continue
        units = (*fit.units, step * len(piece.hexes))
        if reachable(units, low, high):
            add = {piece.id: step}
            break
    in_symmetry = "" if symmetry == "none" else f" in {symmetry} symmetry (in pairs)"
    return Advice(
        "sizes",
        f"The box's pieces{in_symmetry} make tables of {made} terrain hexes, never "
        f"{low} to {high} as coverage {coverage:.2f} asks: their sizes do not add up to it. "
        f"Add {_add_words(add, library, box)}, or ask for another coverage.",
        add,
    )


def _enough(
    library: TerrainLibrary, box: Mapping[str, int], short: int, symmetry: str, board: Board
) -> dict[str, int]:
    """Pieces for `short` more usable hexes: of the largest piece the box holds that stands
    in the symmetry (in pairs with one), else the catalogue's."""
    usable = [
        p for p in library.pieces.values() if symmetry != "mirror" or p.mirror_turn is not None
    ]
    held = [p for p in usable if box.get(p.id)]
    largest = max(held or usable, key=lambda p: (len(p.hexes), p.id))
    count = -(-short // len(largest.hexes))
    if symmetry != "none":
        count += count % 2
    return {largest.id: count}


def _add_words(
    add: Mapping[str, int], library: TerrainLibrary, box: Mapping[str, int], twin: bool = False
) -> str:
    parts = []
    for piece_id, count in add.items():
        piece = library.pieces[piece_id]
        if twin and count == 1 and box.get(piece_id):
            parts.append(f"a twin of the {piece.name}")
        else:
            parts.append(named(count, piece, box))
    return listed(parts)
