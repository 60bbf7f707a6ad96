"""The score pad through the REST API: set-up, moves, refusals that change nothing, export and
import, and the names used before offered in the new-game form."""

import pytest

from companion import plugins, services
from companion.models import Session
from tests.api.moves import play, refused
from tests.conftest import api_client
from tests.factories import session_for

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cy", "Di"]


@pytest.fixture
def host(alice):
    return api_client(user=alice)


def open_pad(owner, **options):
    options.setdefault("game", "Hearts")
    return session_for(owner, game="pad", players=NAMES, options=options)


def test_a_pad_is_opened_with_its_name_as_title(host):
    answer = host.post("/api/sessions/", {"game": "pad", "players": NAMES, "options": {
        "game": "Wingspan", "win": "high", "target": 80}}, format="json")
    assert answer.status_code == 201, answer.json()
    session = Session.objects.get(pk=answer.json()["id"])
    assert session.title == "Wingspan"


@pytest.mark.parametrize(("options", "match"), [
    ({"game": "Hearts", "target": "a hundred"}, "The target is a number of points"),
    ({"win": "low"}, "Name the game you play"),
    ({"game": "Hearts", "teams": [[0, 9]]}, "A team names seat 9"),
])
def test_bad_set_up_is_a_sentence_and_opens_nothing(host, options, match):
    before = Session.objects.count()
    answer = host.post("/api/sessions/", {"game": "pad", "players": NAMES, "options": options},
                       format="json")
    assert answer.status_code == 400
    assert match in answer.json()["detail"]
    assert Session.objects.count() == before


def test_rounds_corrections_and_the_end_through_the_api(host, alice):
    session = open_pad(alice, win="low")
    answer = play(host, session, "round", scores=[3, -2, "−1", None])
    assert answer["summary"] == "Round 1: Ana +3, Ben -2, Cy -1"
    play(host, session, "score", seat=3, points=0)
    play(host, session, "correct", seat=0, round=1, points=1)
    answer = play(host, session, "end")
    standings = answer["session"]["standings"]
    assert [(row["name"], row["rank"], row["winner"]) for row in standings][0] == (
        "Ben", 1, True)
    session.refresh_from_db()
    assert services.session_replay(session=session) == session.state


def test_bad_moves_are_sentences_and_change_nothing(host, alice):
    session = open_pad(alice)
    refused(host, session, "score", "There is no seat 7", seat=7, points=3, about="seat")
    refused(host, session, "score", "no halves", code="invalid", seat=0, points="2.5")
    # The shape is the move's serializer's alone: the rules are handed whole numbers.
    refused(host, session, "score", "no halves", code="invalid", seat=0, points=2.5)
    refused(host, session, "score", "no halves", code="invalid", seat=0, points=True)
    refused(host, session, "correct", "valid integer", code="invalid", seat=0, round="one",
            points=1)
    refused(host, session, "winners", "Expected a list", code="invalid", seats="0")
    refused(host, session, "winners", "no winner is named", seats=[0])
    refused(host, session, "round", "one score per seat", scores=[1, 2])
    refused(host, session, "end", "No score has been entered yet")


def test_export_and_import_round_trip_pad_sessions(host, alice):
    games = [
        (open_pad(alice, win="low", rounds=2), [
            {"type": "round", "scores": [10, 4, 7, 7]},
            {"type": "correct", "seat": 1, "round": 1, "points": 5},
            {"type": "round", "scores": [-5, 4, 0, 1]}]),
        (open_pad(alice, game="Pandemic", win="coop"), [
            {"type": "round", "scores": [1, 2, 3, 4]}, {"type": "end", "outcome": "lost"}]),
        (open_pad(alice, game="Codenames", win="none"), [
            {"type": "winners", "seats": [0, 2]}]),
    ]
    for session, moves in games:
        for move in moves:
            play(host, session, **move)
        host.post(f"/api/sessions/{session.pk}/undo/")
        play(host, session, **moves[-1])
        exported = host.get(f"/api/sessions/{session.pk}/export/").json()
        answer = host.post("/api/sessions/import/", exported, format="json")
        assert answer.status_code == 201, answer.json()
        copy = answer.json()
        original = host.get(f"/api/sessions/{session.pk}/").json()
        assert copy["state"] == original["state"]
        assert copy["standings"] == original["standings"]
        imported = Session.objects.get(pk=copy["id"])
        assert imported.title == session.title
        assert imported.is_finished
        assert services.session_replay(session=imported) == imported.state


def test_names_used_before_are_offered_first(alice, charlie):
    for name in ("Hearts", "Catan", "hearts", "Skat"):
        open_pad(alice, game=name)
    open_pad(charlie, game="Chess")
    suggestions = plugins.get("pad").option_suggestions(owner=alice)
    # "hearts" is the Hearts played before: one game, kept as first written.
    assert suggestions == {"titles": ["Skat", "Hearts", "Catan"]}


def test_a_guests_phone_enters_its_own_score_not_a_round_for_every_seat(alice):
    """A round names every seat's points: it is the host's convenience. A guest's phone enters
    its own seat's score; a round from it is refused with a sentence and changes nothing."""
    session = open_pad(alice)
    guest = api_client(guest=services.guest_join(code=session.code, seat=2))
    answer = guest.post(f"/api/sessions/{session.pk}/moves/",
                        {"type": "round", "scores": [1, 2, 3, 4]}, format="json")
    assert answer.status_code == 403
    assert "Only the host may" in answer.json()["detail"]
    answer = guest.post(f"/api/sessions/{session.pk}/moves/",
                        {"type": "score", "seat": 0, "points": 5}, format="json")
    assert answer.status_code == 403
    answer = guest.post(f"/api/sessions/{session.pk}/moves/",
                        {"type": "score", "seat": 2, "points": 5}, format="json")
    assert answer.status_code == 201, answer.json()
    session.refresh_from_db()
    assert session.version == 1 and session.state["seats"][2]["scores"] == [5]


def test_points_typed_as_a_sum_count_as_their_total(alice):
    """A paper pad's way (issue 52, point 8): "12+7" is 19, in a seat's score and a round."""
    from tests.conftest import api_client
    from tests.factories import session_for

    session = session_for(alice, game="pad", players=["Ana", "Ben"], options={"game": "Hearts"})
    host = api_client(user=alice)
    answer = host.post(f"/api/sessions/{session.pk}/moves/",
                       {"type": "score", "seat": 0, "points": "12+7"}, format="json")
    assert answer.status_code == 201, answer.json()
    answer = host.post(f"/api/sessions/{session.pk}/moves/",
                       {"type": "score", "seat": 1, "points": "20 - 3 + 1"}, format="json")
    assert answer.status_code == 201, answer.json()
    totals = {row["name"]: row["score"] for row in answer.json()["session"]["standings"]}
    assert totals == {"Ana": 19, "Ben": 18}
    refused = host.post(f"/api/sessions/{session.pk}/moves/",
                        {"type": "score", "seat": 0, "points": "2*3"}, format="json")
    assert refused.status_code == 400 and "a sum such as 12+7" in refused.json()["detail"]
