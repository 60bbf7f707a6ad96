"""Who may do what, on the pages: the same refusals as the API, with the same sentences; the host
is asked before ending a game or undoing what a phone entered; every phone is told who undid
what, with Redo; Rematch takes every phone to the new table."""

import html
import json

import pytest

import games
from companion import engine, plugins, services
from companion.access import guest_cookie_name
from companion.models import Guest, Move, Session
from tests.conftest import api_client
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser


def add(client, session, seat, points, **extra):
    return client.post(f"/s/{session.pk}/move/",
                       {"type": "add", "form": "generic", "seat": str(seat),
                        "points": str(points), **extra})


def test_a_phone_is_refused_another_seats_move_with_the_apis_sentence(game):
    bobs_phone = guest_browser(game, seat=1)
    response = add(bobs_phone, game, 0, 2)
    assert response.status_code == 403
    assert ("This is Vanessa&#x27;s move: it comes from Vanessa&#x27;s phone or the host&#x27;s."
            in response.content.decode())
    assert not Move.objects.exists()
    assert add(bobs_phone, game, 1, 2).status_code == 302


def test_a_phones_undo_of_another_seats_move_is_refused(alice, game):
    add(guest_browser(game, seat=0), game, 0, 2)
    response = guest_browser(game, seat=1).post(f"/s/{game.pk}/undo/")
    assert response.status_code == 403
    assert "Only the host may undo a move of Vanessa." in response.content.decode()
    assert not Move.objects.get().undone


def test_the_host_is_asked_before_undoing_a_phones_move_and_everyone_is_told(alice, game):
    vanessa = guest_browser(game, seat=0)
    add(vanessa, game, 0, 2)
    host = browser_for(alice)
    asked = host.post(f"/s/{game.pk}/undo/", {"expected_version": "1"})
    page = asked.content.decode()
    assert asked.status_code == 200 and "Undo “Vanessa +2”? Everyone at the table is told." in page
    assert not Move.objects.get().undone
    done = host.post(f"/s/{game.pk}/undo/", {"expected_version": "1", "confirmed": "1"})
    assert done.status_code == 302 and Move.objects.get().undone
    # Another phone reads who undid what, and may put it back.
    phone = guest_browser(game, seat=1)
    table = phone.get(f"/s/{game.pk}/").content.decode()
    assert "The host undid: Vanessa +2" in table
    assert f'action="/s/{game.pk}/redo/"' in table
    # The host's decision: the Redo is the host's alone (not offered to a phone, and refused
    # with the API's sentence when it comes all the same), and every phone is told who redid it.
    assert 'data-by="host"' in table.split("undid:")[1]
    refused = vanessa.post(f"/s/{game.pk}/redo/", {"seq": "1"})
    assert refused.status_code == 403
    assert ("The host undid this move: only the host may redo it."
            in refused.content.decode())
    assert host.post(f"/s/{game.pk}/redo/", {"seq": "1"}).status_code == 302
    table = phone.get(f"/s/{game.pk}/").content.decode()
    assert "The host redid: Vanessa +2" in table
    assert "Vanessa +2 <span class=\"muted\">(redone by the host)</span>" in table


def test_after_two_undos_the_table_is_told_of_the_second_and_redo_puts_it_back(alice, game):
    """The second undo took the move before the first one's: that is the news, and the move a
    Redo puts back first (before, the first undo's move stayed told, and Redo played it again
    over a table without the move beneath it)."""
    host = browser_for(alice)
    add(host, game, 0, 2)
    add(host, game, 1, 3)
    for _ in range(2):
        host.post(f"/s/{game.pk}/undo/")
    peter = guest_browser(game, seat=1)
    table = peter.get(f"/s/{game.pk}/").content.decode()
    assert "The host undid: Vanessa +2" in table
    assert "undid: Peter +3" not in table
    assert 'name="seq" value="1"' in table
    host.post(f"/s/{game.pk}/redo/", {"seq": "1"})
    table = peter.get(f"/s/{game.pk}/").content.decode()
    assert "undid:" not in table  # a move since: nothing to tell


def test_the_hosts_own_move_is_undone_without_a_question(alice, game):
    host = browser_for(alice)
    add(host, game, 1, 2)
    assert host.post(f"/s/{game.pk}/undo/").status_code == 302
    assert Move.objects.get().undone


def test_redo_plays_the_undone_move_again_under_the_same_rules(alice, game):
    host = browser_for(alice)
    add(host, game, 1, 4)
    host.post(f"/s/{game.pk}/undo/")
    assert host.post(f"/s/{game.pk}/redo/", {"seq": "1"}).status_code == 302
    assert list(Move.objects.values_list("seq", "undone")) == [(1, True), (2, False)]
    assert Session.objects.get(pk=game.pk).state["scores"] == [0, 4]
    # Redo of Vanessa's move (undone by her phone) from Peter's phone: her move, refused as any
    # other.
    vanessa = guest_browser(game, seat=0)
    add(vanessa, game, 0, 3)
    vanessa.post(f"/s/{game.pk}/undo/")
    response = guest_browser(game, seat=1).post(f"/s/{game.pk}/redo/", {"seq": "3"})
    assert response.status_code == 403
    assert "This is Vanessa&#x27;s move" in response.content.decode()


