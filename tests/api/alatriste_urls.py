"""The project's URLs plus the Alatriste catalogue API, as the lead engineer will mount it."""

from django.urls import include, path

from companion.urls import urlpatterns as project

urlpatterns = [
    path("api/games/alatriste/", include("games.alatriste.api_urls")),
    *project,
]
