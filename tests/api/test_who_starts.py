"""Who starts, through the API: a session is created with a named first seat or a draw (the
top-level "first", kept in the game's own option), answers the seat that starts, and a draw's
export in play replays to the same seat without giving the seed away."""

import pytest

from companion import engine, plugins
from companion.models import Session

THREE = ["Ana", "Ben", "Cy"]


def create(client, **body):
    return client.post("/api/sessions/", {"players": THREE, **body}, format="json")


def test_a_session_created_with_a_named_first_seat_starts_there(as_alice):
    response = create(as_alice, game="rabbits", first=1)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["first"] == 1 and body["options"]["first"] == 1
    assert body["state"]["turn"]["seat"] == 1
    # Knights keeps who starts in its own option, Merlin in the first round.
    knights = create(as_alice, game="knights", first=2).json()
    assert knights["first"] == 2 and knights["options"]["merlin"] == 2
    assert (knights["state"]["merlin"], knights["state"]["arthur"]) == (2, 0)
    # The game's option itself says the same.
    assert create(as_alice, game="rabbits", options={"first": 2}).json()["first"] == 2


def test_a_session_created_with_a_draw_starts_at_the_seat_its_seed_draws(as_alice):
    response = create(as_alice, game="rabbits", first="draw")
    assert response.status_code == 201, response.json()
    body = response.json()
    session = Session.objects.get(pk=body["id"])
    rules = plugins.rules_of("rabbits")
    drawn = engine.first_seat(rules, session.options, 3, session.seed)
    assert body["options"]["first"] == "draw"  # kept as a draw: a replay draws it again
    assert body["first"] == drawn and body["state"]["turn"]["seat"] == drawn
    assert session.seed not in response.content.decode()
    # The draw is the set-up's, not a move: the log of moves is empty, the version 0.
    assert as_alice.get(f"/api/sessions/{session.pk}/moves/").json() == []
    assert body["version"] == 0
    # Exported in play, the seed is sealed; imported, the same seat is drawn again.
    exported = as_alice.get(f"/api/sessions/{session.pk}/export/").json()
    assert exported["seed"] is None and session.seed not in str(exported)
    copy = as_alice.post("/api/sessions/import/", exported, format="json").json()
    assert copy["first"] == drawn and copy["state"] == body["state"]


def test_the_pad_may_leave_who_starts_to_the_table(as_alice):
    body = create(as_alice, game="pad", options={"game": "Skat"}).json()
    assert body["first"] is None and body["state"]["first"] is None


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "quixote", "first": 0}, "has no first player"),
    ({"game": "rabbits", "first": 3}, 'Who starts is one of the seats, 0 to 2, or "draw"'),
    ({"game": "rabbits", "first": "drew"}, 'Who starts is a seat (0 and up) or "draw".'),
    ({"game": "rabbits", "first": -1}, 'Who starts is a seat (0 and up) or "draw".'),
    ({"game": "knights", "first": 1, "options": {"merlin": 2}}, "given twice"),
])
def test_who_starts_is_refused_with_a_sentence(as_alice, body, words):
    response = create(as_alice, **body)
    assert response.status_code == 400
    assert words in str(response.json())
    assert not Session.objects.exists()


def test_the_games_say_which_option_names_who_starts(anonymous):
    games = {game["slug"]: game for game in anonymous.get("/api/games/").json()}
    assert {slug: games[slug]["first_option"] for slug in
            ("quixote", "alatriste", "knights", "rabbits", "pad")} == {
        "quixote": None, "alatriste": "first", "knights": "merlin", "rabbits": "first",
        "pad": "first"}
