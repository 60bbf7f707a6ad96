"""The table's fragments: the scoreboard, the log, the undo button and the game's panel.

The same partials serve the first render of the table page, the htmx answer to a move, and the
pushes of the live stream (companion/streams.py), which renders what is shared once per version
and each view's panel once per version and view, without a request.
The game's panel is its plugin's: a pure model (`panel_model`, and `live_model` for the part every
phone sees alike) laid out by `games/<slug>/panel.html` and `panel_live.html`.
"""

import hashlib
import json
import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from companion import authority, engine, plugins
from companion.access import sessions_with_seats
from companion.actors import Actor
from companion.engine import listing
from companion.language import say
from companion.services.moves import session_replay
from companion.stats import said_score, session_standings
from companion.who_starts import who_starts

SHARED = ("scoreboard", "now", "log", "undo")
LOG_LENGTH = 30


def _board_state(context):
    """The state as the board sees it (no viewer: nothing sealed shows, the same for every
    phone), what the live part is made of: the context's own when it has no viewer."""
    if context["viewer"] is None:
        return context["state"]
    return context["rules"].redact(context["session"].state, None)


def fragment_context(session, actor, *, posted=None, refusal=None, panel=True, moves=None):
    """Everything the partials need, for one viewer (actor None: the board). `posted` and
    `refusal` refill a refused form: its fields ({name: [values]}) and {"form", "message"}.
    panel=False leaves out the panel's model; `moves`: the log's, when read already (Shown)."""
    plugin = plugins.get(session.game)
    rules = plugin.rules
    viewer = actor.seat if actor else None
    is_host = bool(actor and actor.is_host)
    moves = moves_of_its_version(session) if moves is None else moves
    last_active = _last_active(session, rules, moves)
    state = rules.redact(session.state, viewer)
    standings = session_standings(session, rules)
    if session.logged:  # a play entered afterwards: its final standings, and no panel to play
        panel = False
    seats = list(session.seats.all())
    standings = _standings_shown(session, plugin, standings, seats, moves)
    winner_names = [row["name"] for row in standings if row["winner"]]
    context = {
        "session": session,
        "rules": rules,
        "plugin": plugin,
        "state": state,
        "standings": standings,
        "moves": moves,
        "log_length": LOG_LENGTH,
        "last_active": last_active,
        "actor": actor,
        "can_play": actor is not None,
        "is_host": is_host,
        "viewer": viewer,
        "seats": seats,
        "own_seat": seats[viewer] if viewer is not None and viewer < len(seats) else None,
        **_who_starts_shown(session, rules, seats, moves),
        "refusal": refusal,
        "now_line": rules.now(state) if rules.now else None,
        "awaited": _awaited(session, rules),
        "rank_rule": engine.rank_rule_of(rules, state),
        **_undo_section(session, rules, moves),
        "winner_names": winner_names,
        # A leader is marked once someone is ahead: not while every seat shares the first place.
        "leader_marked": any(row["rank"] > 1 for row in standings),
        "share_url": reverse("board", args=[session.board_key]),
        "undo_url": reverse("undo", args=[session.pk]),
        "redo_url": reverse("redo", args=[session.pk]),
        "share_text": _share_text(session, standings, winner_names),
        "panel_template": plugin.panel_template if actor and not session.logged else None,
    }
    if panel and plugin.live_model is not None and not session.logged:
        # The board shows the game's live part too.
        context["live"] = plugin.live_model(_board_state(context), standings)
        # The panel shows it in its place ({{ live_html }}), drawn when the template asks.
        context["live_html"] = lambda: live_html(context)
    if panel and actor is not None and plugin.panel_model is not None:
        data = plugin.panel_data(session) if plugin.panel_data else None
        context["panel"] = plugin.panel_model(state, viewer=viewer, is_host=is_host, data=data,
                                              posted=posted, refusal=refusal)
    return context


def _last_active(session, rules, moves):
    """The move an undo would take back, with the phones its button is for."""
    last_active = next((move for move in moves if not move.undone), None)
    if last_active is None and len(moves) == LOG_LENGTH:
        last_active = session.moves.filter(undone=False).order_by("-seq").first()
    if last_active is not None:
        # Which phones the undo button is for (table.js hides it from the others): words, as the
        # one fragment serves every phone.
        last_active.undo_by = _reach_words(
            authority.undo_phones(session=session, move=last_active, rules=rules))
    return last_active


