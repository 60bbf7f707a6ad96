"""Mounted by the project at path("api/games/alatriste/", include("games.alatriste.api_urls"))."""

from django.urls import path

from games.alatriste import api

urlpatterns = [
    path("cards/", api.CardList.as_view(), name="api-alatriste-cards"),
]
