from django.contrib import admin
from django.urls import include, path

from companion import plugins, pwa, streams, views
from companion.views import groups

handler400 = "companion.views.bad_request"
handler404 = "companion.views.not_found"
handler500 = "companion.views.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.SignIn.as_view(), name="login"),
    path("logout/", views.sign_out, name="logout"),
    path("new/", views.session_new, name="session-new"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_code, name="join-code"),
    path("s/<int:pk>/", views.table, name="table"),
    path("s/<int:pk>/move/", views.move, name="move"),
    path("s/<int:pk>/undo/", views.undo, name="undo"),
    path("s/<int:pk>/seat/", views.seat_claim, name="seat-claim"),
    path("s/<int:pk>/seat-free/", views.seat_free, name="seat-free"),
    path("s/<int:pk>/colour/", views.seat_colour, name="seat-colour"),
    path("s/<int:pk>/redo/", views.redo, name="redo"),
    path("s/<int:pk>/rematch/", views.rematch, name="rematch"),
    path("s/<int:pk>/next/", views.follow, name="follow"),
    path("s/<int:pk>/host-seat/", views.host_seat, name="host-seat"),
    path("s/<int:pk>/language/", views.table_language, name="table-language"),
    path("s/<int:pk>/qr.svg", views.join_qr, name="join-qr"),
    path("s/<int:pk>/stream/", streams.table_stream, name="table-stream"),
    path("board/<str:key>/", views.board, name="board"),
    path("board/<str:key>/stream/", streams.board_stream, name="board-stream"),
    path("board/<str:key>/next/", views.board_follow, name="board-follow"),
    path("board/<str:key>/qr.svg", views.board_qr, name="board-qr"),
    path("api/sessions/<int:pk>/events/", streams.session_events, name="api-events"),
    path("players/", views.players, name="players"),
    path("groups/", groups.groups, name="groups"),
    path("groups/join/", groups.group_join, name="group-join"),
    path("groups/join/<str:code>/", groups.group_invite, name="group-invite"),
    path("groups/<int:pk>/", groups.group_detail, name="group"),
    path("groups/<int:pk>/members/<str:username>/remove/", groups.group_member_remove,
         name="group-member-remove"),
    path("groups/<int:pk>/owner/", groups.group_owner, name="group-owner"),
    path("groups/<int:pk>/bgstats/export.json", groups.group_bgstats_export,
         name="group-bgstats-export"),
    # The header's language switch (Django's set_language: a cookie, then back to `next`).
    path("i18n/", include("django.conf.urls.i18n")),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("", include("companion.plays")),
    path("", include("companion.own_history")),
    path("", include("companion.bgstats_views")),
    path("", include("companion.history_urls")),
    path("api/", include("companion.api.urls")),
    path("admin/login/", views.AdminSignIn.as_view()),  # the admin's, with the app's limits
    path("admin/", admin.site.urls),
]


# A game's own pages (e.g. a live score preview) live under /g/<game>/, its own API under
# /api/games/<game>/, each in the namespace its urls module names (app_name).
for plugin in plugins.all_plugins():
    if plugin.urls:
        urlpatterns.append(path(f"g/{plugin.slug}/", include(plugin.urls)))
    if plugin.api_urls:
        urlpatterns.append(path(f"api/games/{plugin.slug}/", include(plugin.api_urls)))