def _who_starts_shown(session, rules, seats, moves):
    """Who starts, as the table shows it: what the set-up drew, the log's line before move 1
    (while move 1 is among the log's moves, which come newest first); and for a finished game,
    "Who starts?" with its Rematch, as the game before chose (a draw is a draw again), until the
    rematch is made."""
    shown = {"setup_line": None, "who_starts": None}
    if not moves or moves[-1].seq <= 1:
        shown["setup_line"] = engine.setup_line(rules, [seat.name for seat in seats],
                                                session.options, session.seed)
    if rules.first is not None and session.is_finished and session.rematch_id is None:
        shown["who_starts"] = who_starts(
            rules.first_option, name="first",
            seats=[(str(seat.index), seat.name) for seat in seats],
            chosen=session.options.get(rules.first, rules.options.get(rules.first)),
            with_help=False)
    return shown


def _standings_shown(session, plugin, standings, seats, moves):
    """The standings as the scoreboard shows them: each row with its seat's colour ("dot") and
    the game's word beside its name while it is played ("note"); the log's moves with their
    seat's colour too."""
    colours = {seat.index: seat for seat in seats}
    shown = [{**row, "dot": colours.get(row["seat"])} for row in standings]
    for move in moves:
        move.dot = colours.get(move.seat)
    if plugin.standing_note is not None and not session.logged and not session.is_finished:
        for row in shown:
            row["note"] = plugin.standing_note(row["details"])
    return shown


def _awaited(session, rules):
    """Whom the table waits on, the same for every phone (whose turn, seal or score is not
    sealed): each phone tells its player when its own seat is among them (table_page.js)."""
    return rules.awaited(session.state) if rules.awaited and not session.logged else []


def _undo_section(session, rules, moves):
    """What the undo section tells every phone: the undo to tell ("Ben undid: ...", with its
    Redo) and the Redo ("Ana redid: ..."); whom the undo button is for is on the last active
    move (_last_active)."""
    return {"undone_recently": _redo_reach(session, rules, _undone_recently(moves)),
            "redone_recently": _redone_recently(moves)}


def moves_of_its_version(session):
    """The newest moves, as they stand at the version `session` was read at: those up to its
    newest move then (Session.last_seq), not a move another phone saved since, whose line would
    be shown twice once its own push adds it."""
    return list(session.moves.filter(seq__lte=session.last_seq).order_by("-seq")[:LOG_LENGTH])


UNDO_NOTICE = timedelta(minutes=5)


def _undone_recently(moves):
    """The undo every phone is told of ("Ben undid: ...", with Redo): of the undone moves on top
    of the log (newer than any active one), the one undone last, when that was in the last few
    minutes. Two undos in a row undo the newest move first: the second undo is the one to tell,
    and its move the one a Redo puts back first."""
    latest = None
    for move in moves:
        if not move.undone:
            break
        if move.undone_at and (latest is None or move.undone_at > latest.undone_at):
            latest = move
    if latest is not None and timezone.now() - latest.undone_at < UNDO_NOTICE:
        return latest
    return None


def _redone_recently(moves):
    """The Redo every phone is told of ("Ana redid: ..."): the newest move, when it is a Redo
    made in the last few minutes and still stands."""
    newest = moves[0] if moves else None
    if (newest is not None and not newest.undone and (newest.redone_by or newest.redone_by_role)
            and timezone.now() - newest.created_at < UNDO_NOTICE):
        return newest
    return None


def _redo_reach(session, rules, undone):
    """`undone` (the move a Redo puts back, or None) with `redo_by`: which phones the Redo is for
    (authority.redo_phones: the move's authority now, and the host's alone what the host
    undid)."""
    if undone is not None:
        try:
            seats = authority.redo_phones(session=session, rules=rules, move=undone)
        except Exception:  # noqa: BLE001 - a move the rules no longer read: shown to all
            seats = None
        undone.redo_by = _reach_words(None if seats is None
                                      else tuple(("seat", seat) for seat in seats))
    return undone


def _reach_words(phones):
    """Which phones besides the host's may use a button, for the page's script (table.js):
    "seated" (any phone with a seat), "seat-1 guest-17" (those), or "host" (the host's alone)."""
    if phones is None:
        return "seated"
    return " ".join(f"{kind}-{value}" for kind, value in phones) or "host"


def _share_text(session, standings, winner_names):
    if not session.is_finished:
        return ""
    scores = ", ".join(f"{row['name']} {said_score(row['score'])}" for row in standings)
    if winner_names:
        return _("%(names)s won %(game)s (%(scores)s).") % {
            "names": say(listing(winner_names)), "game": session.game_name, "scores": scores}
    return _("%(game)s: %(scores)s.") % {"game": session.game_name, "scores": scores}


class _Drawn(Exception):  # noqa: N818 (not an error: a move that would roll)
    pass


