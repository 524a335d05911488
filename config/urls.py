from django.urls import include, path

from forcebuilder.accounts import signup
from onefinity import account_data, accounts

urlpatterns = [
    path("", include("onefinity.urls")),
    path("", include("forcebuilder.urls")),
    path("", include("tablegen.urls")),
    path("", include("events.urls")),
    path("accounts/signup/", signup, name="signup"),
    # Every view that checks a password or sends a reset e-mail is limited (onefinity.attempts);
    # these come before django.contrib.auth.urls so that they take its names.
    path("accounts/login/", accounts.RateLimitedLoginView.as_view(), name="login"),
    path(
        "accounts/password_change/",
        accounts.RateLimitedPasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_reset/",
        accounts.RateLimitedPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("account/", account_data.account, name="account"),
    path("account/everything.json", account_data.export_everything, name="account-export"),
    path("account/import/", account_data.import_everything, name="account-import"),
    path("account/delete/", account_data.delete_account, name="account-delete"),
]
