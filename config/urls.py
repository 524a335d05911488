from django.urls import include, path

urlpatterns = [
    path("", include("onefinity.urls")),
    path("", include("accounts.urls")),
    path("", include("jobs.urls")),
    path("", include("forcebuilder.urls")),
    path("", include("tablegen.urls")),
    path("", include("events.urls")),
]
