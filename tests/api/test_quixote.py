"""Don Quixote through the REST API: every move, every refusal, replay and undo."""

import pytest

from companion import services
from companion.models import Move, Session
from games.quixote import rules
from games.quixote.panel import FIELD_LABELS
from tests.api.moves import play, refused
from tests.conftest import api_client
from tests.factories import session_for

pytestmark = pytest.mark.django_db


def open_game(owner, deck="app", players=("Vanessa", "Peter"), seed="qx"):
    return session_for(owner, game="quixote", players=players, options={"deck": deck},
                       seed=seed)


@pytest.fixture
def qx(alice):
    return open_game(alice)


@pytest.fixture
def host(alice):
    return api_client(user=alice)






def score(seat, round_, c6=0, c4=0, churches=(), windmills=(), shields=0, knights=None):
    data = {"type": "score", "seat": seat, "round": round_, "castle6_knights": c6,
            "castle4_knights": c4, "church_groups": list(churches),
            "windmill_groups": list(windmills), "defense_shields": shields}
    if knights is not None:
        data["knight_groups"] = knights
    return data


def state_of(session):
    session.refresh_from_db()
    return session.state


def turn_round(client, session):
    state = state_of(session)
    for _ in range(state["cards_in_round"] - state["turned_in_round"]):
        play(client, session, type="turn")


def assert_replay(session):
    session.refresh_from_db()
    assert services.session_replay(session=session) == session.state


# --- the game and its options -------------------------------------------------------------------

def test_the_game_is_listed_with_its_option_and_moves(anonymous):
    games = {game["slug"]: game for game in anonymous.get("/api/games/").json()}
    assert games["quixote"]["options"] == {"deck": "app"}
    assert sorted(games["quixote"]["moves"]) == ["castles", "score", "turn"]
    assert (games["quixote"]["min_players"], games["quixote"]["max_players"]) == (1, 4)


def test_a_session_starts_with_the_castles_and_a_bad_deck_is_refused(host):
    body = host.post("/api/sessions/", {"game": "quixote", "players": ["Vanessa", "Peter"]},
                     format="json").json()
    assert body["options"] == {"deck": "app"}
    state = body["state"]
    assert (state["phase"], state["round"], state["turned"], state["current"]) == (
        "castles", 1, [], None)
    assert state["seats"][0] == {"name": "Vanessa", "rounds": [], "total": 0,
                                 "track": {"space": 0, "laps": 0}}
    bad = host.post("/api/sessions/", {"game": "quixote", "players": ["A"],
                                       "options": {"deck": "cards"}}, format="json")
    assert bad.status_code == 400
    assert "deck" in bad.json()["detail"]
    too_many = host.post("/api/sessions/", {"game": "quixote", "players": list("ABCDE")},
                         format="json")
    assert too_many.status_code == 400


# --- castles --------------------------------------------------------------------------------------

def test_the_app_turns_the_castle_cards(host, qx):
    answer = play(host, qx, type="castles")
    castles = answer["session"]["state"]["castles"]
    assert set(castles) == {"6", "4"}
    assert not rules.fields_touch(castles["6"], castles["4"])
    assert answer["summary"].startswith(f"Castles: 6 at {castles['6']}, 4 at {castles['4']}")
    assert answer["session"]["state"]["phase"] == "placing"
    refused(host, qx, type="castles")
    assert_replay(qx)


def test_the_app_refuses_named_castle_fields(host, qx):
    body = refused(host, qx, type="castles", castle6="A1", castle4="H3")
    assert "leave out castle6, castle4" in body["detail"]


def test_a_touching_castle_card_goes_back_into_the_deck(alice, host):
    """Some seed draws a 4-castle card that touches the 6: it is redrawn and said so."""
    for n in range(60):
        session = open_game(alice, seed=f"touch{n}")
        answer = play(host, session, type="castles")
        if "went back into the deck" in answer["summary"]:
            castles = answer["session"]["state"]["castles"]
            assert not rules.fields_touch(castles["6"], castles["4"])
            return
    pytest.fail("no seed drew a touching 4-castle")


