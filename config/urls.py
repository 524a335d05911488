from django.urls import include, path

from jobs.exports import export_everything

urlpatterns = [
    # The account's export is made by the task worker (jobs.exports).
    path("account/everything.json", export_everything, name="account-export"),
    path("", include("onefinity.urls")),
    path("", include("accounts.urls")),
    path("", include("jobs.urls")),
    path("", include("forcebuilder.urls")),
    path("", include("tablegen.urls")),
    path("", include("events.urls")),
    path("", include("games.urls")),
]
