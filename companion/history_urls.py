from django.urls import path

from companion import history

urlpatterns = [
    path("history/", history.history, name="history"),
    path("history/results.csv", history.results_csv, name="history-results-csv"),
    path("history/sessions/<int:pk>/", history.session_detail, name="history-session"),
    path("history/players/<int:pk>/", history.player_detail, name="history-player"),
    path("history/games/<slug:slug>/", history.game_detail, name="history-game"),
]
