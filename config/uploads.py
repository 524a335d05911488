"""Uploaded files are kept in memory and stop at their path's limit, whatever the client
declared, so a body sent without a length (chunked) cannot grow past it either.

Every upload but one is a document of a few kilobytes, kept in memory up to
MAX_UPLOAD_BYTES and never written to the temporary directory. The one exception is an
account file sent to be imported (LARGE_UPLOAD_PATHS), up to ACCOUNT_IMPORT_BYTES: it is
written to a temporary file as it arrives (LargeUploadHandler), which Django deletes when
the request ends."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import MemoryFileUploadHandler, TemporaryFileUploadHandler
from django.http import HttpRequest

# Where an account file may be sent (jobs.imports).
LARGE_UPLOAD_PATHS = frozenset({"/account/import/"})
# What a request's form fields and multipart framing may add to its file.
FORM_BYTES = 100_000


class UploadTooBig(RequestDataTooBig):
    """An uploaded file past its limit; its message says so."""


def upload_limit(path: str) -> int:
    """The largest file a request to ``path`` may upload."""
    if path in LARGE_UPLOAD_PATHS:
        return int(settings.ACCOUNT_IMPORT_BYTES)
    return int(settings.MAX_UPLOAD_BYTES)


def request_limit(path: str) -> int:
    """The largest body a request to ``path`` may send (config.middleware)."""
    if path in LARGE_UPLOAD_PATHS:
        return upload_limit(path) + FORM_BYTES
    return int(settings.MAX_REQUEST_BYTES)


def _large(request: HttpRequest | None) -> bool:
    return request is not None and request.path_info in LARGE_UPLOAD_PATHS


def _count(handler: Any, raw_data: bytes) -> None:
    handler.received += len(raw_data)
    limit = upload_limit(handler.request.path_info)
    if handler.received > limit:
        raise UploadTooBig(f"An uploaded file is at most {limit:,} bytes.")


class BoundedMemoryUploadHandler(MemoryFileUploadHandler):
    """Every upload but an account file's: in memory, up to MAX_UPLOAD_BYTES."""

    def handle_raw_input(self, *args: Any, **kwargs: Any) -> None:
        super().handle_raw_input(*args, **kwargs)
        # Memory, always (the request body is already bounded: config.middleware), except
        # on a path of a large upload, left to the next handler.
        self.activated = not _large(self.request)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if self.activated:
            _count(self, raw_data)
        return super().receive_data_chunk(raw_data, start)


class LargeUploadHandler(TemporaryFileUploadHandler):
    """An account file sent to be imported: to a temporary file, up to ACCOUNT_IMPORT_BYTES.
    Inactive (it makes no file) on every other path."""

    def handle_raw_input(self, *args: Any, **kwargs: Any) -> None:
        super().handle_raw_input(*args, **kwargs)
        self.activated = _large(self.request)
        self.received = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        if self.activated:
            super().new_file(*args, **kwargs)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if not self.activated:
            return raw_data
        _count(self, raw_data)
        return super().receive_data_chunk(raw_data, start)

    def file_complete(self, file_size: int) -> UploadedFile | None:
        if not self.activated:
            return None
        return super().file_complete(file_size)
