from django.urls import path

from forcebuilder import reading_views, views

app_name = "forcebuilder"

urlpatterns = [
    path("forces/", views.force_list, name="list"),
    path("forces/new/", views.force_new, name="new"),
    path("forces/import/", reading_views.force_import, name="import"),
    path("forces/<int:pk>/", views.editor, name="editor"),
    path("forces/<int:pk>/edit/", views.edit, name="edit"),
    path("forces/<int:pk>/troopers/<code:key>/", views.trooper, name="trooper"),
    path("forces/<int:pk>/units/<code:key>/", views.unit, name="unit"),
    path(
        "forces/<int:pk>/units/<int:unit>/troopers/<int:trooper>/loadout/",
        views.loadout,
        name="loadout",
    ),
    path("forces/<int:pk>/undo/", views.undo, name="undo"),
    path("forces/<int:pk>/redo/", views.redo, name="redo"),
    path("forces/<int:pk>/odds/", views.odds, name="odds"),
    path("forces/<int:pk>/move-ruleset/", views.move_ruleset, name="move-ruleset"),
    path("forces/<int:pk>/repair/", views.repair, name="repair"),
    path("forces/<int:pk>/sharing/", views.sharing, name="sharing"),
    path("forces/<int:pk>/duplicate/", views.force_duplicate, name="duplicate"),
    path("forces/<int:pk>/delete/", views.force_delete, name="delete"),
    path("forces/<int:pk>/roster/", reading_views.roster, name="roster"),
    path("forces/<int:pk>/roster.pdf", reading_views.roster_pdf, name="roster-pdf"),
    path("forces/<int:pk>/cards.pdf", reading_views.cards_pdf, name="cards-pdf"),
    path("forces/<int:pk>/export.json", reading_views.export_json, name="export-json"),
    path("forces/<int:pk>/roster.txt", reading_views.export_text, name="export-text"),
    path("examples/<slug:slug>/", reading_views.example, name="example"),
    path("examples/<slug:slug>/copy/", reading_views.example_copy, name="example-copy"),
    path("s/<code:code>/", reading_views.shared, name="shared"),
    path("s/<code:code>/copy/", reading_views.shared_copy, name="shared-copy"),
    path("s/<code:code>/roster/", reading_views.roster, name="shared-roster"),
    path("s/<code:code>/roster.pdf", reading_views.roster_pdf, name="shared-roster-pdf"),
    path("s/<code:code>/cards.pdf", reading_views.cards_pdf, name="shared-cards-pdf"),
    path("s/<code:code>/export.json", reading_views.export_json, name="shared-export-json"),
    path("s/<code:code>/roster.txt", reading_views.export_text, name="shared-export-text"),
]
