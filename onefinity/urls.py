from django.urls import path

from onefinity import views

app_name = "onefinity"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.ruleset_page, name="ruleset"),
    path("rules/units/", views.unit_catalogue, name="units"),
    path("rules/<str:version>/", views.ruleset_page, name="ruleset-version"),
    path("rules/<str:version>/ruleset.json", views.ruleset_json, name="ruleset-json"),
    path("odds/", views.card_odds, name="odds"),
    path("favicon.ico", views.favicon, name="favicon"),
]
