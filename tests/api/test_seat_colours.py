"""Each seat's colour (issue 52, point 7): distinct by default, chosen at set-up, set by the
seat's own phone or the host, carried by the API's seats. alice hosts, bob's phone holds Peter's
seat, charlie is another account."""

from companion.colours import HEXES
from companion.models import Seat


def seats(client, game):
    return client.get(f"/api/sessions/{game.pk}/").json()["seats"]


def colour_post(client, game, seat, colour):
    return client.post(f"/api/sessions/{game.pk}/seats/{seat}/colour/", {"colour": colour},
                       format="json")


def test_seats_get_distinct_colours_by_default(as_alice, game):
    assert [seat["colour"] for seat in seats(as_alice, game)] == list(HEXES[:2])


def test_colours_chosen_at_set_up_and_the_others_distinct(as_alice):
    made = as_alice.post("/api/sessions/", {"game": "tiny", "players": [
        "Vanessa", {"name": "Peter", "colour": "#E69F00"}]}, format="json")
    assert made.status_code == 201, made.json()
    # Peter chose the palette's first: Vanessa gets the next free one.
    assert [seat["colour"] for seat in made.json()["seats"]] == [HEXES[1], HEXES[0]]


def test_set_up_refuses_a_colour_not_in_the_palette_and_a_colour_twice(as_alice):
    for players in (["Vanessa", {"name": "Peter", "colour": "#123456"}],
                    [{"name": "Vanessa", "colour": HEXES[2]},
                     {"name": "Peter", "colour": HEXES[2]}]):
        answer = as_alice.post("/api/sessions/", {"game": "tiny", "players": players},
                               format="json")
        assert answer.status_code == 400
        assert "colour" in answer.json()["detail"]
    assert not Seat.objects.exists()


def test_the_seats_phone_sets_its_colour_and_every_answer_carries_it(as_alice, as_bob, game):
    answer = colour_post(as_bob, game, 1, HEXES[5])
    assert answer.status_code == 200, answer.json()
    assert answer.json()["seats"][1]["colour"] == HEXES[5]
    assert seats(as_alice, game)[1]["colour"] == HEXES[5]
    assert answer.json()["version"] == game.version + 1  # every phone is told


def test_the_host_sets_any_seats_colour(as_alice, game):
    assert colour_post(as_alice, game, 1, HEXES[3]).status_code == 200
    assert Seat.objects.get(session=game, index=1).colour == HEXES[3]


def test_a_phone_may_not_set_another_seats_colour(as_bob, game):
    answer = colour_post(as_bob, game, 0, HEXES[5])
    assert answer.status_code == 403
    assert answer.json()["detail"] == "Only this seat's phone or the host may change its colour."
    assert Seat.objects.get(session=game, index=0).colour == HEXES[0]


def test_a_colour_another_seat_has_is_refused(as_alice, game):
    answer = colour_post(as_alice, game, 1, HEXES[0])
    assert answer.status_code == 409
    assert answer.json()["detail"] == "Vanessa has that colour already: choose another."


def test_a_colour_not_in_the_palette_and_an_unknown_seat_are_400(as_alice, game):
    assert colour_post(as_alice, game, 1, "#123456").status_code == 400
    answer = colour_post(as_alice, game, 7, HEXES[5])
    assert answer.status_code == 400 and "no seat 7" in answer.json()["detail"]


def test_an_outsider_gets_no_answer(as_charlie, game):
    assert colour_post(as_charlie, game, 0, HEXES[5]).status_code == 404


def test_a_rematch_keeps_the_colours(as_alice, game):
    colour_post(as_alice, game, 1, HEXES[6])
    for _ in range(2):
        as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": 0, "points": 10},
                      format="json")
    from companion import services

    new = services.session_rematch(session=game, actor=services.Actor(user=game.owner))
    assert [seat.colour for seat in new.seats.all()] == [HEXES[0], HEXES[6]]


def test_the_same_colour_twice_changes_nothing_the_second_time(as_bob, game):
    first = colour_post(as_bob, game, 1, HEXES[5]).json()["version"]
    again = colour_post(as_bob, game, 1, HEXES[5])
    assert again.status_code == 200 and again.json()["version"] == first


def test_a_colour_not_in_the_palette_is_said_as_the_pages_say_it(as_bob, game):
    answer = colour_post(as_bob, game, 1, "purple")
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("A seat's colour is one of #e69f00 (orange)")
