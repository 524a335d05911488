"""Uploaded files are kept in memory and stop at MAX_UPLOAD_BYTES, whatever the client
declared: no upload is ever written to the temporary directory, and a body sent without a
length (chunked) cannot grow past the limit either."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import MemoryFileUploadHandler


class UploadTooBig(RequestDataTooBig):
    """An uploaded file past MAX_UPLOAD_BYTES; its message says so."""


class BoundedMemoryUploadHandler(MemoryFileUploadHandler):
    def handle_raw_input(self, *args: Any, **kwargs: Any) -> None:
        super().handle_raw_input(*args, **kwargs)
        # Memory, always: the request body is already bounded (config.middleware).
        self.activated = True
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received > settings.MAX_UPLOAD_BYTES:
            raise UploadTooBig(f"An uploaded file is at most {settings.MAX_UPLOAD_BYTES:,} bytes.")
        return super().receive_data_chunk(raw_data, start)