def test_ending_asks_the_host_and_refuses_a_phone(alice):
    table = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo"))
    phone = guest_browser(table, seat=1)
    refused = phone.post(f"/s/{table.pk}/move/", {"type": "end", "form": "end",
                                                  "confirmed": "1"})
    assert refused.status_code == 403
    assert "Only the host may do this" in refused.content.decode()
    host = browser_for(alice)
    asked = host.post(f"/s/{table.pk}/move/", {"type": "end", "form": "end"})
    assert "This ends the game for everyone at the table. Go ahead?" in asked.content.decode()
    assert not Session.objects.get(pk=table.pk).is_finished
    host.post(f"/s/{table.pk}/move/", {"type": "end", "form": "end", "confirmed": "1"})
    assert Session.objects.get(pk=table.pk).is_finished


def test_rematch_takes_every_phone_to_the_new_table_at_its_seat(alice, game):
    phone = guest_browser(game, seat=1)
    host = browser_for(alice)
    add(host, game, 0, 10)
    add(host, game, 0, 10)
    finished = phone.get(f"/s/{game.pk}/").content.decode()
    assert "Game over" in finished and "Vanessa</strong> wins." in finished
    assert phone.post(f"/s/{game.pk}/rematch/").status_code == 403
    response = host.post(f"/s/{game.pk}/rematch/")
    new = Session.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response.url == f"/s/{new.pk}/"
    assert list(new.seats.values_list("name", flat=True)) == ["Vanessa", "Peter"]
    assert new.options == game.options and not new.is_finished
    # The old table now points every phone on; the phone follows with its seat.
    assert "data-follow" in phone.get(f"/s/{game.pk}/").content.decode()
    followed = phone.get(f"/s/{game.pk}/next/")
    assert followed.status_code == 302 and followed.url == f"/s/{new.pk}/"
    token = followed.cookies[guest_cookie_name(new.pk)].value
    assert Guest.objects.get(token=token).seat == 1
    # A second rematch press does not open a third table.
    host.post(f"/s/{game.pk}/rematch/")
    assert Session.objects.count() == 2


def test_a_phone_follows_to_its_own_guest_at_the_rematch_and_no_other(alice):
    """Mallory's seatless phone at the finished table tried to take Carl's seat there and follow
    it: the rematch gave her the token of Carl's phone, which had joined the new table with its
    code. A finished table's seats stay as they were, and each phone follows to its own guest."""
    table = services.session_create(owner=alice, game="tiny", players=["Ann", "Ben", "Carl"],
                                    host_seat=0)
    mallory = guest_browser(table)
    host = browser_for(alice)
    add(host, table, 0, 10)
    add(host, table, 0, 10)
    host.post(f"/s/{table.pk}/rematch/")
    new = Session.objects.exclude(pk=table.pk).get()
    carl = services.guest_join(code=new.code, seat=2)
    claimed = mallory.post(f"/s/{table.pk}/seat/", {"seat": "2"})
    assert claimed.status_code in (200, 409)
    assert "This game is over: its seats stay as they were." in claimed.content.decode()
    followed = mallory.get(f"/s/{table.pk}/next/")
    token = followed.cookies[guest_cookie_name(new.pk)].value
    assert token != carl.token and Guest.objects.get(token=token).seat is None
    # Following again is the same phone: no second guest.
    again = mallory.get(f"/s/{table.pk}/next/")
    assert again.cookies[guest_cookie_name(new.pk)].value == token
    assert new.guests.count() == 2


def test_the_invite_bar_stays_until_every_seat_has_a_phone(alice):
    table = services.session_create(owner=alice, game="tiny", players=["Ann", "Ben", "Cy"],
                                    host_seat=0)
    host = browser_for(alice)
    page = host.get(f"/s/{table.pk}/").content.decode()
    assert 'id="invite"' in page and "2 seats are free" in page
    assert page.index('id="invite"') < page.index('id="scoreboard"')
    guest_browser(table, seat=1)
    assert "1 seat is free" in host.get(f"/s/{table.pk}/").content.decode()
    guest_browser(table, seat=2)
    assert 'id="invite"' not in host.get(f"/s/{table.pk}/").content.decode()


def test_the_join_page_names_the_game_and_host_and_shows_the_hosts_seat_taken(alice):
    table = services.session_create(owner=alice, game="tiny", players=["Ann", "Ben"],
                                    host_seat=0)
    page = browser_for().get(f"/join/{table.code}/").content.decode()
    assert "Tiny" in page and "alice" in page
    assert "Ann · host" in page and "Ben · free" in page


GAMES = [app.rpartition(".")[2] for app in games.INSTALLED_APPS]  # the product games