def test_table_castles_are_named_and_must_not_touch(alice, host):
    session = open_game(alice, deck="table")
    body = refused(host, session, type="castles", castle6="F1", castle4="G2")
    assert body["detail"] == "The castles may not touch, not even diagonally: F1 and G2"
    assert body["fields"] == {"castle4": [body["detail"]]}
    assert "cannot share" in refused(host, session, type="castles", castle6="C2",
                                     castle4="C2")["detail"]
    assert "There is no field Z9" in refused(host, session, code="invalid", type="castles",
                                             castle6="Z9", castle4="A1")["detail"]
    assert "castle4" in refused(host, session, type="castles", castle6="A1")["detail"]
    assert refused(host, session, code="invalid", type="castles", castle6="A1" * 5,
                   castle4="H3")["fields"]["castle6"]
    answer = play(host, session, type="castles", castle6="f1", castle4="C2")
    assert answer["session"]["state"]["castles"] == {"6": "F1", "4": "C2"}
    assert_replay(session)


# --- position cards -----------------------------------------------------------------------------

def test_no_card_before_the_castles(host, qx):
    assert refused(host, qx, type="turn")["detail"] == "Place the castles first."


def test_the_app_turns_nine_seven_then_six_cards(host, qx, alice):
    play(host, qx, type="castles")
    answer = play(host, qx, type="turn")
    state = answer["session"]["state"]
    assert state["current"] == state["turned"][0]
    assert answer["summary"] == f"Round 1 · card 1 of 9: {state['current']}"
    assert "leave out field" in refused(host, qx, type="turn", field="A1")["detail"]
    turn_round(host, qx)
    state = state_of(qx)
    assert (state["phase"], len(state["turned"])) == ("scoring", 9)
    assert state["current"] == state["turned"][-1]
    body = refused(host, qx, type="turn")
    assert body["detail"] == ("Round 1 is over: the next card is turned once Vanessa and Peter "
                              "have scored round 1.")
    play(host, qx, **score(0, 1))
    assert "once Peter has scored round 1" in refused(host, qx, type="turn")["detail"]
    play(host, qx, **score(1, 1))
    state = state_of(qx)
    assert (state["phase"], state["round"], state["turned_in_round"]) == ("placing", 2, 0)
    turn_round(host, qx)
    assert len(state_of(qx)["turned"]) == 16
    play(host, qx, **score(0, 2))
    play(host, qx, **score(1, 2))
    turn_round(host, qx)
    state = state_of(qx)
    assert len(state["turned"]) == 22 and state["phase"] == "scoring"
    assert set(state["turned"]) | set(state["castles"].values()) == set(rules.FIELDS)
    last = qx.moves.order_by("-seq").first()
    assert last.summary.endswith("the last free field (the tile set aside)")
    assert_replay(qx)


def test_table_cards_are_named_and_checked(alice, host):
    session = open_game(alice, deck="table")
    play(host, session, type="castles", castle6="A1", castle4="H3")
    assert "There is no field K1" in refused(host, session, code="invalid", type="turn",
                                             field="K1")["detail"]
    assert refused(host, session, type="turn", field="A1")["detail"] == "A1 holds the 6-castle."
    assert refused(host, session, type="turn", field="H3")["detail"] == "H3 holds the 4-castle."
    assert "field" in refused(host, session, type="turn")["detail"]
    play(host, session, type="turn", field="G3")
    assert refused(host, session, type="turn", field="g3")["detail"] == "G3 was already turned."
    state = state_of(session)
    assert (state["current"], state["turned"]) == ("G3", ["G3"])
    assert_replay(session)


