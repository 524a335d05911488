"""The import forms read a pasted or uploaded document one way (onefinity.forms.
PasteOrUploadForm): the file bounded before it is read and read as UTF-8, the pasted text
bounded too, each refusal in the document's own words."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from forcebuilder.forms import ImportForm
from tablegen.forms import BoxImportForm

FORMS = [(ImportForm, "document", "a force document"), (BoxImportForm, "text", "a terrain box")]


def errors(form_class, data=None, upload=None):
    files = {"file": upload} if upload is not None else {}
    form = form_class(data or {}, files)
    assert not form.is_valid()
    return " ".join(form.non_field_errors())


@pytest.mark.parametrize(("form_class", "pasted", "words"), FORMS)
def test_neither_pasted_nor_uploaded_asks_for_one(form_class, pasted, words):
    assert errors(form_class, {pasted: "   "}) == f"Paste {words} or choose its file."


@pytest.mark.parametrize(("form_class", "pasted", "words"), FORMS)
def test_a_file_that_is_not_utf8_is_refused_in_words(form_class, pasted, words):
    upload = SimpleUploadedFile("doc.json", b"\xff\xfe{}")
    assert errors(form_class, upload=upload) == f"That file is not UTF-8 text, so not {words}."


@pytest.mark.parametrize(("form_class", "pasted", "words"), FORMS)
def test_a_document_past_the_bound_is_refused_pasted_or_uploaded(form_class, pasted, words):
    most = form_class.most_bytes
    upload = SimpleUploadedFile("doc.json", b" " * (most + 1))
    assert f"{words} is at most {most:,}" in errors(form_class, upload=upload)
    # Counted in bytes: a character of two bytes counts twice.
    assert "is at most" in errors(form_class, {pasted: "é" * (most // 2 + 1)})


@pytest.mark.parametrize(("form_class", "pasted", "words"), FORMS)
def test_an_uploaded_file_is_read_in_place_of_the_pasted_text(form_class, pasted, words):
    upload = SimpleUploadedFile("doc.json", b"not json")
    assert "This cannot be read" in errors(form_class, {pasted: ""}, upload)
