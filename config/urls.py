from django.urls import include, path

from jobs.exports import export_everything
from jobs.imports import import_everything

# Django tries each app's patterns in turn until one matches, so the apps asked for most come
# first: a game's page polls once a second per phone (400 a second with 200 games, where a
# poll went through 140 patterns before reaching the games' and its resolving was a sixth of
# its time), then lists and tables. Each app's addresses start with path segments of its own
# (tests/site/test_urls.py holds that), so the order changes only how soon one is found.
urlpatterns = [
    # The account's export is made by the task worker (jobs.exports); a large import too
    # (jobs.imports).
    path("account/everything.json", export_everything, name="account-export"),
    path("account/import/", import_everything, name="account-import"),
    path("", include("games.urls")),
    path("", include("forcebuilder.urls")),
    path("", include("tablegen.urls")),
    path("", include("events.urls")),
    path("", include("accounts.urls")),
    path("", include("jobs.urls")),
    path("", include("onefinity.urls")),
]

# A 404 under a game's address says how a game is joined (config.errors).
handler404 = "config.errors.page_not_found"
