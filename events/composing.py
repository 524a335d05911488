"""Put what repeats on the table sheets on them without laying it out once per sheet.

WeasyPrint lays out a table map (a third of a second) and a list's summary every time they
appear, and a round's sheets repeat the same few tables, the event's sheets the same
players' lists. So each is rendered once, on a "stamp" page of its own, and every sheet page
draws the stamps it needs as form XObjects (drawings defined once in the file and placed by
reference), moved sideways where needed. The stamps' pages and the sheets have the same page
size and boxes, so each stamp lands where the sheet left room for it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, cast

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NumberObject,
)


class CompositionError(ValueError):
    """The sheets did not come out one page each: the caller draws the maps inline."""


def _stream(writer: PdfWriter, data: bytes) -> IndirectObject:
    stream = DecodedStreamObject()
    stream.set_data(data)
    return writer._add_object(stream)


def _contents(page: DictionaryObject) -> list[Any]:
    contents = page["/Contents"]
    resolved = contents.get_object()
    return list(resolved) if isinstance(resolved, ArrayObject) else [contents]


Placement = tuple[int, float]  # a page of the stamps, and how far right to move it (pt)


def _form(writer: PdfWriter, source: PageObject) -> IndirectObject:
    """A page of the stamps as a form XObject in ``writer``'s file."""
    form = DecodedStreamObject()
    form.set_data(b"\n".join(part.get_object().get_data() for part in _contents(source)))
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    box = source.mediabox
    form[NameObject("/BBox")] = ArrayObject([NumberObject(0), NumberObject(0), box[2], box[3]])
    resources = cast(DictionaryObject, source["/Resources"].get_object())
    form[NameObject("/Resources")] = resources.clone(writer)
    return writer._add_object(form)


def compose(
    leading: bytes | None,
    sheets: bytes,
    stamps: bytes,
    placements: Sequence[Sequence[Placement]],
) -> bytes:
    """``leading`` pages (rosters) as they are, then the ``sheets`` pages, sheet ``i``
    carrying the pages of ``stamps`` that ``placements[i]`` names, each moved right by its
    offset."""
    sheet_reader = PdfReader(io.BytesIO(sheets))
    if len(sheet_reader.pages) != len(placements):
        raise CompositionError(
            f"{len(sheet_reader.pages)} sheet pages for {len(placements)} sheets"
        )
    writer = PdfWriter()
    if leading is not None:
        writer.append(PdfReader(io.BytesIO(leading)))
    first_sheet = len(writer.pages)
    writer.append(sheet_reader)
    stamp_reader = PdfReader(io.BytesIO(stamps)) if stamps else None
    forms: dict[int, IndirectObject] = {}
    for offset, placed in enumerate(placements):
        if not placed or stamp_reader is None:
            continue
        page = writer.pages[first_sheet + offset]
        resources = cast(DictionaryObject, page["/Resources"].get_object())
        if "/XObject" not in resources:
            resources[NameObject("/XObject")] = DictionaryObject()
        drawing = [b"Q"]
        for index, dx in placed:
            if index not in forms:
                forms[index] = _form(writer, stamp_reader.pages[index])
            name = f"/EventStamp{index}"
            cast(DictionaryObject, resources["/XObject"].get_object())[NameObject(name)] = forms[
                index
            ]
            drawing.append(f"q 1 0 0 1 {dx:.2f} 0 cm {name} Do Q".encode())
        # The sheet's own drawing leaves its transformation in place: wrap it, so the stamps
        # are drawn in the page's plain coordinates, exactly as on their own pages.
        page[NameObject("/Contents")] = ArrayObject(
            [_stream(writer, b"q"), *_contents(page), _stream(writer, b" ".join(drawing))]
        )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
