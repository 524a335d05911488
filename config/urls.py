from django.urls import include, path

from forcebuilder.accounts import signup
from onefinity.accounts import RateLimitedLoginView

urlpatterns = [
    path("", include("onefinity.urls")),
    path("", include("forcebuilder.urls")),
    path("", include("tablegen.urls")),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
]
