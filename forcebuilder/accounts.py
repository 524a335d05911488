"""Sign-up; login, logout and password reset come from django.contrib.auth."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from forcebuilder.forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("forcebuilder:list")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Logging in moves the lists built in this browser into the new account.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, f"Welcome, {user.get_username()}. Your lists are now in your account."
        )
        return redirect("forcebuilder:list")
    return render(
        request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200
    )
