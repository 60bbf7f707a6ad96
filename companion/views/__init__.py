"""The pages shared by all games. Each view renders its whole page, or for an htmx request the one
partial that changed (`template#partial`). Access is decided here, never in templates."""

from companion.views.accounts import (
    AdminSignIn,
    SignIn,
    home,
    players,
    refused_page,
    sign_out,
    signup,
)
from companion.views.board import board, board_follow, board_qr
from companion.views.errors import bad_request, csrf_failed, not_found, server_error
from companion.views.joining import (
    GUEST_COOKIE_AGE,
    join,
    join_code,
    join_qr,
)
from companion.views.tables import (
    follow,
    host_seat,
    move,
    redo,
    rematch,
    seat_claim,
    seat_colour,
    seat_free,
    session_new,
    table,
    table_context,
    table_language,
    undo,
)

__all__ = [
    "AdminSignIn", "GUEST_COOKIE_AGE", "SignIn", "bad_request", "board", "board_follow",
    "board_qr", "csrf_failed", "follow", "home", "host_seat", "join", "join_code", "join_qr",
    "move", "not_found", "players", "redo", "refused_page", "rematch", "seat_claim",
    "seat_colour", "seat_free",
    "server_error", "session_new", "sign_out", "signup", "table", "table_context",
    "table_language", "undo",
]
