"""Security headers Django does not set by itself; request bodies refused before anything
reads them (too large) or as soon as they are read (not a form the site can read)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.datastructures import MultiValueDict

from config.uploads import UploadTooBig, request_limit
from onefinity.rules.text import escaped

# Scripts only from this site (htmx and config/static/js/site.js); inline styles stay allowed
# because SVG pictures and htmx's indicator styles use them.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


def security_headers(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response

    return middleware


def limit_request_body(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Refuse a request whose declared body is over the limit before anything reads it:
    Django would otherwise stream a 1 GiB upload to a temporary file before any view could
    look at its size. (A body without a declared length is bounded by the upload handler.)"""

    def middleware(request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            size = int(declared)
        except ValueError:
            size = -1
        if size < 0:
            return HttpResponseBadRequest("Content-Length is not a number of bytes.")
        limit = request_limit(request.path_info)
        if size > limit:
            return render(request, "too_large.html", {"size": size, "limit": limit}, status=413)
        return get_response(request)

    return middleware


def readable_form(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Read a request's query and a POST's form once, here, and answer 400 with why when
    they cannot be read (a charset other than UTF-8, too many fields, a broken multipart
    body, a file past the upload limit). Left to Django, the refusal went to its 400 page,
    whose CSRF guard read the body again, failed again, and made a 500 of it (in
    development, the debug page did the same, for the query too). Last of the middleware,
    so that the page has the visitor's session and the security headers."""

    def middleware(request: HttpRequest) -> HttpResponse:
        try:
            request.GET  # noqa: B018 (parsed now, kept for the views)
            if request.method == "POST":
                request.POST  # noqa: B018
        except (BadRequest, SuspiciousOperation, MultiPartParserError) as error:
            # Nothing reads them again: the page below reads empty ones.
            request.GET = QueryDict()
            request._post, request._files = QueryDict(), MultiValueDict()  # type: ignore[attr-defined]
            why = _why_unreadable(request, error)
            return render(request, "unreadable.html", {"why": why}, status=400)
        return get_response(request)

    return middleware


def _why_unreadable(request: HttpRequest, error: Exception) -> str:
    if isinstance(error, TooManyFieldsSent):
        return f"it has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,} fields"
    if isinstance(error, TooManyFilesSent):
        return f"it has more than {settings.DATA_UPLOAD_MAX_NUMBER_FILES:,} files"
    if isinstance(error, UploadTooBig):
        return str(error).rstrip(".").replace("An uploaded", "an uploaded")
    if isinstance(error, RequestDataTooBig):
        return f"its fields are over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes"
    if isinstance(error, MultiPartParserError):
        return "its parts are broken"
    charset = escaped(request.encoding or "", 40)
    return f'a form is sent as UTF-8, declared as "charset=utf-8" or not at all, not "charset={charset}"'