class _NoDraws(random.Random):
    """The random source of a move described and not played: it rolls no die and draws no card
    (a roll never made is not shown as if it had been)."""

    def random(self):
        raise _Drawn

    def getrandbits(self, k):
        raise _Drawn


def move_described(*, session, type, data, actor, seen=None):
    """What a move that was not played was, in its game's words (its log line), for the phone
    that sent it: as played on the table that phone last saw (its newest move `seen`: a move
    kept offline, overtaken since), else on the table as it is; as that phone may see it, and
    without rolling. None when neither takes it."""
    rules = plugins.rules_of(session.game)
    tables = [session.state]
    if seen is not None and seen < session.last_seq:
        tables.insert(0, session_replay(session=session, rules=rules, upto=seen))
    for state in tables:
        before = rules.redact(state, actor.seat)
        try:
            after = engine.apply(rules, before, type, data, actor.rules_actor, session.seed,
                                 session.last_seq + 1, _NoDraws())
            return rules.summary({"type": type, "data": data}, before, after)
        except Exception:  # noqa: BLE001, S112 - refused, a roll, or a state redacted past reading
            continue
    return None


def viewer_actor(session, viewer, is_host):
    """A stand-in actor for rendering a panel as that viewer sees it (streams have no request)."""
    from companion.models import Guest

    if is_host:
        return Actor.host(session)
    return Actor(guest=Guest(session=session, seat=viewer))


def live_html(context):
    """The game's live part (panel_live.html): what every phone sees alike, drawn from the
    state as the board sees it."""
    return render_to_string(context["plugin"].live_template, {
        **context, "state": _board_state(context), "live": context["live"]})


@dataclass(frozen=True)
class Shown:
    """A session as one version shows it, read once for every view of that version: the
    session with its seats, the log's moves and what its game's panel reads (panel_data)."""

    session: Any
    moves: list
    data: Any

    @classmethod
    def of(cls, session):
        """What `session` shows at the version it was read at."""
        plugin = plugins.get(session.game)
        return cls(session=session, moves=moves_of_its_version(session),
                   data=plugin.panel_data(session) if plugin.panel_data else None)


def shown_read(session_id):
    return Shown.of(sessions_with_seats().select_related("owner").get(pk=session_id))


def render_shared(shown):
    """The fragments every phone sees alike, {name: html}: the scoreboard, the now line, the
    log, the undo button (as a seat with a phone sees it) and the game's live part, if any."""
    session = shown.session
    context = fragment_context(session, Actor.host(session), panel=False, moves=shown.moves)
    shared = {name: render_to_string(f"companion/table.html#{name}", context)
              for name in SHARED}
    plugin = context["plugin"]
    if plugin.live_model is not None and not session.logged:
        context["live"] = plugin.live_model(_board_state(context), context["standings"])
        shared["panel_live"] = live_html(context)
    return shared


def panel_view(shown, viewer, is_host, *, live=None, drawn=None):
    """A phone's own panel as that viewer sees it, and what it was drawn from: a digest of its
    pure model (of its HTML for a game without one). A push sends the panel again only when the
    digest changed: drawn again for nothing, a half-filled form would be held for nothing.
    `live`: the version's live part as render_shared drew it (every phone's alike).
    `drawn`: the (html, digest) this view was drawn as before, kept when the model is the same
    (the forms a phone holds were drawn for that model, as these are)."""
    session = shown.session
    plugin = plugins.get(session.game)
    if plugin.panel_model is None or session.logged:
        context = fragment_context(session, viewer_actor(session, viewer, is_host),
                                   moves=shown.moves)
        html = render_to_string("companion/table.html#panel", context)
        return html, _digest(html)
    state = plugin.rules.redact(session.state, viewer)
    model = plugin.panel_model(state, viewer=viewer, is_host=is_host, data=shown.data,
                               posted=None, refusal=None)
    digest = _digest(json.dumps(model, sort_keys=True, default=str))
    if drawn is not None and drawn[1] == digest:
        return drawn
    # What the panel templates read (docs/adding-a-game.md): the model, the session (its
    # address, its version), the state, this viewer, and the live part every phone shares.
    context = {"session": session, "state": state, "panel": model, "viewer": viewer,
               "is_host": is_host, "refusal": None, "panel_template": plugin.panel_template,
               "live_html": live or ""}
    return render_to_string("companion/table.html#panel", context), digest


def _digest(text):
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def render_panel(session, viewer, is_host):
    shown = Shown.of(session)
    return panel_view(shown, viewer, is_host, live=render_shared(shown).get("panel_live"))[0]
