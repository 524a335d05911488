"""Security headers Django does not set by itself."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render

# Scripts only from this site (htmx and static/js/site.js); inline styles stay allowed
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
        if size > settings.MAX_REQUEST_BYTES:
            return render(
                request,
                "too_large.html",
                {"size": size, "limit": settings.MAX_REQUEST_BYTES},
                status=413,
            )
        return get_response(request)

    return middleware
