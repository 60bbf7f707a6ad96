"""The log-a-play page (/plays/new/), and every page that opens a logged session: the table,
the board, the history session page and the export show its final standings, no panel."""

import datetime

import pytest
from django.utils import timezone

from companion import plugins, services
from companion.models import Result, Session
from tests.api.test_plays import counts
from tests.views.helpers import assert_phone_ready, browser_for

NAMES = ("Ana", "Ben", "Cid", "Dee")


def form(game="Carcassonne", scores=("61", "74", "58", "74"), **fields):
    data = {"game": game, "played_at": "2026-10-03", "minutes": "45", "location": "Club",
            "note": "Ben's first", "win": "high", "name": list(NAMES), "score": list(scores)}
    data.update(fields)
    return data


def test_the_form_offers_the_roster_places_and_games(alice):
    services.play_log(owner=alice, title="Azul", location="Ana's kitchen",
                      players=[{"name": "Olga", "score": 3}])
    response = browser_for(alice).get("/plays/new/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    assert f'value="{timezone.localdate().isoformat()}"' in html  # the date is today's
    for offered in ('<option value="Olga">', "<option value=\"Ana&#x27;s kitchen\">",
                    '<option value="Azul">', '<option value="Tiny">'):
        assert offered in html
    assert html.count('name="name"') == 12 and html.count('name="winner"') == 12


def test_the_home_and_history_pages_link_to_it(alice):
    client = browser_for(alice)
    assert 'href="/plays/new/"' in client.get("/").content.decode()
    assert 'href="/plays/new/"' in client.get("/history/").content.decode()


def test_it_needs_a_sign_in(db):
    response = browser_for().get("/plays/new/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_named_play_is_logged_and_shown(alice):
    client = browser_for(alice)
    response = client.post("/plays/new/", form(winner=["3"]))
    session = Session.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/history/sessions/{session.pk}/"
    assert (session.game, session.title, session.location) == ("pad", "Carcassonne", "Club")
    # Dee is ticked: the tie of 74 is broken in her favour.
    assert list(Result.objects.filter(session=session, winner=True)
                .values_list("name", flat=True)) == ["Dee"]
    html = client.get(response["Location"]).content.decode()
    assert "<h1>Carcassonne</h1>" in html and "Final standings" in html
    assert "Ben&#x27;s first" in html and "Club" in html and "45 minutes" in html


def test_one_of_our_games_by_its_name(alice):
    response = browser_for(alice).post("/plays/new/", form(game="tiny", win="low",
                                                           name=["Ana", "Ben", "", ""],
                                                           score=["3", "9", "", ""]))
    assert response.status_code == 302
    session = Session.objects.get()
    assert (session.game, session.title) == ("tiny", "")
    # Our games are won by the highest score, whatever the list of named games' ways says.
    assert Result.objects.get(session=session, winner=True).name == "Ben"


@pytest.mark.parametrize(("fields", "sentence"), [
    ({"scores": ("61", "ten", "58", "74")}, "Row 2: a score is a number"),
    ({"name": ["Ana", "", "Cid", "Dee"]}, "Row 2 has a score or a tick but no name."),
    ({"minutes": "an hour"}, "The length is a whole number"),
    # Whole numbers all the same: the range is what is wrong (before: "a whole number, not -5").
    ({"minutes": "-5"}, "The length is a whole number of minutes from 1 to 1440."),
    ({"minutes": "99999999999999999999"}, "The length is too large a number."),
    ({"name": ["Ana", "B" * 61, "Cid", "Dee"]}, "A player&#x27;s name is too long (60 characters"),
    ({"game": ""}, "Name the game played."),
    ({"played_at": "2999-01-01"}, "still to come"),
    ({"win": "none"}, "takes no scores"),
])
def test_bad_input_is_a_sentence_and_the_form_keeps_what_was_typed(alice, fields, sentence):
    before = counts()
    scores = fields.pop("scores", ("61", "74", "58", "74"))
    response = browser_for(alice).post("/plays/new/", form(scores=scores, **fields))
    assert response.status_code == 400
    html = response.content.decode()
    assert sentence in html and 'role="alert"' in html
    assert 'value="Cid"' in html and 'value="58"' in html
    assert counts() == before


@pytest.mark.parametrize("slug", [game.slug for game in plugins.all_rules()])
def test_every_page_opening_a_logged_play_shows_its_standings(alice, slug):
    rules = plugins.rules_of(slug)
    names = [f"P{number}" for number in range(max(rules.min_players, 2))]
    session = services.play_log(
        owner=alice, game=slug, title="Azul" if rules.title else "",
        played_at=datetime.date(2026, 10, 3), minutes=20,
        players=[{"name": name, "score": 10 * number} for number, name in enumerate(names)])
    client = browser_for(alice)
    top = names[-1]
    for url in (f"/s/{session.pk}/", f"/board/{session.board_key}/",
                f"/history/sessions/{session.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert top in html and 'id="panel"' not in html, url
    from tests.conftest import api_client

    api = api_client(user=alice)
    exported = api.get(f"/api/sessions/{session.pk}/export/")
    assert exported.status_code == 200 and exported.json()["standings"][0]["name"] == top
    assert api.get(f"/api/sessions/{session.pk}/").json()["standings"][0]["name"] == top


def test_undo_on_a_logged_play_is_refused_with_a_sentence(alice):
    session = services.play_log(owner=alice, game="tiny",
                                players=[{"name": "Ana", "score": 3}, {"name": "Ben", "score": 1}])
    client = browser_for(alice)
    html = client.get(f"/s/{session.pk}/").content.decode()
    assert "Ana" in html
    response = client.post(f"/s/{session.pk}/undo/", {"expected_version": "0"})
    assert response.status_code in (400, 409)
    assert "undo" in response.content.decode().lower()
    session.refresh_from_db()
    assert session.is_finished and session.version == 0
    assert Result.objects.filter(session=session).count() == 2


def test_the_new_game_form_asks_where_offering_earlier_places(alice):
    services.play_log(owner=alice, game="tiny", location="Club",
                      players=[{"name": "Ana", "score": 3}])
    client = browser_for(alice)
    html = client.get("/new/?game=tiny").content.decode()
    assert 'name="location"' in html and '<option value="Club">' in html
    response = client.post("/new/", {"game": "tiny", "name": ["Ana", "Ben"],
                                     "location": "Ana's kitchen"})
    assert response.status_code == 302
    assert Session.objects.filter(logged=False).get().location == "Ana's kitchen"
    refused = client.post("/new/", {"game": "tiny", "name": ["Ana", "Ben"],
                                    "location": "x" * 61})
    assert refused.status_code == 400 and "too long" in refused.content.decode()
    assert 'value="' + "x" * 61 + '"' in refused.content.decode()
