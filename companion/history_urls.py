from django.urls import path

from companion import history

urlpatterns = [
    path("history/", history.history, name="history"),
    path("history/results.csv", history.results_csv, name="history-results-csv"),
    path("history/sessions/<int:pk>/", history.session_detail, name="history-session"),
    path("history/players/<int:pk>/", history.player_detail, name="history-player"),
    path("history/games/<slug:slug>/", history.game_detail, name="history-game"),
    # A group's history: the same views, read in the group's scope (its members only).
    path("groups/<int:group_id>/history/", history.history, name="group-history"),
    path("groups/<int:group_id>/history/results.csv", history.results_csv,
         name="group-history-results-csv"),
    path("groups/<int:group_id>/history/sessions/<int:pk>/", history.session_detail,
         name="group-history-session"),
    path("groups/<int:group_id>/history/players/<int:pk>/", history.player_detail,
         name="group-history-player"),
    path("groups/<int:group_id>/history/games/<slug:slug>/", history.game_detail,
         name="group-history-game"),
]
