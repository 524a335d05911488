"""Login with a limit on failed attempts, per address and account name, and per address."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from onefinity.models import LoginFailure


def _keys(request: HttpRequest) -> tuple[str, str]:
    address = request.META.get("REMOTE_ADDR", "")
    username = str(request.POST.get("username", "")).strip().lower()
    hashed = lambda text: hashlib.sha256(text.encode()).hexdigest()  # noqa: E731
    return hashed(f"{address}|{username}"), hashed(f"{address}|*")


class RateLimitedLoginView(LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        window = timezone.now() - timedelta(seconds=settings.LOGIN_FAILURE_WINDOW)
        account_key, address_key = _keys(request)
        recent = LoginFailure.objects.filter(at__gte=window)
        if (
            recent.filter(key=account_key).count() >= settings.LOGIN_FAILURES_PER_ACCOUNT
            or recent.filter(key=address_key).count() >= settings.LOGIN_FAILURES_PER_ADDRESS
        ):
            form = self.get_form()
            minutes = settings.LOGIN_FAILURE_WINDOW // 60
            form.add_error(
                None, f"Too many failed attempts. Wait {minutes} minutes, or reset your password."
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        response = super().post(request, *args, **kwargs)
        if request.user.is_authenticated:
            LoginFailure.objects.filter(key=account_key).delete()
        else:
            LoginFailure.objects.bulk_create(
                [LoginFailure(key=account_key), LoginFailure(key=address_key)]
            )
            LoginFailure.objects.filter(at__lt=window).delete()
        return response
