from django.urls import include, path

from forcebuilder.accounts import signup
from onefinity import account_data
from onefinity.accounts import RateLimitedLoginView

urlpatterns = [
    path("", include("onefinity.urls")),
    path("", include("forcebuilder.urls")),
    path("", include("tablegen.urls")),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("account/", account_data.account, name="account"),
    path("account/everything.json", account_data.export_everything, name="account-export"),
    path("account/import/", account_data.import_everything, name="account-import"),
    path("account/delete/", account_data.delete_account, name="account-delete"),
]
