"""Sign-up; login, password change and password reset with the limits of ``accounts.attempts``.

Django's own views do the work; these only count the attempt first and refuse with 429
and a message saying how long to wait.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, PasswordResetForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts import arrivals, attempts, ownership
from accounts.forms import SignupForm


def _next_page(request: HttpRequest) -> str | None:
    """Where the person was going (a join link, say), if it is a page of this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else None


def _signup_page(request: HttpRequest, form: SignupForm, status: int = 200) -> HttpResponse:
    next_page = _next_page(request)
    context = {"form": form, "next": next_page or "", "arrival": arrivals.arrival(next_page)}
    return render(request, "registration/signup.html", context, status=status)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_page(request) or "forcebuilder:list")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # A sign-up through an event's join link counts against the event's places, not
        # the address a whole hall shares.
        route = attempts.signup_route(_next_page(request))
        refusal = attempts.sign_up(request, route)
        if refusal is not None:
            form.add_error(None, refusal.message)
            return attempts.refused(_signup_page(request, form), refusal)
        user = form.save_once()
        if user is None:
            # The same name was taken by a sign-up at the same moment (the form's check saw
            # it free): nothing was made, and this one does not count.
            attempts.signup_not_made(request, route)
            return _signup_page(request, form, status=400)
        # Logging in moves the lists built in this browser into the new account (said so
        # only when the browser had made something).
        made_here = ownership.browser_made_something(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        moved = (
            " The lists, tables and terrain boxes you made in this browser are now in your account."
            if made_here
            else ""
        )
        messages.success(request, f"Welcome, {user.get_username()}.{moved}")
        # Through a join link, the sign-up joins too (its button said so).
        arrived = arrivals.arrival(_next_page(request))
        if arrived is not None:
            return redirect(arrived.act(request))
        return redirect(_next_page(request) or "forcebuilder:list")
    return _signup_page(request, form, status=400 if form.errors else 200)


class _CountedPasswordGuess:
    """A form view whose POST is a password guess: counted first, refused with 429 and the
    wait when over the limits, and marked failed or not when the form has answered.

    A refused guess never reaches the posted form: cleaning it would check the password
    (hash it, and for a login authenticate), and its errors would differ between a right
    and a wrong one. The refusal shows the empty form with the wait instead, the same page
    whatever password was sent."""

    guess: attempts.PasswordGuess
    template_name: str | None

    def account_name(self, request: HttpRequest) -> str:
        """The account the guess is about: the signed-in person's, unless the form names one."""
        return str(request.user.get_username())

    # The form to show again beside a refusal: unbound, nothing of the guess in it (each
    # view's own: the login's, the password change's).
    refused_form: Callable[[HttpRequest], Any]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.guess = attempts.guess_password(request, self.account_name(request))
        if self.guess.refusal is not None:
            context = self.get_context_data(  # type: ignore[attr-defined]
                form=self.refused_form(request), refusal=self.guess.refusal.message
            )
            page = render(request, str(self.template_name), context)
            return attempts.refused(page, self.guess.refusal)
        return super().post(request, *args, **kwargs)  # type: ignore[misc]

    def form_valid(self, form: Any) -> HttpResponse:
        self.guess.succeeded()
        return super().form_valid(form)  # type: ignore[misc]


class RateLimitedLoginView(_CountedPasswordGuess, auth_views.LoginView):
    def account_name(self, request: HttpRequest) -> str:
        return str(request.POST.get("username", ""))

    def refused_form(self, request: HttpRequest) -> AuthenticationForm:
        # The name typed stays in its box (no longer than the box takes); the password not.
        form = AuthenticationForm(request)
        limit = getattr(form.fields["username"], "max_length", None) or 254
        form.initial = {"username": self.account_name(request)[:limit]}
        return form

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        self.guess.failed()
        return super().form_invalid(form)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["arrival"] = arrivals.arrival(self.get_redirect_url())
        return context

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        # Through a join link, the login joins too (its button said so).
        arrived = arrivals.arrival(self.get_redirect_url())
        return response if arrived is None else redirect(arrived.act(self.request))


class RateLimitedPasswordChangeView(_CountedPasswordGuess, auth_views.PasswordChangeView):
    def refused_form(self, request: HttpRequest) -> PasswordChangeForm:
        return PasswordChangeForm(user=request.user)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        # Only a wrong old password is a guess; a weak new one is not.
        if form.has_error("old_password"):
            self.guess.failed()
        else:
            self.guess.not_a_guess()
        return super().form_invalid(form)


class RateLimitedPasswordResetView(auth_views.PasswordResetView):
    """Counts each e-mail asked for, per address and per e-mail address typed, whether or
    not an account has it: the answer is the same either way."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        refusal = attempts.reset_mail(self.request, form.cleaned_data["email"])
        if refusal is not None:
            form.add_error(None, refusal.message)
            return attempts.refused(self.form_invalid(form), refusal)
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """A reset through the owner's e-mail lifts any wait on their account's login."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        attempts.forget_account(form.user.get_username())
        return response


class LogoutView(auth_views.LogoutView):
    """Logging out ends the session, but things this browser made that did not fit in the
    account at login stay this browser's (accounts.ownership.log_out)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        ownership.log_out(request)
        return redirect(self.get_success_url())
