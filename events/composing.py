"""Put each table's map on its sheets without laying it out once per sheet.

WeasyPrint lays out and draws an inline SVG map every time it appears: a table map costs
about a third of a second, and a round's sheets repeat the same few tables. So the maps are
rendered once each, on pages of their own, and every sheet page draws its table's map page
as a form XObject (a drawing defined once in the file and placed by reference). Both
documents use the same page size and put the map in the same box, so the map lands where
the sheet left room for it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from pypdf import PdfReader, PdfWriter
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


def _contents(page: DictionaryObject) -> list[object]:
    contents = page["/Contents"]
    resolved = contents.get_object()
    return list(resolved) if isinstance(resolved, ArrayObject) else [contents]


def compose(
    leading: bytes | None, sheets: bytes, maps: bytes, map_of_sheet: Sequence[int | None]
) -> bytes:
    """``leading`` pages (rosters) as they are, then the ``sheets`` pages, sheet ``i``
    carrying page ``map_of_sheet[i]`` of ``maps`` (None: no map)."""
    sheet_reader = PdfReader(io.BytesIO(sheets))
    if len(sheet_reader.pages) != len(map_of_sheet):
        raise CompositionError(
            f"{len(sheet_reader.pages)} sheet pages for {len(map_of_sheet)} sheets"
        )
    writer = PdfWriter()
    if leading is not None:
        writer.append(PdfReader(io.BytesIO(leading)))
    first_sheet = len(writer.pages)
    writer.append(sheet_reader)
    map_reader = PdfReader(io.BytesIO(maps)) if maps else None
    forms: dict[int, IndirectObject] = {}
    for offset, map_index in enumerate(map_of_sheet):
        if map_index is None or map_reader is None:
            continue
        if map_index not in forms:
            source = map_reader.pages[map_index]
            form = DecodedStreamObject()
            form.set_data(b"\n".join(part.get_object().get_data() for part in _contents(source)))
            form[NameObject("/Type")] = NameObject("/XObject")
            form[NameObject("/Subtype")] = NameObject("/Form")
            box = source.mediabox
            form[NameObject("/BBox")] = ArrayObject(
                [NumberObject(0), NumberObject(0), box[2], box[3]]
            )
            form[NameObject("/Resources")] = source["/Resources"].get_object().clone(writer)
            forms[map_index] = writer._add_object(form)
        page = writer.pages[first_sheet + offset]
        resources = page["/Resources"].get_object()
        if "/XObject" not in resources:
            resources[NameObject("/XObject")] = DictionaryObject()
        name = f"/EventMap{map_index}"
        resources["/XObject"].get_object()[NameObject(name)] = forms[map_index]
        # The sheet's own drawing leaves its transformation in place: wrap it, so the map
        # is drawn in the page's plain coordinates, exactly as on its own page.
        page[NameObject("/Contents")] = ArrayObject(
            [
                _stream(writer, b"q"),
                *_contents(page),
                _stream(writer, f"Q q {name} Do Q".encode()),
            ]
        )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
