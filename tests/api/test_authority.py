"""Who may do what, through the API: alice hosts, bob's phone holds Peter's seat (1), a second
phone holds Vanessa's (0). The services decide; a refusal is a 403 with a sentence and changes
nothing. The pages refuse the same with the same sentence (tests/views/test_authority.py)."""

import pytest

from companion import services
from companion.models import Move, Session
from tests.api.moves import moves_url, play, refused
from tests.conftest import api_client
from tests.factories import session_for


@pytest.fixture
def vanessas_phone(game):
    return api_client(guest=services.guest_join(code=game.code, seat=0))


def test_a_phone_plays_its_own_seat_and_the_host_any(game, as_alice, as_bob):
    play(as_bob, game, "add", seat=1, points=2)
    play(as_alice, game, "add", seat=0, points=3)
    play(as_alice, game, "add", seat=1, points=1)


def test_a_phone_may_not_play_another_seats_move(game, as_bob):
    refused(as_bob, game, "add", "This is Vanessa's move: it comes from Vanessa's phone or the "
            "host's.", seat=0, points=2, answers=403, code="forbidden")


def test_a_phone_without_a_seat_plays_nothing(game):
    watcher = api_client(guest=services.guest_join(code=game.code))
    refused(watcher, game, "add", "Choose your seat first", seat=0, points=2, answers=403,
            code="forbidden")


def test_a_phone_undoes_its_own_move_but_not_another_seats(game, as_bob, vanessas_phone):
    play(vanessas_phone, game, "add", seat=0, points=2)
    before = Session.objects.get(pk=game.pk).version
    response = as_bob.post(moves_url(game, "undo/"))
    assert response.status_code == 403
    assert response.json()["detail"] == "Only the host may undo a move of Vanessa."
    assert Session.objects.get(pk=game.pk).version == before
    assert vanessas_phone.post(moves_url(game, "undo/")).status_code == 200
    undone = Move.objects.get()
    assert (undone.undone_by, undone.undone_by_role) == ("Vanessa", "")


def test_after_the_end_only_the_host_undoes(game, as_alice, as_bob):
    play(as_bob, game, "add", seat=1, points=10)
    play(as_bob, game, "add", seat=1, points=10)
    assert Session.objects.get(pk=game.pk).is_finished
    response = as_bob.post(moves_url(game, "undo/"))
    assert response.status_code == 403
    assert response.json()["detail"] == "The game is over: only the host may undo now."
    assert Session.objects.get(pk=game.pk).is_finished
    assert as_alice.post(moves_url(game, "undo/")).status_code == 200
    undone = Move.objects.filter(undone=True).get()
    assert (undone.undone_by, undone.undone_by_role) == ("", "host")


def test_ending_the_game_is_the_hosts(alice, as_alice):
    table = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo"))
    phone = api_client(guest=services.guest_join(code=table.code, seat=0))
    refused(phone, table, "end", "Only the host may do this", answers=403, code="forbidden")
    play(as_alice, table, "end")
    assert Session.objects.get(pk=table.pk).is_finished


def test_a_fight_is_either_fighters_and_no_one_elses(alice):
    table = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo", "Malatesta"))
    phones = [api_client(guest=services.guest_join(code=table.code, seat=s)) for s in range(3)]
    refused(phones[2], table, "duel", "This is a move of Íñigo or Quevedo", challenger=0,
            challenged=1, accepted=False, answers=403, code="forbidden")


def test_an_attack_card_is_played_by_its_player_and_carried_out_by_its_target(alice, as_alice):
    table = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo", "Malatesta"))
    for seat in range(3):
        play(as_alice, table, "setup", seat=seat, fencing=4, ducats=6)
    inigo, quevedo = (api_client(guest=services.guest_join(code=table.code, seat=s))
                      for s in (0, 1))
    refused(quevedo, table, "attack", "This is Íñigo's move", action="play", to=1,
            answers=403, code="forbidden", **{"from": 0})
    play(inigo, table, "attack", action="play", to=1, **{"from": 0})
    refused(inigo, table, "attack", "This is Quevedo's move", action="resolve", to=1,
            answers=403, code="forbidden", **{"from": 0})
    play(quevedo, table, "attack", action="resolve", to=1)
    seats = Session.objects.get(pk=table.pk).state["seats"]
    assert [seat["attacks"] for seat in seats] == [0, 0, 0]


def test_the_host_sits_at_a_seat_no_phone_may_claim(alice, as_alice):
    body = as_alice.post("/api/sessions/", {"game": "tiny", "players": ["Ann", "Ben"],
                                            "host_seat": 0}, format="json").json()
    assert body["host_seat"] == 0
    response = api_client().post("/api/join/", {"code": body["code"], "seat": 0}, format="json")
    assert response.status_code == 409
    assert response.json()["detail"] == "That seat is the host's."


def test_a_host_seat_that_does_not_exist_is_refused(alice, as_alice):
    response = as_alice.post("/api/sessions/", {"game": "tiny", "players": ["Ann", "Ben"],
                                                "host_seat": 5}, format="json")
    assert response.status_code == 400
    assert "There is no seat 5" in response.json()["detail"]
    assert not Session.objects.exists()


def test_what_the_host_undid_only_the_host_redoes(game, as_alice, as_bob):
    """Peter's phone may redo Peter's move (tests/views: the Redo beside "Ben undid: ..."), but
    not once the host undid it: the host's decision, refused with the page's sentence."""
    played = play(as_bob, game, "add", seat=1, points=3)
    assert as_alice.post(moves_url(game, "undo/")).status_code == 200
    before = Session.objects.get(pk=game.pk).version
    response = as_bob.post(moves_url(game, "redo/"), {"seq": played["seq"]}, format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "The host undid this move: only the host may redo it.",
                               "code": "forbidden"}
    assert Session.objects.get(pk=game.pk).version == before
    redone = as_alice.post(moves_url(game, "redo/"), {"seq": played["seq"]}, format="json")
    assert redone.status_code == 201, redone.json()
    assert redone.json()["summary"] == "Peter +3"
    assert redone.json()["session"]["state"]["scores"] == [0, 3]
    assert as_alice.post(moves_url(game, "redo/"), {"seq": 99},
                         format="json").status_code == 409


def test_a_phone_redoes_what_it_undid(game, as_bob):
    played = play(as_bob, game, "add", seat=1, points=3)
    assert as_bob.post(moves_url(game, "undo/")).status_code == 200
    redone = as_bob.post(moves_url(game, "redo/"), {"seq": played["seq"]}, format="json")
    assert redone.status_code == 201
    assert Move.objects.get(seq=2).redone_by == "Peter"
