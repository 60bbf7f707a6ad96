"""The table's fragments: the scoreboard, the log, the undo button and the game's panel.

The same partials serve the first render of the table page, the htmx answer to a move, and the
pushes of the live stream. What is shared is rendered without a request, once per version.
"""

from functools import cache

from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string, select_template

from companion import engine
from companion.services import Actor

SHARED = ("scoreboard", "log", "undo")
LOG_LENGTH = 30


@cache
def live_part_template(game):
    """A game's `panel_live.html`: the part of its panel that every phone sees alike (sheets,
    the last result). A game that has one gets only that part pushed on every move; its forms
    stay as the phone has them. Without one, the whole panel is pushed."""
    name = f"games/{game}/panel_live.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def panel_template(session):
    return select_template([f"games/{session.game}/panel.html",
                            "companion/panel_generic.html"]).template.name


def fragment_context(session, actor):
    """Everything the partials need, for one viewer (actor None: the board)."""
    rules = engine.get(session.game)
    viewer = actor.seat if actor else None
    moves = list(session.moves.order_by("-seq")[:LOG_LENGTH])
    last_active = next((move for move in moves if not move.undone), None)
    if last_active is None and len(moves) == LOG_LENGTH:
        last_active = session.moves.filter(undone=False).order_by("-seq").first()
    return {
        "session": session,
        "rules": rules,
        "state": rules.redact(session.state, viewer),
        "standings": rules.standings(session.state),
        "moves": moves,
        "last_active": last_active,
        "actor": actor,
        "can_play": actor is not None,
        "is_host": bool(actor and actor.is_host),
        "viewer": viewer,
        "seats": list(session.seats.all()),
        "panel_template": panel_template(session) if actor else None,
    }


def viewer_actor(session, viewer, is_host):
    """A stand-in actor for rendering a panel as that viewer sees it (streams have no request)."""
    from companion.models import Guest

    if is_host:
        return Actor(user=session.owner)
    return Actor(guest=Guest(session=session, seat=viewer))


def render_shared(session):
    context = fragment_context(session, Actor(user=session.owner))
    shared = {name: render_to_string(f"companion/table.html#{name}", context) for name in SHARED}
    live_part = live_part_template(session.game)
    if live_part:
        # Rendered as the board sees it: no viewer, so nothing sealed shows.
        shared["panel_live"] = render_to_string(live_part, {**context, "viewer": None,
                                                            "state": context["rules"].redact(
                                                                session.state, None)})
    return shared


def render_panel(session, viewer, is_host):
    context = fragment_context(session, viewer_actor(session, viewer, is_host))
    return render_to_string("companion/table.html#panel", context)
