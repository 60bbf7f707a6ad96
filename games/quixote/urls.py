from django.urls import path

from games.quixote import views

app_name = "quixote"

urlpatterns = [
    path("s/<int:pk>/preview/", views.preview, name="preview"),
]
