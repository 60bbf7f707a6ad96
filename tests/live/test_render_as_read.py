"""A table rendered from a session read just before another phone's move is saved: its moves are
those of the version it is labelled with (fragments.moves_of_its_version). Drawn under the version
before, the move's line would be on the phone already when that version's push adds it on top."""

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

    html = fragments.render_shared(as_read)

    assert as_read.version == 2
    assert html["log"].count("<li") == 2
    assert html["log"].index("Peter +3") < html["log"].index("Vanessa +5")
    assert "Peter" in html["scoreboard"] and "3" in html["scoreboard"]

