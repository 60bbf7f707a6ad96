"""Who starts, on the pages without script: the new-game form asks it (a draw, a seat, or the
table's choice where the game allows it), the draw is the log's line before move 1, and a
finished game's Rematch asks it again, as the game before chose."""

import html
import re

import pytest

from companion import engine, plugins, services
from companion.models import Session
from tests.factories import finished_session, play_to_the_end, session_for
from tests.views.helpers import browser_for

THREE = ["Ana", "Ben", "Cy"]


def drawn_name(session):
    rules = plugins.rules_of(session.game)
    return THREE[engine.first_seat(rules, session.options, len(THREE), session.seed)]


def test_the_new_game_form_asks_who_starts_and_the_draw_opens_the_log(alice):
    client = browser_for(alice)
    page = client.get("/new/?game=rabbits").content.decode()
    assert '<label for="opt_first">Who starts?</label>' in page
    assert '<option value="draw">A draw: the app picks, and the log tells who</option>' in page
    assert '<option value="0" selected>Player 1</option>' in page  # the rules' default
    assert 'aria-describedby="opt_first_help"' in page and "random or creative" in page
    # Not twice: who starts is not among the other options.
    assert page.count('name="opt_first"') == 1 and "Decided at the table" not in page
    response = client.post("/new/", {"game": "rabbits", "name": THREE, "opt_first": "draw",
                                     "opt_ending": "simple", "opt_values": "classic"})
    session = Session.objects.get()
    assert response.status_code == 302 and session.options["first"] == "draw"
    name = drawn_name(session)
    table = client.get(f"/s/{session.pk}/").content.decode()
    assert re.search(r'<li class="setup" id="log-setup"><span class="seq">0</span>'
                     rf'<span class="sr-only">\. </span>The draw: {name} starts</li>', table)
    assert f"{name}&#x27;s turn" in table  # the now line: the seat drawn rolls first
    client.cookies["django_language"] = "es"
    assert f"A suertes: empieza {name}" in client.get(f"/s/{session.pk}/").content.decode()


def test_a_seat_named_in_the_form_starts_and_is_no_draw_in_the_log(alice):
    client = browser_for(alice)
    client.post("/new/", {"game": "rabbits", "name": THREE, "opt_first": "2",
                          "opt_ending": "simple", "opt_values": "classic"})
    session = Session.objects.get()
    assert session.options["first"] == 2 and session.state["turn"]["seat"] == 2
    assert 'id="log-setup"' not in client.get(f"/s/{session.pk}/").content.decode()


def test_a_game_that_leaves_it_to_the_table_offers_that_too(alice):
    page = browser_for(alice).get("/new/?game=alatriste").content.decode()
    assert '<option value="" selected>Decided at the table</option>' in page
    assert "whoever rolls the die highest starts" in page


def test_a_game_with_no_first_player_does_not_ask(alice):
    assert "Who starts?" not in browser_for(alice).get("/new/?game=quixote").content.decode()


@pytest.mark.parametrize(("written", "said"), [
    ("x", "Starting player: choose one of the players."),
    ("3", "Starting player: there is no player 4; the players are numbered 1 to 3."),
])
def test_who_starts_written_wrong_is_said_in_the_forms_words(alice, written, said):
    response = browser_for(alice).post("/new/", {"game": "rabbits", "name": THREE,
                                                 "opt_first": written})
    assert response.status_code == 400 and said in response.content.decode()
    assert not Session.objects.exists()


def finished_pad(alice, first):
    session = session_for(alice, game="pad", players=THREE,
                          options={"game": "Skat", "win": "high", "rounds": 1, "first": first})
    assert play_to_the_end(session)
    return Session.objects.get(pk=session.pk)


def test_the_rematch_asks_who_starts_as_the_game_before_chose(alice):
    host = browser_for(alice)
    finished = finished_pad(alice, "draw")
    page = host.get(f"/s/{finished.pk}/").content.decode()
    card = page.split('id="game-over"')[1].split("</form>")[0]
    assert '<label for="first">Who starts?</label>' in card
    assert '<option value="draw" selected>' in card
    assert '<option value="">Decided at the table</option>' in card
    assert '<option value="2">Cy</option>' in card
    # Left as it was, the rematch draws again, from its own seed.
    host.post(f"/s/{finished.pk}/rematch/", {"first": "draw"})
    rematch = Session.objects.get(rematch_of=finished)
    assert rematch.options["first"] == "draw" and rematch.seed != finished.seed
    assert rematch.state["first"] == THREE.index(drawn_name(rematch))
    # Once it is made, the finished table asks no more.
    assert 'name="first"' not in host.get(f"/s/{finished.pk}/").content.decode()


def test_the_rematch_may_name_another_first_seat_or_leave_it_to_the_table(alice):
    host = browser_for(alice)
    finished = finished_pad(alice, 0)
    host.post(f"/s/{finished.pk}/rematch/", {"first": "2"})
    assert Session.objects.get(rematch_of=finished).options["first"] == 2
    finished = finished_pad(alice, 0)
    host.post(f"/s/{finished.pk}/rematch/", {"first": ""})
    assert Session.objects.get(rematch_of=finished).options["first"] is None
    finished = finished_pad(alice, 1)
    refused = host.post(f"/s/{finished.pk}/rematch/", {"first": "7"})
    assert refused.status_code == 400
    assert "The starting player is one of the seats, 0 to 2, not" in html.unescape(
        refused.content.decode())
    assert not Session.objects.filter(rematch_of=finished).exists()
    # A rematch posted without the question (an older page) starts as the game before.
    host.post(f"/s/{finished.pk}/rematch/")
    assert Session.objects.get(rematch_of=finished).options["first"] == 1


def test_a_game_with_no_first_player_asks_nothing_at_the_rematch(alice):
    finished = finished_session(alice, game="quixote")
    page = browser_for(alice).get(f"/s/{finished.pk}/").content.decode()
    assert "Rematch" in page and "Who starts?" not in page
    with pytest.raises(Exception, match="has no first player"):
        services.session_rematch(session=finished, actor=services.Actor(user=alice), first=0)


def test_the_history_timeline_opens_with_the_draw(alice):
    finished = finished_pad(alice, "draw")
    page = browser_for(alice).get(f"/history/sessions/{finished.pk}/").content.decode()
    timeline = page.split("<h2>Timeline</h2>")[1]
    assert timeline.index(f"The draw: {drawn_name(finished)} starts") < timeline.index(
        '<span class="seq">1</span>')
    named = finished_pad(alice, 1)
    assert "The draw" not in browser_for(alice).get(
        f"/history/sessions/{named.pk}/").content.decode()
