from csp.decorators import csp_update
from django.urls import path
from django.views.decorators.cache import cache_page
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from companion.api import accounts, groups, imports, links, views

SCHEMA_SECONDS = 60 * 60

urlpatterns = [
    path("auth/register/", accounts.Register.as_view(), name="api-register"),
    path("auth/token/", accounts.ObtainToken.as_view(), name="api-token"),
    path("auth/logout/", accounts.SignOut.as_view(), name="api-logout"),
    path("auth/devices/", accounts.Devices.as_view(), name="api-devices"),
    path("auth/devices/<str:device>/", accounts.Device.as_view(), name="api-device"),
    path("health/", views.Health.as_view(), name="api-health"),
    path("games/", views.GameList.as_view(), name="api-games"),
    path("games/<slug:slug>/stats/", views.GameStats.as_view(), name="api-game-stats"),
    path("sessions/", views.SessionList.as_view(), name="api-sessions"),
    path("sessions/import/", views.Import.as_view(), name="api-import"),
    path("sessions/<int:pk>/", views.SessionDetail.as_view(), name="api-session"),
    path("sessions/<int:pk>/moves/", views.MoveList.as_view(), name="api-moves"),
    path("sessions/<int:pk>/undo/", views.Undo.as_view(), name="api-undo"),
    path("sessions/<int:pk>/seats/<int:index>/colour/", views.SeatColour.as_view(),
         name="api-seat-colour"),
    path("sessions/<int:pk>/redo/", views.Redo.as_view(), name="api-redo"),
    path("sessions/<int:pk>/export/", views.Export.as_view(), name="api-export"),
    path("sessions/<int:pk>/claim/", links.Claim.as_view(), name="api-claim"),
    path("join/", views.Join.as_view(), name="api-join"),
    path("plays/", views.PlayLog.as_view(), name="api-plays"),
    path("imports/bgstats/", imports.BgstatsImports.as_view(), name="api-bgstats-imports"),
    path("imports/<int:pk>/", imports.ImportDetail.as_view(), name="api-import-detail"),
    path("players/", views.PlayerList.as_view(), name="api-players"),
    path("players/versus/", views.Versus.as_view(), name="api-versus"),
    path("players/<int:pk>/stats/", views.PlayerStats.as_view(), name="api-player-stats"),
    path("players/<int:pk>/link/", links.Link.as_view(), name="api-player-link"),
    path("players/<int:pk>/merge/", links.Merge.as_view(), name="api-player-merge"),
    path("me/plays/", links.MyPlays.as_view(), name="api-me-plays"),
    path("me/stats/", links.MyStats.as_view(), name="api-me-stats"),
    path("results.csv", views.ResultsCsv.as_view(), name="api-results-csv"),
    path("groups/", groups.GroupList.as_view(), name="api-groups"),
    path("groups/join/", groups.GroupJoin.as_view(), name="api-group-join"),
    path("groups/<int:pk>/", groups.GroupDetail.as_view(), name="api-group"),
    path("groups/<int:pk>/members/<str:username>/", groups.GroupMember.as_view(),
         name="api-group-member"),
    path("groups/<int:pk>/owner/", groups.GroupOwner.as_view(), name="api-group-owner"),
    path("groups/<int:pk>/sessions/", groups.GroupSessions.as_view(), name="api-group-sessions"),
    path("groups/<int:pk>/players/", groups.GroupPlayers.as_view(), name="api-group-players"),
    path("groups/<int:pk>/players/versus/", groups.GroupVersus.as_view(),
         name="api-group-versus"),
    path("groups/<int:pk>/players/<int:player>/stats/", groups.GroupPlayerStats.as_view(),
         name="api-group-player-stats"),
    path("groups/<int:pk>/stats/", groups.GroupStats.as_view(), name="api-group-stats"),
    path("groups/<int:pk>/games/<slug:slug>/stats/", groups.GroupGameStats.as_view(),
         name="api-group-game-stats"),
    path("groups/<int:pk>/results.csv", groups.GroupResultsCsv.as_view(),
         name="api-group-results-csv"),
    # Generating the schema walks every view and serializer, the costliest answer there is, and
    # gives the same document within a process; anyone may ask for it. Kept an hour per address
    # and language (the cache key holds the language): bench/RESULTS.md, "The API's schema".
    path("schema/", cache_page(SCHEMA_SECONDS)(SpectacularAPIView.as_view()), name="api-schema"),
    # Swagger UI's page keeps a few inline style rules; its script is a file of its own.
    path("docs/", csp_update({"style-src": ["'unsafe-inline'"]})(
        SpectacularSwaggerSplitView.as_view(url_name="api-schema")), name="api-docs"),
]
