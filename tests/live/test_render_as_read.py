"""A table rendered from a session read just before another phone's move is saved: its moves are
those of the version it was read at (fragments.moves_of_its_version, up to Session.last_seq).
Drawn under that version with the later move's line, the line would be on the phone already when
that move's own push came."""

from companion import fragments, services
from companion.models import Session
from tests.factories import session_for


def test_a_move_saved_after_the_session_was_read_is_drawn_under_its_own_version(alice):
    game = session_for(alice)
    actor = services.Actor(user=alice)
    services.move_play(session=game, type="add", data={"seat": 0, "points": 5}, actor=actor)
    as_read = Session.objects.get(pk=game.pk)
    # Another phone's move, saved between the session's row and its moves being read.
    services.move_play(session=Session.objects.get(pk=game.pk), type="add",
                       data={"seat": 1, "points": 3}, actor=actor)

    html = fragments.render_shared(fragments.Shown.of(as_read))

    assert as_read.version == 1
    assert html["log"].count("<li") == 1
    assert "Vanessa +5" in html["log"] and "Peter +3" not in html["log"]

