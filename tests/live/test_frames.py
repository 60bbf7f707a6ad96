"""The fragments every move changes (the now line, the undo button, the log's line) are rendered
once per language and shape and filled in for each move (companion/frames.py): move after move
of every game, undone and redone, in both languages, as the host and as a phone with no seat
sees them, they are the HTML their templates render afresh."""

import random

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from companion import fragments, frames, plugins, services
from companion.models import Session
from tests.factories import session_for
from tests.live.test_render_ahead import play_one

GAMES = sorted(plugin.slug for plugin in plugins.all_plugins() if plugin.slug != "tiny")


def afresh(partial, context):
    return render_to_string(f"companion/table.html#{partial}", context)


def assert_framed_as_afresh(session, actor):
    context = fragments.fragment_context(session, actor, panel=False)
    for partial in ("now", "undo"):
        assert frames.render(partial, context) == afresh(partial, context), partial
    for move in context["moves"]:
        assert frames.render("log_line", {"move": move}) == afresh("log_line", {"move": move})


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("game", GAMES)
def test_the_framed_fragments_are_those_rendered_afresh(alice, game, language):
    session = session_for(alice, game=game, players=("Ana", "Ben", "Cy"))
    host = services.Actor(user=alice, host_seat=None)
    rng = random.Random(f"frames:{game}")
    shapes = set()
    for turn in range(30):
        session = Session.objects.select_related("owner").get(pk=session.pk)
        with translation.override(language):
            assert_framed_as_afresh(session, fragments.viewer_actor(session, 0, True))
            assert_framed_as_afresh(session, None)  # no seat, no undo button
        shapes.update(key[2] for key in frames._frames if key[1] == language)
        if session.is_finished:
            break
        if turn % 7 == 6:  # an undo (the line struck through, "Ana undid: …"), then a redo
            session, undone = services.move_undo(session=session, actor=host)
            if turn % 14 == 13:
                services.move_redo(session=session, actor=host, seq=undone.seq)
        elif play_one(session, host, rng) is None:
            break
    assert len(shapes) >= 4, "the moves played showed too few of the fragments' shapes"


def test_a_value_is_escaped_as_the_template_escapes_it(alice):
    session = session_for(alice, players=("<b>Ana</b>", "Ben & Co"))
    services.move_play(session=session, type="add", data={"seat": 0, "points": 3},
                       actor=services.Actor(user=alice))
    move = Session.objects.get(pk=session.pk).moves.get()
    framed = frames.render("log_line", {"move": move})
    assert "&lt;b&gt;Ana&lt;/b&gt;" in framed and "<b>" not in framed
    assert framed == afresh("log_line", {"move": move})


def test_a_refused_form_is_rendered_as_it_is(alice):
    session = session_for(alice)
    context = fragments.fragment_context(
        session, services.Actor(user=alice),
        refusal={"form": "undo", "message": "This is not your move."})
    framed = frames.render("undo", context)
    assert "This is not your move." in framed
    assert framed == afresh("undo", context)


def test_one_frame_serves_every_table(alice):
    """A frame holds nothing of a table's own (the undo button's URLs are filled in): a server
    that sees many tables keeps a few frames, not a few per table."""
    frames._frames.clear()
    for _ in range(3):
        session = session_for(alice)
        services.move_play(session=session, type="add", data={"seat": 0, "points": 2},
                           actor=services.Actor(user=alice))
        session = Session.objects.get(pk=session.pk)
        context = fragments.fragment_context(session, services.Actor(user=alice), panel=False)
        framed = frames.render("undo", context)
        assert f"/s/{session.pk}/undo/" in framed
        assert framed == afresh("undo", context)
    assert sum(key[0] == "undo" for key in frames._frames) == 1