def another_seats_move(session, seat):
    """A move the game's samples offer for a seat other than `seat` (a seat's own move, by its
    authority), playing on as the host until one comes; None if none comes."""
    import random

    rules = plugins.rules_of(session.game)
    candidates = plugins.get(session.game).samples
    rng = random.Random(f"authority:{session.game}")
    host = services.Actor(user=session.owner)
    for _step in range(200):
        session.refresh_from_db()
        drawn = candidates(session.state, rng)
        for candidate in drawn:
            level, seats = engine.move_authority(rules, candidate["type"], candidate["data"],
                                                 session.state)
            if level in (engine.SEAT, engine.OWN) and seat not in seats:
                return candidate
        for candidate in drawn:
            try:
                services.move_play(session=session, type=candidate["type"],
                                   data=candidate["data"], actor=host)
                break
            except engine.Refused:
                continue
    return None


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_refuses_a_phone_another_seats_move_in_the_api_and_the_page(slug, alice):
    session = session_for(alice, game=slug, players=("Ana", "Ben", "Cy"))
    move = another_seats_move(session, 1)
    assert move is not None, f"the samples of {slug} offer no seat's move"
    guest = services.guest_join(code=session.code, seat=1)
    session.refresh_from_db()
    before = (session.version, session.state, Move.objects.filter(session=session).count())
    api = api_client(guest=guest).post(f"/api/sessions/{session.pk}/moves/",
                                       {"type": move["type"], **move["data"]}, format="json")
    assert api.status_code == 403, api.json()
    page_client = browser_for()
    page_client.cookies[guest_cookie_name(session.pk)] = guest.token
    page = page_client.post(f"/s/{session.pk}/move/", {
        "type": move["type"], "payload": json.dumps(move["data"])})
    assert page.status_code == 403
    assert html.escape(api.json()["detail"]) in page.content.decode()
    session.refresh_from_db()
    assert (session.version, session.state,
            Move.objects.filter(session=session).count()) == before


def test_a_last_round_that_ends_the_game_asks_the_host_first(alice):
    table = session_for(alice, game="pad", players=("Ana", "Ben"),
                        options={"game": "Hearts", "win": "low", "rounds": 1})
    host = browser_for(alice)
    asked = host.post(f"/s/{table.pk}/move/", {"type": "round", "form": "round",
                                                "scores[]": ["3", "5"]})
    assert "This ends the game for everyone at the table. Go ahead?" in asked.content.decode()
    assert not Move.objects.exists()
    host.post(f"/s/{table.pk}/move/", {"type": "round", "form": "round", "confirmed": "1",
                                        "scores[]": ["3", "5"]})
    assert Session.objects.get(pk=table.pk).is_finished


def test_the_hosts_page_is_new_when_a_phone_takes_a_seat(alice):
    table = services.session_create(owner=alice, game="tiny", players=["Ann", "Ben"],
                                    host_seat=0)
    host = browser_for(alice)
    first = host.get(f"/s/{table.pk}/")
    assert "1 seat is free" in first.content.decode()
    assert host.get(f"/s/{table.pk}/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    guest_browser(table, seat=1)
    again = host.get(f"/s/{table.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and 'id="invite"' not in again.content.decode()


def test_the_undo_button_and_redo_name_the_phones_the_services_let_use_them(alice, game):
    """Drawn once for every phone, each says which phones may use it (the page's script hides it
    from the others): the same answer undo_authorize and move_authorize give."""
    host = browser_for(alice)
    vanessa = guest_browser(game, seat=0)
    add(vanessa, game, 0, 2)
    guest = Guest.objects.get(seat=0)
    page = host.get(f"/s/{game.pk}/").content.decode()
    assert f'data-by="seat-0 guest-{guest.pk}"' in page
    add(host, game, 1, 3)  # the host's move about Peter's seat: his phone's, or the host's
    assert 'data-by="seat-1"' in host.get(f"/s/{game.pk}/").content.decode()
    guest_browser(game, seat=1).post(f"/s/{game.pk}/undo/")
    page = host.get(f"/s/{game.pk}/").content.decode()
    assert 'data-by="seat-1"' in page.split("undid:")[1]  # its Redo: Peter's move again
    add(host, game, 1, 3)
    host.post(f"/s/{game.pk}/undo/")
    page = host.get(f"/s/{game.pk}/").content.decode()
    assert 'data-by="host"' in page.split("undid:")[1]  # what the host undid, the host redoes
    for points in (10, 10):  # the game over: only the host undoes
        add(host, game, 0, points)
    assert 'data-by="host"' in vanessa.get(f"/s/{game.pk}/").content.decode()


def test_the_question_before_undoing_the_end_does_not_say_keep_playing(alice, game):
    vanessa = guest_browser(game, seat=0)
    for _ in range(2):  # Vanessa's phone reaches 20: the game is over
        add(vanessa, game, 0, 10)
    game.refresh_from_db()
    assert game.is_finished
    asked = browser_for(alice).post(f"/s/{game.pk}/undo/",
                                    {"expected_version": str(game.version)})
    page = asked.content.decode()
    assert "Everyone at the table is told." in page
    assert "No, leave it as it is" in page and "keep playing" not in page
