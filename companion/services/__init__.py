"""The only writers. Every change to a session goes through here, from the API and the pages alike.

Keyword-only functions named <thing>_<action>, one module per domain. Each one is a single
transaction: a refusal (any errors.Refused, the rules' RuleViolation included) leaves nothing
behind. Who may do what is companion.authority's to decide; who acts is a companion.actors.Actor.
"""

from companion.actors import Actor
from companion.authority import move_authorize, redo_authorize, undo_authorize
from companion.services.accounts import player_create, token_end, token_for, user_register
from companion.services.bgstats_imports import (
    bgstats_import,
    bgstats_import_run,
    bgstats_import_start,
)
from companion.services.groups import (
    group_create,
    group_join,
    group_member_remove,
    group_owner_pass,
)
from companion.services.guests import guest_follow, guest_join, guest_seat_claim, guest_seat_free
from companion.services.imports import (
    IMPORT_MOVES_MAX,
    UPLOADS_KEPT,
    backup_upload_delete,
    backup_upload_get,
    backup_upload_keep,
    session_import,
)
from companion.services.links import (
    player_merge,
    player_reached,
    player_unlink,
    roster_keeper,
    seat_claim,
)
from companion.services.moves import (
    move_fingerprint,
    move_line,
    move_play,
    move_prior,
    move_redo,
    move_undo,
    session_replay,
)
from companion.services.play_log import (
    EARLIEST_PLAY,
    LOG_MINUTES_MAX,
    LOG_NOTE_MAX,
    LOG_NUMBER_MAX,
    LOG_WINS,
    play_log,
    play_standings,
)
from companion.services.sessions import (
    TALLY_UPSERT,
    seat_colour_set,
    session_create,
    session_host_seat,
    session_language_set,
    session_rematch,
)

__all__ = [
    "Actor", "EARLIEST_PLAY", "IMPORT_MOVES_MAX", "LOG_MINUTES_MAX",
    "LOG_NOTE_MAX", "LOG_NUMBER_MAX", "LOG_WINS", "TALLY_UPSERT", "UPLOADS_KEPT",
    "backup_upload_delete", "backup_upload_get", "backup_upload_keep", "bgstats_import",
    "bgstats_import_run", "bgstats_import_start",
    "group_create", "group_join", "group_member_remove", "group_owner_pass", "guest_follow",
    "guest_join", "guest_seat_claim", "guest_seat_free", "play_standings", "move_authorize",
    "move_fingerprint", "move_line", "move_play", "move_prior", "move_redo", "move_undo",
    "play_log", "player_create", "player_merge", "player_unlink", "player_reached", "roster_keeper",
    "seat_claim", "seat_colour_set", "session_create", "session_host_seat",
    "session_import",
    "session_language_set", "session_rematch", "session_replay", "token_end", "token_for",
    "undo_authorize", "redo_authorize",
    "user_register",
]
