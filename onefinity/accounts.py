"""Login, password change and password reset, with the limits of ``onefinity.attempts``.

Django's own views do the work; these only count the attempt first and refuse with 429
and a message saying how long to wait.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, PasswordResetForm
from django.http import HttpRequest, HttpResponse

from onefinity import attempts


class RateLimitedLoginView(auth_views.LoginView):
    guess: attempts.PasswordGuess

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.guess = attempts.guess_password(request, str(request.POST.get("username", "")))
        if self.guess.refusal is not None:
            form = self.get_form()
            form.add_error(None, self.guess.refusal.message)
            return attempts.refused(
                self.render_to_response(self.get_context_data(form=form)), self.guess.refusal
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        self.guess.succeeded()
        return super().form_valid(form)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        self.guess.failed()
        return super().form_invalid(form)


class RateLimitedPasswordChangeView(auth_views.PasswordChangeView):
    guess: attempts.PasswordGuess

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.guess = attempts.guess_password(request, request.user.get_username())
        if self.guess.refusal is not None:
            form = self.get_form()
            form.add_error(None, self.guess.refusal.message)
            return attempts.refused(
                self.render_to_response(self.get_context_data(form=form)), self.guess.refusal
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        self.guess.succeeded()
        return super().form_valid(form)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
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