def test_table_last_card_of_round_three_may_leave_out_the_field(alice, host):
    session = open_game(alice, deck="table", players=("Solo",))
    play(host, session, type="castles", castle6="A1", castle4="H3")
    free = [name for name in rules.FIELDS if name not in ("A1", "H3")]
    for round_, count in ((1, 9), (2, 7), (3, 5)):
        for _ in range(count):
            play(host, session, type="turn", field=free.pop(0))
        if round_ < 3:
            play(host, session, **score(0, round_))
    answer = play(host, session, type="turn")
    assert answer["session"]["state"]["current"] == free[0]
    assert answer["session"]["state"]["phase"] == "scoring"


def test_deck_none_keeps_only_the_scores(alice, host):
    session = open_game(alice, deck="none")
    assert state_of(session)["phase"] == "scoring"
    assert "deck: none" in refused(host, session, type="castles")["detail"]
    assert "deck: none" in refused(host, session, type="turn")["detail"]


# --- scores -------------------------------------------------------------------------------------

def test_the_rulebook_example_scores_57(alice, host):
    session = open_game(alice, deck="none", players=("Peter",))
    play(host, session, **score(0, 1, c6=1, c4=0, shields=0, churches=[2, 1]))  # 6 + 2
    assert state_of(session)["seats"][0]["total"] == 8
    # a correction replaces round 1's score
    answer = play(host, session, **score(0, 1, c6=1))
    assert answer["summary"].startswith("Peter re-scored round 1: 6 (was 8)")
    play(host, session, **score(0, 2, c6=2, c4=2, windmills=[2], shields=8))  # 6+4+2+5 = 17
    play(host, session, **score(0, 2, c6=2, c4=2, windmills=[3], shields=4))  # 6+4+6 = 16
    play(host, session, **score(0, 2, c6=2, c4=2, churches=[2], windmills=[3], shields=7))
    answer = play(host, session, type="score", seat=0, round=3, castle6_knights=1,
                  castle4_knights=4, church_groups=[4], windmill_groups=[2, 5],
                  defense_shields=3, knight_groups=[[2, 3, 1, 3], [1]])
    state = answer["session"]["state"]
    assert state["seats"][0]["rounds"][2] == {
        "round": 3, "castle6": 0, "castle4": 4, "churches": 8, "windmills": 12, "defense": 0,
        "knights": 9, "total": 33}
    assert [entry["total"] for entry in state["seats"][0]["rounds"]] == [6, 18, 33]
    assert state["phase"] == "finished"
    session.refresh_from_db()
    assert session.status == Session.Status.FINISHED
    standing = answer["session"]["standings"][0]
    assert standing["score"] == 57 and standing["winner"] and standing["rank"] == 1
    assert standing["details"]["track"] == {"space": 57, "laps": 0}
    assert_replay(session)


def test_score_refusals_name_the_field(alice, host):
    session = open_game(alice, deck="none")
    assert refused(host, session, **score(0, 2))["detail"] == (
        "Vanessa has not scored round 1 yet: rounds are scored in order.")
    assert "Knight groups score only in round 3" in refused(
        host, session, **score(0, 1, knights=[[2, 3]]))["detail"]
    body = refused(host, session, **score(5, 1))
    assert "There is no seat 5" in body["detail"] and "seat" in body["fields"]
    data = score(0, 1)
    del data["church_groups"]
    assert refused(host, session, **data)["detail"] == "The score needs church_groups."
    for field, value in (("castle6_knights", -1), ("castle4_knights", "x"),
                         ("defense_shields", -2), ("round", 4), ("seat", -1),
                         ("church_groups", [0]), ("windmill_groups", [2, -1]),
                         ("church_groups", "many")):
        body = refused(host, session, code="invalid", **{**score(0, 1), field: value})
        # Named as the score form labels it: "Windmills", "“6-castle: knights”".
        label = str(FIELD_LABELS.get(field, field))
        assert field in body["fields"], body
        assert body["detail"].startswith(f"“{label}”" if ":" in label else label), body
    for knights in ([[4]], [[]], [[1, 0]], "[[2, \"x\"]]", [3]):
        body = refused(host, session, code="invalid", **score(0, 1, knights=knights))
        assert "knight_groups" in body["fields"], body
    body = refused(host, session, code="invalid", type="score", seat=0, round=1)
    assert set(body["fields"]) >= {"castle6_knights", "castle4_knights", "defense_shields"}


