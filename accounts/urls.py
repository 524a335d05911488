from django.urls import include, path

from accounts import account_views, auth

urlpatterns = [
    path("accounts/signup/", auth.signup, name="signup"),
    # Every view that checks a password or sends a reset e-mail is limited (accounts.attempts);
    # these come before django.contrib.auth.urls so that they take its names.
    path("accounts/login/", auth.RateLimitedLoginView.as_view(), name="login"),
    path(
        "accounts/password_change/",
        auth.RateLimitedPasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_reset/",
        auth.RateLimitedPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/logout/", auth.LogoutView.as_view(), name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("account/", account_views.account, name="account"),
    path("account/delete/", account_views.delete_account, name="account-delete"),
]
