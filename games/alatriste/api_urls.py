"""Alatriste's own API, mounted at /api/games/alatriste/ (AlatristeConfig.api_urls)."""

from django.urls import path

from games.alatriste import api

app_name = "alatriste-api"

urlpatterns = [
    path("cards/", api.CardList.as_view(), name="cards"),
]