def test_a_round_is_scored_once_its_cards_are_turned(host, qx):
    assert "cannot be scored yet: 9 of its 9 cards" in refused(host, qx, **score(0, 1))["detail"]
    play(host, qx, type="castles")
    play(host, qx, type="turn")
    assert "8 of its 9 cards" in refused(host, qx, **score(0, 1))["detail"]
    turn_round(host, qx)
    answer = play(host, qx, **score(0, 1, c6=1, c4=1, churches=[2, 3], windmills=[2],
                                    shields=4))
    assert answer["summary"] == ("Vanessa scored round 1: 25 (castles 6+4, churches 8, "
                                 "windmills 2, defense 5); total 25")
    seat = answer["session"]["state"]["seats"][0]
    assert seat["total"] == 25 and seat["track"] == {"space": 25, "laps": 0}
    assert "cannot be scored yet: 7 of its 7" in refused(host, qx, **score(0, 2))["detail"]


def test_a_round_over_what_its_tiles_hold_is_refused_and_changes_nothing(host, qx):
    play(host, qx, type="castles")
    turn_round(host, qx)
    body = refused(host, qx, about="church_groups", **score(0, 1, churches=[1000]))
    assert body["detail"] == ("The church groups add up to 1000 churches: after round 1 the 9 "
                              "tiles hold at most 18 (one on each tile half).")
    body = refused(host, qx, about="defense_shields", **score(1, 1, shields=55))
    assert "at most 54 shields" in body["detail"]
    play(host, qx, **score(0, 1, churches=[18], shields=54))


def test_a_guest_plays_and_a_stranger_cannot(qx, host, as_charlie):
    guest = services.guest_join(code=qx.code, seat=1)
    as_guest = api_client(guest=guest)
    play(as_guest, qx, type="castles")
    play(as_guest, qx, type="turn")
    assert as_charlie.post(f"/api/sessions/{qx.pk}/moves/", {"type": "turn"},
                           format="json").status_code == 404
    assert api_client().post(f"/api/sessions/{qx.pk}/moves/", {"type": "turn"},
                             format="json").status_code == 404
    move = qx.moves.order_by("-seq").first()
    assert move.actor_guest == guest


def test_a_whole_game_then_undo_reopens_it(host, qx):
    play(host, qx, type="castles")
    for round_ in (1, 2, 3):
        turn_round(host, qx)
        play(host, qx, **score(0, round_, c6=round_, c4=round_, churches=[2, 3],
                               windmills=[2], shields=4 * round_,
                               knights=[[2, 3]] if round_ == 3 else None))
        play(host, qx, **score(1, round_, churches=[1]))
    qx.refresh_from_db()
    assert qx.status == Session.Status.FINISHED
    assert qx.state["phase"] == "finished"
    assert [seat["total"] for seat in qx.state["seats"]] == [80, 0]
    assert qx.moves.filter(type="turn").count() == 22
    assert_replay(qx)
    standings = host.get(f"/api/sessions/{qx.pk}/").json()["standings"]
    assert [(row["name"], row["rank"], row["winner"]) for row in standings] == [
        ("Vanessa", 1, True), ("Peter", 2, False)]
    assert host.post(f"/api/sessions/{qx.pk}/moves/", score(1, 3),
                     format="json").status_code == 409
    response = host.post(f"/api/sessions/{qx.pk}/undo/")
    assert response.status_code == 200
    assert response.json()["status"] == "active"
    assert response.json()["state"]["phase"] == "scoring"
    assert_replay(qx)
    play(host, qx, **score(1, 3, c6=3))
    assert state_of(qx)["seats"][1]["total"] == 6


