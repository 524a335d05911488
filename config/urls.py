from django.urls import include, path

urlpatterns = [
    path("", include("onefinity.urls")),
]
