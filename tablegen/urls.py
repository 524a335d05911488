from django.urls import path

from tablegen import box_views, generate_views, views
from tablegen.packs import views as pack_views

app_name = "tablegen"

urlpatterns = [
    path("tables/", views.table_list, name="list"),
    path("tables/new/", generate_views.table_new, name="new"),
    path("tables/save/", generate_views.table_save, name="save"),
    path("tables/empty/", generate_views.table_empty, name="empty"),
    path("tables/boxes/", box_views.box_list, name="boxes"),
    path("tables/boxes/new/", box_views.box_new, name="box-new"),
    path("tables/boxes/import/", box_views.box_import, name="box-import"),
    path("tables/boxes/<int:pk>/", box_views.box_edit, name="box"),
    path("tables/boxes/<int:pk>/box.json", box_views.box_json, name="box-json"),
    path("tables/boxes/<int:pk>/delete/", box_views.box_delete, name="box-delete"),
    path("tables/packs/new/", pack_views.pack_new, name="pack-new"),
    path("tables/packs/<int:pk>/", pack_views.pack_detail, name="pack"),
    path("tables/packs/<int:pk>/pack.pdf", pack_views.pack_pdf, name="pack-pdf"),
    path("tables/packs/<int:pk>/pack.zip", pack_views.pack_zip, name="pack-zip"),
    path("tables/packs/<int:pk>/table/", pack_views.pack_table, name="pack-table"),
    path("tables/packs/<int:pk>/copy/", pack_views.pack_table_copy, name="pack-copy"),
    path("tables/packs/<int:pk>/replace/", pack_views.pack_table_replace, name="pack-replace"),
    path("tables/packs/<int:pk>/repair/", pack_views.pack_repair, name="pack-repair"),
    path("tables/packs/<int:pk>/delete/", pack_views.pack_delete, name="pack-delete"),
    path("tables/packs/<int:pk>/sharing/", pack_views.pack_sharing, name="pack-sharing"),
    path("p/<code:code>/", pack_views.pack_shared, name="pack-shared"),
    path("p/<code:code>/pack.pdf", pack_views.pack_shared_pdf, name="pack-shared-pdf"),
    path("tables/<int:pk>/", views.table_detail, name="table"),
    path("tables/<int:pk>/terrain/", views.table_terrain, name="terrain"),
    path("tables/<int:pk>/rename/", views.table_rename, name="rename"),
    path("tables/<int:pk>/undo/", views.table_step, {"offset": -1}, name="undo"),
    path("tables/<int:pk>/redo/", views.table_step, {"offset": 1}, name="redo"),
    path("tables/<int:pk>/sharing/", views.table_sharing, name="sharing"),
    path("tables/<int:pk>/delete/", views.table_delete, name="delete"),
    path("tables/<int:pk>/repair/", views.table_repair, name="repair"),
    path("tables/<int:pk>/stored.json", views.table_stored, name="stored"),
    path("tables/<int:pk>/table.json", views.table_json, name="json"),
    path("tables/<int:pk>/table.png", views.table_png, name="png"),
    path("tables/<int:pk>/setup.pdf", views.table_pdf, name="pdf"),
    path("t/<code:code>/", views.table_shared, name="shared"),
    path("t/<code:code>/copy/", views.table_copy, name="copy"),
    path("t/<code:code>/table.json", views.table_json, name="shared-json"),
    path("t/<code:code>/table.png", views.table_png, name="shared-png"),
    path("t/<code:code>/setup.pdf", views.table_pdf, name="shared-pdf"),
]