def test_undo_a_turned_card(host, qx):
    play(host, qx, type="castles")
    play(host, qx, type="turn")
    before = state_of(qx)
    play(host, qx, type="turn")
    response = host.post(f"/api/sessions/{qx.pk}/undo/")
    assert response.json()["state"] == before
    assert Move.objects.filter(session=qx, undone=True).count() == 1
    # the replayed card is the same card: the deck is seeded by the move's number
    again = play(host, qx, type="turn")["session"]["state"]["current"]
    assert again not in before["turned"]
    assert_replay(qx)


def test_solitaire_rating(alice, host):
    session = open_game(alice, deck="none", players=("Solo",))
    play(host, session, **score(0, 1, c6=1, c4=1, churches=[5], windmills=[4], shields=4))
    play(host, session, **score(0, 2, c6=2, c4=2, churches=[6], windmills=[4], shields=8))
    play(host, session, **score(0, 3, c6=3, c4=3, churches=[7], windmills=[4], shields=12,
                                knights=[[3, 3]]))
    standing = host.get(f"/api/sessions/{session.pk}/").json()["standings"][0]
    assert standing["score"] == 33 + 35 + 43
    assert standing["details"]["rating"] == "absolutely incredible"
    assert standing["details"]["track"] == {"space": 51, "laps": 1}


def test_form_strings_are_accepted_by_the_serializer(alice, host):
    """The htmx form posts strings: "2 3" for group sizes, "2 3 1 3; 1" for knight groups."""
    session = open_game(alice, deck="none", players=("Peter",))
    for round_ in (1, 2):
        play(host, session, **score(0, round_))
    answer = play(host, session, type="score", seat="0", round="3", castle6_knights="1",
                  castle4_knights="4", church_groups="4", windmill_groups="2 5",
                  defense_shields="3", knight_groups="2 3 1 3; 1")
    assert answer["session"]["state"]["seats"][0]["rounds"][2]["total"] == 33


# The shape of a score, checked by its serializer alone (the rules are handed whole numbers and
# lists of them): each refused with a 400 naming the field, nothing changed.
BAD_SHAPES = [
    ("castle6_knights", -1), ("castle6_knights", 1.5), ("castle6_knights", "two"),
    ("castle6_knights", True), ("castle6_knights", None),
    ("castle4_knights", -3), ("defense_shields", -1), ("defense_shields", "x"),
    ("church_groups", [0]), ("church_groups", [2, -1]), ("windmill_groups", [1.5]),
    ("windmill_groups", {"a": 1}),
    ("knight_groups", [[]]), ("knight_groups", [[0, 1]]), ("knight_groups", [[4]]),
    ("knight_groups", [[True, 1]]),
    ("round", 0), ("round", 4), ("round", "first"), ("round", None),
    ("seat", -1), ("seat", "zero"), ("seat", True), ("seat", None),
]


@pytest.mark.parametrize("name, value", BAD_SHAPES)
def test_a_scores_shape_is_refused_by_its_serializer_naming_the_field(host, alice, name, value):
    session = open_game(alice, deck="none")
    data = score(0, 1)
    data[name] = value
    refused(host, session, code="invalid", about=name, **data)


@pytest.mark.parametrize("fields, about", [({"castle6": "Q1", "castle4": "C2"}, "castle6"),
                                           ({"castle6": 7, "castle4": "C2"}, "castle6")])
def test_a_castles_field_names_a_field_of_the_principality(host, alice, fields, about):
    refused(host, open_game(alice, deck="table"), "castles", "There is no field",
            code="invalid", about=about, **fields)


def test_a_field_is_written_as_the_rules_write_it(host, alice):
    session = open_game(alice, deck="table")
    play(host, session, "castles", castle6=" f1 ", castle4="c2")
    assert state_of(session)["castles"] == {"6": "F1", "4": "C2"}
    refused(host, session, "turn", "There is no field Z9", code="invalid", about="field",
            field="z9")
    play(host, session, "turn", field="g3")
    assert state_of(session)["turned"] == ["G3"]
