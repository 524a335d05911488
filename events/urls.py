from django.urls import path

from events import entry_views, round_views, standings_views, swiss_views, views

app_name = "events"

# Arguments are named event_id, entry_id, round_number, join_code, list_code and
# standings_code: the
# site-wide ownership walk (tests/site/test_ownership_walk.py) knows forces' and tables'
# `pk` and `code`; tests/events/test_access.py walks these with the four event personas.
urlpatterns = [
    path("events/", views.my_events, name="mine"),
    path("events/new/", views.event_new, name="new"),
    path("events/join/<code:join_code>/", entry_views.join, name="join"),
    path("events/<int:event_id>/", views.dashboard, name="dashboard"),
    path("events/<int:event_id>/edit/", views.event_edit, name="edit"),
    path("events/<int:event_id>/delete/", views.event_delete, name="delete"),
    path("events/<int:event_id>/join-link/", views.join_link, name="join-link"),
    path("events/<int:event_id>/join-qr.svg", views.join_qr, name="join-qr"),
    path("events/<int:event_id>/lock/", views.event_lock, name="lock"),
    path("events/<int:event_id>/publish/", views.event_publish, name="publish"),
    path(
        "events/<int:event_id>/players/<int:entry_id>/lock/", views.player_lock, name="player-lock"
    ),
    path("events/<int:event_id>/players/add/", views.player_add, name="player-add"),
    path(
        "events/<int:event_id>/players/<int:entry_id>/remove/",
        views.player_remove,
        name="player-remove",
    ),
    path("events/<int:event_id>/rosters.pdf", views.rosters_pdf, name="rosters-pdf"),
    path("events/<int:event_id>/event.pdf", views.event_pdf, name="event-pdf"),
    path("events/<int:event_id>/lists.csv", views.lists_csv, name="lists-csv"),
    path("events/<int:event_id>/lists.zip", views.lists_zip, name="lists-zip"),
    path(
        "events/<int:event_id>/pairings/import/",
        round_views.pairings_import,
        name="pairings-import",
    ),
    path("events/<int:event_id>/rounds/", entry_views.published_rounds, name="rounds"),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/", round_views.round_detail, name="round"
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/tables/",
        round_views.round_tables,
        name="round-tables",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/pairings/",
        round_views.round_pairings,
        name="round-pairings",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/publish/",
        round_views.round_publish,
        name="round-publish",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/sheets.pdf",
        views.round_sheets_pdf,
        name="round-sheets-pdf",
    ),
    path("events/<int:event_id>/me/", entry_views.me, name="me"),
    path("events/<int:event_id>/me/submit/", entry_views.submit, name="submit"),
    path("events/<int:event_id>/me/new-list/", entry_views.new_list, name="new-list"),
    path("events/<int:event_id>/me/withdraw/", entry_views.withdraw, name="withdraw"),
    path("events/<int:event_id>/me/leave/", entry_views.leave, name="leave"),
    path("events/<int:event_id>/lists/", entry_views.reveal, name="reveal"),
    path("events/<int:event_id>/lists/<code:list_code>/", entry_views.snapshot, name="snapshot"),
    # The Swiss system (events/swiss_views.py) and the standings (events/standings_views.py).
    path("events/<int:event_id>/swiss/", swiss_views.swiss_settings, name="swiss"),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/pair/",
        swiss_views.round_pair,
        name="round-pair",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/pairings.json",
        swiss_views.pairings_json,
        name="pairings-json",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/result/",
        swiss_views.round_result,
        name="round-result",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/result/clear/",
        swiss_views.round_result_clear,
        name="round-result-clear",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/check-in/",
        swiss_views.round_check_in,
        name="round-check-in",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/clock/",
        swiss_views.round_clock,
        name="round-clock",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/close/",
        swiss_views.round_close,
        name="round-close",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/swap/",
        swiss_views.round_swap,
        name="round-swap",
    ),
    path(
        "events/<int:event_id>/rounds/<int:round_number>/report/",
        swiss_views.report,
        name="round-report",
    ),
    path(
        "events/<int:event_id>/players/<int:entry_id>/drop/",
        swiss_views.player_drop,
        name="player-drop",
    ),
    path(
        "events/<int:event_id>/players/<int:entry_id>/check-in/",
        swiss_views.player_check_in,
        name="player-check-in",
    ),
    path(
        "events/<int:event_id>/players/<int:entry_id>/history/",
        standings_views.player_history,
        name="player-history",
    ),
    path("events/<int:event_id>/standings/", standings_views.standings_page, name="standings"),
    path(
        "events/<int:event_id>/standings/publish/",
        standings_views.standings_publish,
        name="standings-publish",
    ),
    path(
        "events/<int:event_id>/standings.json",
        standings_views.standings_json,
        name="standings-json",
    ),
    path(
        "events/<int:event_id>/standings.csv", standings_views.standings_csv, name="standings-csv"
    ),
    path(
        "events/<int:event_id>/standings.pdf", standings_views.standings_pdf, name="standings-pdf"
    ),
    path(
        "events/standings/<code:standings_code>/",
        standings_views.standings_public,
        name="standings-public",
    ),
]
