from django.urls import path

from games.quixote import views

urlpatterns = [
    path("s/<int:pk>/preview/", views.preview, name="quixote-preview"),
]
