"""Send to BG Stats: the create-play link of a finished game of each kind (the four games, a named
game of the score pad, a logged play) carries only the fields BG Stats documents for it, filled
from the session (see companion/bgstats.py for where each field's meaning comes from)."""

import datetime
import re

import pytest
from django.utils import timezone

from companion import bgstats, plugins, services, stats
from companion.api.serializers import session_data
from tests.factories import finished_session, play_to_the_end, session_for
from tests.views.helpers import browser_for, guest_browser

# The fields of the support page's example JSON (all we may send), and those public code that
# builds these links says BG Stats needs.
PLAY_FIELDS = {"board", "durationMin", "comments", "game", "location", "playDate", "players",
               "sourceName", "sourcePlayId"}
GAME_FIELDS = {"bggId", "highestWins", "name", "noPoints", "sourceGameId"}
PLAYER_FIELDS = {"startPlayer", "name", "rank", "role", "score", "sourcePlayerId", "winner"}
REQUIRED = {"sourceName", "sourcePlayId", "playDate", "game", "players"}


def check_documented(play, session):
    assert set(play) <= PLAY_FIELDS and set(play) >= REQUIRED
    assert set(play["game"]) <= GAME_FIELDS
    assert {"name", "highestWins", "noPoints", "sourceGameId"} <= set(play["game"])
    assert play["sourceName"] == "Companion"
    assert play["sourcePlayId"] == f"session-{session.pk}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert play["playDate"] == timezone.localtime(session.created_at) \
        .strftime("%Y-%m-%d %H:%M:%S")
    assert play["game"]["name"] == session.game_name
    assert play["game"]["sourceGameId"] == stats.game_key(session.game, session.title)
    standings = {row["seat"]: row for row in stats.session_standings(session)}
    seats = list(session.seats.all())
    assert [player["name"] for player in play["players"]] == [seat.name for seat in seats]
    for seat, player in zip(seats, play["players"], strict=True):
        assert set(player) <= PLAYER_FIELDS
        assert {"name", "rank", "winner", "sourcePlayerId", "startPlayer"} <= set(player)
        assert isinstance(player["rank"], int) and isinstance(player["winner"], bool)
        assert player["rank"] == standings[seat.index]["rank"]
        assert player["winner"] == standings[seat.index]["winner"]
        assert player["sourcePlayerId"] == f"player-{seat.player_id}"
        if not play["game"]["noPoints"]:
            assert player["score"] == standings[seat.index]["score"]
        else:
            assert "score" not in player
    if "durationMin" in play:
        assert isinstance(play["durationMin"], int) and play["durationMin"] >= 1
    return play


def sent(session):
    session.refresh_from_db()
    link = bgstats.send_link(session)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    return check_documented(bgstats.data_of(link), session)


@pytest.mark.parametrize("game", ["quixote", "alatriste", "knights", "rabbits"])
def test_a_finished_game_of_each_of_ours(alice, game):
    session = finished_session(alice, game=game)
    play = sent(session)
    rules = plugins.rules_of(game)
    # Jack Rabbits has no points ("You will win if you return with 3 royal cards in hand"): the
    # royals held rank the seats but are sent as no one's score.
    points = game != "rabbits"
    assert play["game"]["highestWins"] is True and play["game"]["noPoints"] is not points
    assert play["game"].get("bggId") == rules.bgg_id  # absent while it is not known
    assert sum(player["winner"] for player in play["players"]) >= 1
    assert all(("score" in player) is points for player in play["players"])


def test_a_finished_named_game_of_the_score_pad(alice):
    session = finished_session(alice, game="pad")
    play = sent(session)
    assert session.title and play["game"]["name"] == session.title
    assert "bggId" not in play["game"]


def test_a_named_game_won_by_the_lowest_score_with_a_starting_player(alice):
    rules = plugins.titled_game()
    options = {**rules.titled_options("Golf", "low"), "first": 1}
    session = session_for(alice, game=rules.slug, players=("Ana", "Ben"), options=options)
    session.status = session.Status.FINISHED
    session.finished_at = session.created_at + datetime.timedelta(minutes=42)
    session.save()
    play = bgstats.send_play(session, standings=[
        {"seat": 0, "score": 30, "rank": 2, "winner": False},
        {"seat": 1, "score": 12, "rank": 1, "winner": True}], seats=list(session.seats.all()))
    assert play["game"]["highestWins"] is False and play["game"]["noPoints"] is False
    assert [p["startPlayer"] for p in play["players"]] == [False, True]
    assert play["durationMin"] == 42


def test_a_logged_play_with_its_length_place_and_note(alice):
    session = services.play_log(
        owner=alice, game="quixote", played_at=datetime.date(2026, 3, 7), minutes=55,
        location="Ana's kitchen", note="A close one",
        players=[{"name": "Ana", "score": 61}, {"name": "Ben", "score": 58}])
    play = sent(session)
    assert play["durationMin"] == 55 and play["location"] == "Ana's kitchen"
    assert play["comments"] == "A close one"
    assert play["playDate"].startswith("2026-03-07")
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Ana", 61, 1, True), ("Ben", 58, 2, False)]


def test_a_logged_play_without_points_sends_no_scores(alice):
    session = services.play_log(owner=alice, title="Codenames", win="none",
                                played_at=datetime.date(2026, 3, 7),
                                players=[{"name": "Ana", "winner": True}, {"name": "Ben"}])
    play = sent(session)
    assert play["game"]["noPoints"] is True
    assert [(p["name"], p["winner"]) for p in play["players"]] == [("Ana", True), ("Ben", False)]


def test_the_api_the_button_and_the_redirect_carry_the_same_link(alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"), seed="end0")
    phone = guest_browser(session, seat=1)  # a seated phone joins while the game is played
    for seed in range(12):
        if play_to_the_end(session, seed=seed):
            break
    session.refresh_from_db()
    link = bgstats.send_link(session)
    assert link
    assert session_data(session)["share"] == {"bgstats": link}
    page = browser_for(alice).get(f"/s/{session.pk}/")
    assert f'href="/s/{session.pk}/bgstats/"' in page.content.decode()
    history = browser_for(alice).get(f"/history/sessions/{session.pk}/")
    assert f'href="/s/{session.pk}/bgstats/"' in history.content.decode()
    for client in (browser_for(alice), phone):
        response = client.get(f"/s/{session.pk}/bgstats/")
        assert response.status_code == 302 and response["Location"] == link


def test_a_game_in_play_has_no_link_yet(alice, charlie):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    assert bgstats.send_link(session) is None
    assert session_data(session)["share"] is None
    response = browser_for(alice).get(f"/s/{session.pk}/bgstats/")
    assert response.status_code == 409 and b"still being played" in response.content
    # Another host is told nothing of it.
    assert browser_for(charlie).get(f"/s/{session.pk}/bgstats/").status_code == 404
