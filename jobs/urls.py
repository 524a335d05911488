from django.urls import path

from jobs import views

app_name = "jobs"

urlpatterns = [
    path("jobs/", views.job_list, name="list"),
    path("jobs/<int:pk>/", views.job_detail, name="job"),
    path("jobs/<int:pk>/status.json", views.status, name="status"),
    path("jobs/<int:pk>/download", views.download, name="download"),
    path("jobs/<int:pk>/restart/", views.restart, name="restart"),
    path("jobs/<int:pk>/cancel/", views.cancel, name="cancel"),
]
