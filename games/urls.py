from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("games/", views.games, name="list"),
    path("games/new/", views.game_new, name="new"),
    path("games/sw.js", views.worker, name="worker"),
    path("games/round/<int:event_id>/<int:number>/", views.from_round, name="from-round"),
    path("games/<code:code>/", views.game, name="game"),
    path("games/<code:code>/join/", views.join, name="join"),
    path("games/<code:code>/live/", views.live, name="live"),
    path("games/<code:code>/state.json", views.state_json, name="state"),
    path("games/<code:code>/log.json", views.log_json, name="log"),
    path("games/<code:code>/steps/", views.steps, name="steps"),
    path("games/<code:code>/undo/", views.undo, name="undo"),
]
