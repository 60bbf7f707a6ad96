"""Knights & Damosels through the REST API: every move and its refusals, sealed choices kept
from every other device (API and pages) until the last is in, replay and undo."""

import pytest

from companion import services
from companion.models import Result, Session
from tests.api.moves import play, refused
from tests.conftest import api_client
from tests.factories import session_for

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cid"]
QUEST_FACES = {"0": {"honor": "down"}, "1": {"loyalty": "up"}, "2": {"valor": "down"}}


def knights(owner, players=NAMES, **options):
    return session_for(owner, game="knights", players=list(players), options=options,
                       seed="k")


def url(session, tail="moves/"):
    return f"/api/sessions/{session.pk}/{tail}"








def state_of(session):
    session.refresh_from_db()
    return session.state


@pytest.fixture
def table(alice):
    """Three seats, the table keeps the event deck."""
    return knights(alice, deck="table")


def quest_scene(client, session):
    """Holy Grail revealed; Ann, Bob and Cid each granted and offering one Virtue card."""
    play(client, session, "reveal_event", event="Holy Grail")
    for seat, card in enumerate(["Guinevere:honor", "Isolde:loyalty", "Elaine:valor"]):
        damosel, chivalry = card.split(":")
        play(client, session, "grant", seat=seat, damosel=damosel, chivalry=chivalry)
    for seat, chivalry in enumerate(["honor", "loyalty", "valor"]):
        play(client, session, "offer", seat=seat, chivalry=chivalry)


# --- the game and its options -------------------------------------------------------------------


def test_the_game_is_listed_with_its_moves_and_options(anonymous):
    games = {game["slug"]: game for game in anonymous.get("/api/games/").json()}
    knights_game = games["knights"]
    assert (knights_game["min_players"], knights_game["max_players"]) == (3, 6)
    assert set(knights_game["moves"]) == {"draw_events", "pass_events", "reveal_event", "grant",
                                          "offer", "seal", "worship", "disaster", "joust",
                                          "end_round"}
    assert knights_game["options"]["deck"] == "app" and knights_game["options"]["joust"] is True


def test_a_session_starts_as_the_spec_says(as_alice):
    response = as_alice.post("/api/sessions/", {
        "game": "knights", "players": NAMES,
        "options": {"merlin": 2, "knights": ["Tristram", "Bors", "Gawain"]}}, format="json")
    assert response.status_code == 201, response.json()
    state = response.json()["state"]
    assert (state["round"], state["phase"], state["merlin"], state["arthur"]) == (1, "event", 2, 0)
    assert [s["knight"] for s in state["seats"]] == ["Tristram", "Bors", "Gawain"]
    assert [s["worship"] for s in state["seats"]] == [1, 1, 1]
    assert state["victory"] is None and state["event_choices"] == []


@pytest.mark.parametrize(("options", "match"), [
    ({"deck": "cards"}, "app or by the table"),
    ({"merlin": 3}, "Merlin must be one of the seats"),
    ({"knights": ["Bors", "Bors", "Gawain"]}, "different one"),
    ({"joust": "yes"}, "on or off"),
    ({"events": {"Excalibur": ["gold"]}}, "not a chivalry"),
    ({"camlann": True}, "no option camlann"),
])
def test_bad_options_are_refused(as_alice, options, match):
    response = as_alice.post("/api/sessions/", {"game": "knights", "players": NAMES,
                                                "options": options}, format="json")
    assert response.status_code == 400 and match in response.json()["detail"]


def test_two_players_are_too_few(as_alice):
    response = as_alice.post("/api/sessions/", {"game": "knights", "players": ["Ann", "Bob"]},
                             format="json")
    assert response.status_code == 400 and "3 to 6" in response.json()["detail"]


# --- the event phase ----------------------------------------------------------------------------


def test_arthur_draws_passes_and_merlin_reveals_with_the_app_deck(alice, as_alice):
    session = knights(alice)
    refused(as_alice, session, "pass_events", "draw them first", discard="Excalibur")
    refused(as_alice, session, "reveal_event", "Arthur passes them first", event="Excalibur")
    body = play(as_alice, session, "draw_events")
    drawn = state_of(session)["event_choices"]
    assert body["session"]["state"]["event_choices"] == [None] * 3  # Arthur's, not the host's
    assert len(drawn) == 3 and body["summary"] == "Bob (Arthur) drew 3 events"
    refused(as_alice, session, "draw_events", "already drawn")
    other = next(e for e in sorted(_events()) if e not in drawn)
    refused(as_alice, session, "pass_events", "not among Arthur's events", discard=other)
    refused(as_alice, session, "pass_events", "not a valid choice", code="invalid",
            discard="The Lady of the Lake")
    refused(as_alice, session, "pass_events", "required", code="invalid")
    body = play(as_alice, session, "pass_events", discard=drawn[0])
    assert state_of(session)["event_choices"] == drawn[1:]
    assert body["session"]["state"]["event_choices"] == [None] * 2
    refused(as_alice, session, "reveal_event", "not one of Merlin's 2 events", event=drawn[0])
    body = play(as_alice, session, "reveal_event", event=drawn[2])
    state = body["session"]["state"]
    assert state["event"] == drawn[2] and state["phase"] == "knight"
    assert "Ann (Merlin) revealed" in body["summary"]
    refused(as_alice, session, "reveal_event", "already revealed", event=drawn[1])
    refused(as_alice, session, "draw_events", "already revealed")


def _events():
    from games.knights.rules import EVENTS

    return EVENTS


def test_the_table_deck_reveals_any_event_by_name(table, as_alice):
    refused(as_alice, table, "draw_events", "table keeps its own event deck")
    refused(as_alice, table, "pass_events", "table keeps its own event deck",
            discard="Excalibur")
    refused(as_alice, table, "reveal_event", "not a valid choice", code="invalid",
            event="Camlann")
    state = play(as_alice, table, "reveal_event", event="Excalibur")["session"]["state"]
    assert state["event"] == "Excalibur" and state["event_choices"] == []


# --- grants -------------------------------------------------------------------------------------


def test_a_grant_and_its_refusals(table, as_alice):
    refused(as_alice, table, "grant", "reveal this round's event first", seat=0,
            damosel="Guinevere", chivalry="honor")
    play(as_alice, table, "reveal_event", event="Holy Grail")
    body = play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    assert state_of(table)["seats"][0]["earned"] == [{"damosel": "Guinevere", "chivalry": "honor"}]
    # The host is not Merlin: until the knight phase ends, the damosel is not the host's to see.
    assert body["session"]["state"]["seats"][0]["earned"] == [{"damosel": None,
                                                               "chivalry": "honor"}]
    assert body["summary"] == "Ann's Bors was granted a card of honor"
    refused(as_alice, table, "grant", "has already been granted a card this round", seat=0,
            damosel="Isolde", chivalry="sword")
    refused(as_alice, table, "grant", "Ann's Bors holds it", seat=1, damosel="Guinevere",
            chivalry="honor")
    refused(as_alice, table, "grant", "Bob's own damosel", seat=1, damosel="Guinevere",
            chivalry="sword")
    refused(as_alice, table, "grant", "only one card in Merlin's hand", seat=2,
            damosel="Guinevere", chivalry="sword")
    play(as_alice, table, "grant", seat=1, damosel="Morgana", chivalry="horse")
    refused(as_alice, table, "grant", "damosels nobody plays", seat=2, damosel="Nimue",
            chivalry="horse")
    refused(as_alice, table, "grant", "no seat 4", seat=4, damosel="Nimue", chivalry="horse")
    refused(as_alice, table, "grant", "less than or equal to 5", code="invalid", seat=9,
            damosel="Nimue", chivalry="horse")
    refused(as_alice, table, "grant", "not a valid choice", code="invalid", seat=2,
            damosel="Nimue", chivalry="spear")
    refused(as_alice, table, "grant", "required", code="invalid", seat=2)


def test_a_knight_holds_one_card_of_each_chivalry(table, as_alice):
    play(as_alice, table, "reveal_event", event="Excalibur")
    play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    play(as_alice, table, "worship")
    play(as_alice, table, "end_round")
    play(as_alice, table, "reveal_event", event="Holy Grail")
    refused(as_alice, table, "grant", "already holds a card of honor", seat=0, damosel="Isolde",
            chivalry="honor")


# --- offers -------------------------------------------------------------------------------------


def test_offers_and_their_refusals(table, as_alice):
    play(as_alice, table, "reveal_event", event="Holy Grail")
    play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    play(as_alice, table, "grant", seat=1, damosel="Isolde", chivalry="armor")
    refused(as_alice, table, "offer", "does not list armor", seat=1, chivalry="armor")
    refused(as_alice, table, "offer", "holds no valor card", seat=0, chivalry="valor")
    body = play(as_alice, table, "offer", seat=0, chivalry="honor")
    assert body["session"]["state"]["phase"] == "service"
    assert body["session"]["state"]["seats"][0]["offered"] == ["honor"]
    refused(as_alice, table, "offer", "already offered honor", seat=0, chivalry="honor")
    refused(as_alice, table, "grant", "knight phase is over", seat=2, damosel="Elaine",
            chivalry="valor")


def test_nothing_is_offered_in_a_disaster(table, as_alice):
    play(as_alice, table, "reveal_event", event="The Death of Merlin")
    play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="armor")
    refused(as_alice, table, "offer", "is a Disaster", seat=0, chivalry="armor")


# --- worship, disaster, seals -------------------------------------------------------------------


def test_worship_in_a_quest_and_its_refusals(table, as_alice):
    quest_scene(as_alice, table)
    refused(as_alice, table, "disaster", "not a Disaster", placements=QUEST_FACES)
    refused(as_alice, table, "worship", "Cid must still place valor",
            placements={"0": QUEST_FACES["0"], "1": QUEST_FACES["1"]})
    refused(as_alice, table, "worship", "Ann has no armor card",
            placements={**QUEST_FACES, "0": {"honor": "up", "armor": "up"}})
    refused(as_alice, table, "worship", "not a valid choice", code="invalid",
            placements={**QUEST_FACES, "0": {"honor": "sideways"}})
    refused(as_alice, table, "worship", "not a seat number", code="invalid",
            placements={"Ann": {"honor": "up"}})
    body = play(as_alice, table, "worship", placements=QUEST_FACES)
    state = body["session"]["state"]
    assert [row["worship"] for row in state["seats"]] == [3, 5, 2]
    assert body["summary"].startswith("Worship for Holy Grail: Ann +2 (honor down 2)")
    refused(as_alice, table, "worship", "worship is entered", placements=QUEST_FACES)
    refused(as_alice, table, "offer", "worship is entered", seat=0, chivalry="honor")


def test_prosperity_worship_needs_no_placement(table, as_alice):
    play(as_alice, table, "reveal_event", event="Excalibur")
    play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="fisher")
    play(as_alice, table, "offer", seat=0, chivalry="fisher")
    refused(as_alice, table, "seal", "Prosperity", seat=0, placements={})
    state = play(as_alice, table, "worship")["session"]["state"]
    assert state["seats"][0]["worship"] == 1 + 2


def test_a_disaster_returns_the_majority_and_charges_the_minority(table, as_alice):
    play(as_alice, table, "reveal_event", event="The Adultery")
    for seat, card in enumerate(["Guinevere:honor", "Isolde:loyalty", "Elaine:valor"]):
        damosel, chivalry = card.split(":")
        play(as_alice, table, "grant", seat=seat, damosel=damosel, chivalry=chivalry)
    refused(as_alice, table, "worship", "is a Disaster", placements={})
    refused(as_alice, table, "disaster", "Ann must still place honor", placements={})
    body = play(as_alice, table, "disaster", placements={
        "0": {"honor": "up"}, "1": {"loyalty": "up"}, "2": {"valor": "down"}})
    state = body["session"]["state"]
    assert state["cards"]["Guinevere"]["honor"] is None  # the majority went back
    assert state["seats"][2]["worship"] == 0  # 2 taken, only 1 there
    assert "back to their damosels" in body["summary"]


def test_seals_from_the_phones_apply_the_worship_once_the_last_is_in(alice, table, as_alice):
    quest_scene(as_alice, table)
    phones = [api_client(guest=services.guest_join(code=table.code, seat=s)) for s in range(3)]
    refused(phones[1], table, "seal", "Only Ann's own phone may make this move.", seat=0,
            placements={"honor": "up"}, answers=403, code="forbidden")
    # Ann's seat has a phone: the host may not seal for it either.
    refused(as_alice, table, "seal", "Ann has joined with a phone", seat=0,
            placements={"honor": "up"}, answers=403, code="forbidden")
    refused(phones[0], table, "seal", "Ann must still place honor", seat=0, placements={})
    refused(phones[0], table, "seal", "required", code="invalid", seat=0)
    body = play(phones[0], table, "seal", seat=0, placements=QUEST_FACES["0"])
    assert body["summary"] == "Ann sealed a placement"
    assert body["session"]["state"]["sealed"] == {"0": {"honor": "down"}}
    refused(as_alice, table, "end_round", "Bob and Cid must still seal")
    refused(as_alice, table, "offer", "No offer now", seat=0, chivalry="honor")
    play(phones[1], table, "seal", seat=1, placements=QUEST_FACES["1"])
    body = play(phones[2], table, "seal", seat=2, placements=QUEST_FACES["2"])
    assert "all are in" in body["summary"]
    state = body["session"]["state"]
    assert state["sealed"] == {} and state["resolution"]["placements"] == QUEST_FACES
    assert [row["worship"] for row in state["seats"]] == [3, 5, 2]


def test_the_host_seals_for_a_seat_without_a_phone(table, as_alice):
    quest_scene(as_alice, table)
    for seat in ("0", "1"):
        play(as_alice, table, "seal", seat=int(seat), placements=QUEST_FACES[seat])
    refused(as_alice, table, "seal", "Cid has no honor card", seat=2,
            placements={"honor": "up"})
    state = play(as_alice, table, "seal", seat=2,
                 placements=QUEST_FACES["2"])["session"]["state"]
    assert state["resolution"]["placements"] == QUEST_FACES


# --- the joust ----------------------------------------------------------------------------------


def test_a_joust_in_the_knight_phase_moves_the_grant(table, as_alice):
    play(as_alice, table, "reveal_event", event="Holy Grail")
    play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    refused(as_alice, table, "joust", "cannot challenge himself", holder=0, challenger=0,
            damosel="Guinevere", chivalry="honor", cards=["different"])
    refused(as_alice, table, "joust", "was not granted", holder=1, challenger=2,
            damosel="Guinevere", chivalry="honor", cards=["different"])
    refused(as_alice, table, "joust", "first different pair", holder=0, challenger=2,
            damosel="Guinevere", chivalry="honor", cards=["similar"])
    refused(as_alice, table, "joust", "not a valid choice", code="invalid", holder=0,
            challenger=2, damosel="Guinevere", chivalry="honor", cards=["tie"])
    body = play(as_alice, table, "joust", holder=0, challenger=2, damosel="Guinevere",
                chivalry="honor", cards=["similar", "different"])
    state = state_of(table)
    assert state["cards"]["Guinevere"]["honor"] == 2
    assert [row["worship"] for row in state["seats"]] == [0, 1, 2]
    assert "Cid gets it" in body["summary"]
    refused(as_alice, table, "joust", "already challenged", holder=2, challenger=1,
            damosel="Guinevere", chivalry="honor", cards=["declined"])


def test_a_joust_in_the_service_phase_moves_the_offer(table, as_alice):
    play(as_alice, table, "reveal_event", event="Excalibur")
    play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="fisher")
    play(as_alice, table, "grant", seat=1, damosel="Isolde", chivalry="fisher")
    play(as_alice, table, "grant", seat=2, damosel="Elaine", chivalry="farmer")
    play(as_alice, table, "offer", seat=0, chivalry="fisher")
    play(as_alice, table, "offer", seat=2, chivalry="farmer")
    body = play(as_alice, table, "joust", holder=0, challenger=1, chivalry="fisher",
                cards="declined")
    state = body["session"]["state"]
    assert state["seats"][1]["offered"] == ["fisher"] and state["seats"][0]["offered"] == []
    refused(as_alice, table, "joust", "fisher was already challenged", holder=1, challenger=2,
            chivalry="fisher", cards=["different"])
    refused(as_alice, table, "joust", "lost a joust in this phase", holder=2, challenger=0,
            chivalry="farmer", cards=["different"])


def test_the_joust_option_off_refuses_jousts(alice, as_alice):
    session = knights(alice, deck="table", joust=False)
    play(as_alice, session, "reveal_event", event="Holy Grail")
    play(as_alice, session, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    refused(as_alice, session, "joust", "joust rule is off", holder=0, challenger=1,
            damosel="Guinevere", chivalry="honor", cards=["different"])


# --- end of round, victory, version, replay and undo --------------------------------------------


def test_end_round_passes_the_roles_and_checks_the_version(table, as_alice):
    refused(as_alice, table, "end_round", "reveal its event first")
    quest_scene(as_alice, table)
    refused(as_alice, table, "end_round", "enter its worship")
    play(as_alice, table, "worship", placements=QUEST_FACES)
    table.refresh_from_db()
    stale = as_alice.post(url(table), {"type": "end_round"}, format="json",
                          HTTP_IF_MATCH=f'"{table.version - 1}"')
    assert stale.status_code == 412 and stale.json()["version"] == table.version
    response = as_alice.post(url(table), {"type": "end_round"}, format="json",
                             HTTP_IF_MATCH=f'"{table.version}"')
    assert response.status_code == 201
    state = response.json()["session"]["state"]
    assert (state["round"], state["phase"], state["arthur"], state["merlin"]) == (2, "event", 2, 1)
    assert state["event"] is None and all(row["offered"] == [] for row in state["seats"])
    assert "Cid is Arthur, Bob is Merlin" in response.json()["summary"]


def test_a_victory_ends_the_game_and_writes_the_results(table, as_alice):
    # Worship victory at three players is 30: give Ann plenty through rounds of Prosperity.
    session = table
    grants = {0: [("Guinevere", c) for c in ("farmer", "fisher", "forester")]}
    for round_index in range(3):
        play(as_alice, session, "reveal_event", event="Arthur's Marriage")
        damosel, chivalry = grants[0][round_index]
        play(as_alice, session, "grant", seat=0, damosel=damosel, chivalry=chivalry)
        play(as_alice, session, "worship")
        play(as_alice, session, "end_round")
    state = state_of(session)
    assert state["seats"][0]["worship"] == 1 + 0 + 0 + 0
    # Force the threshold through the rules' own arithmetic: many Prosperity offers.
    for _ in range(10):
        play(as_alice, session, "reveal_event", event="Arthur's Marriage")
        for chivalry in ("farmer", "fisher", "forester"):
            play(as_alice, session, "offer", seat=0, chivalry=chivalry)
        body = play(as_alice, session, "worship")
        if body["session"]["state"]["seats"][0]["victory"]:
            break
        play(as_alice, session, "end_round")
    body = play(as_alice, session, "end_round")
    session.refresh_from_db()
    assert session.status == Session.Status.FINISHED
    assert body["session"]["state"]["victory"]["winner"] == 0
    assert body["session"]["standings"][0]["winner"] is True
    assert Result.objects.filter(session=session, winner=True).get().seat == 0
    response = as_alice.post(url(session), {"type": "end_round"}, format="json")
    assert response.status_code == 409


def test_the_log_replays_to_the_cached_state_and_undo_rebuilds_it(alice, as_alice):
    session = knights(alice)
    play(as_alice, session, "draw_events")
    drawn = state_of(session)["event_choices"]
    play(as_alice, session, "pass_events", discard=drawn[0])
    play(as_alice, session, "reveal_event", event=drawn[1])
    state = state_of(session)
    if state["event"] in ("The Adultery", "The Death of Merlin", "The Treason of Mordred"):
        play(as_alice, session, "disaster")
    else:
        play(as_alice, session, "worship")
    play(as_alice, session, "end_round")
    session.refresh_from_db()
    assert services.session_replay(session=session) == session.state
    before_end = session.moves.filter(undone=False).order_by("-seq")[1].seq
    response = as_alice.post(url(session, "undo/"))
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.state == services.session_replay(session=session, upto=before_end)
    assert session.state["round"] == 1 and session.state["resolution"] is not None


def test_a_guest_of_another_session_and_a_stranger_are_kept_out(alice, table, as_charlie):
    other = knights(alice, deck="table")
    intruder = api_client(guest=services.guest_join(code=other.code, seat=0))
    assert intruder.post(url(table), {"type": "reveal_event", "event": "Excalibur"},
                         format="json").status_code == 403
    assert as_charlie.post(url(table), {"type": "reveal_event", "event": "Excalibur"},
                           format="json").status_code == 404


# --- sealed choices stay unseen -----------------------------------------------------------------


def _html(client, path):
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_a_sealed_choice_stays_unseen_by_every_other_device_until_the_last_is_in(
        alice, table, as_alice, client):
    from django.test import Client

    quest_scene(as_alice, table)
    guests = [services.guest_join(code=table.code, seat=s) for s in range(3)]
    apis = [api_client(guest=g) for g in guests]
    pages = []
    for guest in guests:
        page = Client()
        page.cookies[f"guest{table.pk}"] = guest.token
        pages.append(page)
    host_page = Client()
    host_page.force_login(alice)
    board = Client()

    play(apis[0], table, "seal", seat=0, placements={"honor": "down"})
    play(apis[1], table, "seal", seat=1, placements={"loyalty": "up"})
    table.refresh_from_db()

    def seen_by(api, page):
        state = api.get(url(table, "")).json()["state"]
        moves = api.get(url(table)).json()
        html = _html(page, f"/s/{table.pk}/")
        return state, moves, html

    views = {"host": seen_by(as_alice, host_page), "Cid": seen_by(apis[2], pages[2])}
    views["Ann"] = seen_by(apis[0], pages[0])
    views["Bob"] = seen_by(apis[1], pages[1])
    for who, (state, moves, html) in views.items():
        seals = {m["data"]["seat"]: m["data"]["placements"] for m in moves if m["type"] == "seal"}
        for seat, chivalry, face in ((0, "honor", "down"), (1, "loyalty", "up")):
            own = who == NAMES[seat]
            if own:
                assert state["sealed"][str(seat)] == {chivalry: face}
                assert seals[seat] == {chivalry: face}
                assert f"{chivalry} face {face}." in html  # sealed, final, shown to its own
            else:
                assert f"{chivalry} face" not in html, who
                assert state["sealed"][str(seat)] == {"sealed": True}, who
                assert seals[seat] == {"sealed": True}, who
                assert f'name="p.{chivalry}" value="down" checked' not in html, who
                assert f'name="p.{chivalry}" value="up" checked' not in html, who
        assert "resolution" not in html or state["resolution"] is None
    board_html = _html(board, f"/board/{table.board_key}/")
    for html in (board_html, views["host"][2], views["Cid"][2]):
        # (The host's own whole-placement form previews its default, every card face up.)
        assert "honor down" not in html
        assert "Ann sealed a placement" in html
    for html in (board_html, views["Cid"][2]):
        assert "loyalty up" not in html

    play(apis[2], table, "seal", seat=2, placements={"valor": "down"})
    for api in (as_alice, *apis):
        state = api.get(url(table, "")).json()["state"]
        assert state["resolution"]["placements"] == QUEST_FACES
        seals = [m["data"]["placements"] for m in api.get(url(table)).json()
                 if m["type"] == "seal"]
        assert seals == [QUEST_FACES["0"], QUEST_FACES["1"], QUEST_FACES["2"]]
    assert "honor down" in _html(host_page, f"/s/{table.pk}/")
    assert "honor down" in _html(board, f"/board/{table.board_key}/")


def test_an_undone_seal_stays_unseen(table, as_alice):
    quest_scene(as_alice, table)
    ann = api_client(guest=services.guest_join(code=table.code, seat=0))
    bob = api_client(guest=services.guest_join(code=table.code, seat=1))
    play(ann, table, "seal", seat=0, placements={"honor": "down"})
    assert ann.post(url(table, "undo/")).status_code == 200
    for client in (bob, as_alice):
        seal = next(m for m in client.get(url(table)).json() if m["type"] == "seal")
        assert seal["undone"] and seal["data"]["placements"] == {"sealed": True}
    seal = next(m for m in ann.get(url(table)).json() if m["type"] == "seal")
    assert seal["data"]["placements"] == {"honor": "down"}


def test_the_seal_that_showed_every_face_is_the_hosts_to_undo(table, as_alice):
    # Undone from a phone, its seat could seal again knowing the others' faces.
    quest_scene(as_alice, table)
    phones = [api_client(guest=services.guest_join(code=table.code, seat=s)) for s in range(3)]
    for seat, phone in enumerate(phones[:2]):
        play(phone, table, "seal", seat=seat, placements=QUEST_FACES[str(seat)])
    assert phones[1].post(url(table, "undo/")).status_code == 200  # nobody saw it: its own
    play(phones[1], table, "seal", seat=1, placements=QUEST_FACES["1"])
    play(phones[2], table, "seal", seat=2, placements=QUEST_FACES["2"])
    refused_undo = phones[2].post(url(table, "undo/"))
    assert refused_undo.status_code == 403
    assert refused_undo.json()["detail"] == (
        "The last seal showed every face: only the host may undo it.")
    table.refresh_from_db()
    assert table.state["resolution"] is not None
    assert as_alice.post(url(table, "undo/")).status_code == 200  # to mend a slip
    table.refresh_from_db()
    assert table.state["resolution"] is None and set(table.state["sealed"]) == {"0", "1"}


def test_the_hosts_export_waits_until_no_seal_is_pending(table, as_alice):
    quest_scene(as_alice, table)
    ann = api_client(guest=services.guest_join(code=table.code, seat=0))
    play(ann, table, "seal", seat=0, placements={"honor": "down"})
    response = as_alice.get(url(table, "export/"))
    assert response.status_code == 409
    assert "down" not in response.content.decode()


# --- what Merlin and Arthur see stays hidden ----------------------------------------------------


def _seen_everywhere(session, apis, pages, host_page, as_alice):
    """{who: the API state, the move list, the table page and the pushed panel as text}, and
    the board's page and the pushed shared fragments (every phone alike)."""
    from django.test import Client

    from companion import fragments

    session.refresh_from_db()
    seen = {}
    for who, api, page, viewer, is_host in (
            ("host", as_alice, host_page, None, True),
            *((NAMES[seat], apis[seat], pages[seat], seat, False) for seat in range(3))):
        body = api.get(url(session, "")).json()
        seen[who] = (str(body["state"]) + str(body["standings"]),
                     str(api.get(url(session)).json()),
                     _html(page, f"/s/{session.pk}/"),
                     fragments.render_panel(session, viewer, is_host))
    board = _html(Client(), f"/board/{session.board_key}/")
    shared = "".join(fragments.render_shared(fragments.Shown.of(session)).values())
    return seen, board + shared


def _devices(session, alice):
    from django.test import Client

    guests = [services.guest_join(code=session.code, seat=s) for s in range(3)]
    apis = [api_client(guest=g) for g in guests]
    pages = []
    for guest in guests:
        page = Client()
        page.cookies[f"guest{session.pk}"] = guest.token
        pages.append(page)
    host_page = Client()
    host_page.force_login(alice)
    return apis, pages, host_page


def test_arthurs_draw_is_seen_by_arthur_alone_in_the_api_the_pages_and_the_pushes(
        alice, as_alice):
    session = knights(alice, merlin=0)  # Bob is Arthur, Ann Merlin
    apis, pages, host_page = _devices(session, alice)
    play(as_alice, session, "draw_events")
    drawn = state_of(session)["event_choices"]
    seen, board = _seen_everywhere(session, apis, pages, host_page, as_alice)
    for event in drawn:
        assert all(event in text for text in seen["Bob"][2:]), event  # his page and push
        assert event in seen["Bob"][0]
        for who in ("host", "Ann", "Cid"):
            assert not any(event in text for text in seen[who]), (who, event)
        assert event not in board
    assert "Bob (Arthur) drew 3 events" in board
    assert 'name="discard"' in seen["Bob"][2] and 'name="discard"' not in seen["Ann"][2]

    play(apis[1], session, "pass_events", discard=drawn[0])
    seen, board = _seen_everywhere(session, apis, pages, host_page, as_alice)
    assert drawn[0] in seen["Bob"][1]  # his discard, in his move list
    for who in ("host", "Ann", "Cid"):
        assert drawn[0] not in "".join(seen[who]), who
    for event in drawn[1:]:
        assert event in seen["Ann"][2] and event in seen["Ann"][0]  # Merlin holds the two
        assert event not in "".join(seen["host"] + seen["Cid"]) and event not in board
    assert 'name="event"' in seen["Ann"][2] and 'name="event"' not in seen["Cid"][2]
    assert as_alice.get(url(session, "export/")).status_code == 409

    play(apis[0], session, "reveal_event", event=drawn[1])
    seen, board = _seen_everywhere(session, apis, pages, host_page, as_alice)
    for who, texts in seen.items():
        assert drawn[1] in texts[0] and drawn[1] in texts[2], who  # the table sees the event
        if who != "Bob":
            assert drawn[0] not in "".join(texts) and drawn[2] not in "".join(texts), who
    assert drawn[0] not in board and drawn[2] not in board and drawn[1] in board
    assert as_alice.get(url(session, "export/")).status_code == 200


def test_arthurs_and_merlins_steps_come_from_their_own_phones_or_the_hosts(alice, as_alice):
    session = knights(alice, merlin=0)  # Ann is Merlin, Bob Arthur
    ann, bob, cid = (api_client(guest=services.guest_join(code=session.code, seat=s))
                     for s in range(3))
    not_arthurs = "This is Bob's move: it comes from Bob's phone or the host's."
    not_merlins = "This is Ann's move: it comes from Ann's phone or the host's."
    for phone in (ann, cid):
        refused(phone, session, "draw_events", not_arthurs, answers=403, code="forbidden")
    play(bob, session, "draw_events")
    drawn = state_of(session)["event_choices"]
    # Refused before the rules read the discard: Arthur's events are not named to Cid.
    body = refused(cid, session, "pass_events", not_arthurs, answers=403, code="forbidden",
                   discard="Excalibur")
    assert not any(event in body["detail"] for event in drawn)
    play(bob, session, "pass_events", discard=drawn[0])
    for phone in (bob, cid):
        refused(phone, session, "reveal_event", not_merlins, answers=403, code="forbidden",
                event=drawn[1])
    play(ann, session, "reveal_event", event=drawn[1])
    assert state_of(session)["phase"] == "knight"


def test_merlin_grants_the_cards_in_his_hand_from_his_phone_or_the_hosts(table, as_alice):
    ann, bob, cid = (api_client(guest=services.guest_join(code=table.code, seat=s))
                     for s in range(3))
    play(ann, table, "reveal_event", event="Holy Grail")  # Ann is Merlin
    # Not the knight given the card, nor anyone else: only Merlin sees the damosels.
    for phone in (bob, cid):
        refused(phone, table, "grant", "This is Ann's move", answers=403, code="forbidden",
                seat=1, damosel="Isolde", chivalry="loyalty")
    play(ann, table, "grant", seat=1, damosel="Isolde", chivalry="loyalty")
    play(as_alice, table, "grant", seat=2, damosel="Elaine", chivalry="valor")
    play(bob, table, "offer", seat=1, chivalry="loyalty")


def test_the_roles_pass_on_and_their_steps_with_them(table, as_alice):
    cid = api_client(guest=services.guest_join(code=table.code, seat=2))
    refused(cid, table, "reveal_event", "This is Ann's move", answers=403, code="forbidden",
            event="Excalibur")
    play(as_alice, table, "reveal_event", event="Excalibur")
    play(as_alice, table, "worship")
    play(as_alice, table, "end_round")
    assert state_of(table)["merlin"] == 1
    refused(cid, table, "reveal_event", "This is Bob's move", answers=403, code="forbidden",
            event="Excalibur")
    bob = api_client(guest=services.guest_join(code=table.code, seat=1))
    play(bob, table, "reveal_event", event="Excalibur")


def test_the_whole_placement_is_the_hosts_while_a_face_is_secret(table, as_alice):
    quest_scene(as_alice, table)
    ann, bob = (api_client(guest=services.guest_join(code=table.code, seat=s)) for s in (0, 1))
    play(ann, table, "seal", seat=0, placements={"honor": "down"})
    # Bob's phone may seal his own faces, not choose Cid's (or anyone's) with a whole placement.
    refused(bob, table, "worship", "Only the host may do this", answers=403, code="forbidden",
            placements=QUEST_FACES)
    play(as_alice, table, "worship", placements=QUEST_FACES)
    assert state_of(table)["resolution"] is not None


def test_a_disaster_is_the_hosts_to_enter_at_once_a_prosperity_any_phones(table, as_alice):
    play(as_alice, table, "reveal_event", event="The Adultery")
    play(as_alice, table, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    cid = api_client(guest=services.guest_join(code=table.code, seat=2))
    refused(cid, table, "disaster", "Only the host may do this", answers=403, code="forbidden",
            placements={"0": {"honor": "down"}})
    play(as_alice, table, "disaster", placements={"0": {"honor": "down"}})
    play(as_alice, table, "end_round")
    bob = api_client(guest=services.guest_join(code=table.code, seat=1))
    play(bob, table, "reveal_event", event="Excalibur")  # Bob is Merlin now
    play(cid, table, "worship")  # nothing to place: nothing secret, the table's


def test_a_granted_damosel_is_seen_by_its_knight_and_merlin_alone_until_the_knight_phase_ends(
        alice, as_alice):
    session = knights(alice, deck="table")  # Ann is Merlin
    apis, pages, host_page = _devices(session, alice)
    play(as_alice, session, "reveal_event", event="Holy Grail")
    play(as_alice, session, "grant", seat=1, damosel="Morgana", chivalry="honor")
    seen, board = _seen_everywhere(session, apis, pages, host_page, as_alice)
    # Merlin's own grid shows where the card went; Bob's own part names the card he holds.
    # The table's part (panel_live) is alike on every phone: there the damosel is hidden.
    mine = {"Ann": "Morgana&#x27;s honor: with Bob",
            "Bob": "Granted to you this round: Morgana&#x27;s honor."}
    for who in ("Ann", "Bob"):
        assert "Morgana" in seen[who][0] and "'Morgana', 'chivalry': 'honor'" in seen[who][1]
        assert mine[who] in seen[who][2], who
        assert mine[who] in seen[who][3], who
    for who in ("host", "Cid"):
        state, moves, page, push = seen[who]
        assert "'damosel': 'Morgana'" not in state + moves and "'honor': 1" not in state, who
        assert "'damosel': None" in moves, who
        for html in (page, push):
            assert "Morgana&#x27;s honor: with Bob" not in html, who
            assert "Morgana&#x27;s honor: with Morgana" in html, who
            assert "Bob's Gawain honor" in html, who  # granted, its damosel hidden
    assert "Bob&#x27;s Gawain was granted a card of honor" in board
    assert "Morgana&#x27;s honor: with Bob" not in board
    assert as_alice.get(url(session, "export/")).status_code == 409

    play(apis[2], session, "joust", holder=1, challenger=2, chivalry="honor",
         cards=["similar", "declined"])  # Cid's phone cannot see the damosel, nor needs it
    seen, board = _seen_everywhere(session, apis, pages, host_page, as_alice)
    assert mine["Bob"] in seen["Bob"][2]
    for who in ("host", "Cid"):
        assert "'damosel': 'Morgana'" not in seen[who][0] + seen[who][1], who
    # The board shows the table's part too: the grid names every damosel, this card with hers.
    assert "for the honor granted to Bob" in board and "Morgana&#x27;s honor: with Bob" not in board
    assert "Morgana&#x27;s honor: with Morgana" in board

    play(as_alice, session, "offer", seat=1, chivalry="honor")  # the knight phase is over
    seen, board = _seen_everywhere(session, apis, pages, host_page, as_alice)
    for who, (state, moves, page, push) in seen.items():
        assert "'damosel': 'Morgana', 'chivalry': 'honor'" in moves, who
        assert "Morgana&#x27;s honor: with Bob" in page and "'honor': 1" in state, who
        assert "Morgana&#x27;s honor: with Bob" in push, who
    assert as_alice.get(url(session, "export/")).status_code == 200


# The shape of a move, checked by its serializer alone: the rules are handed whole seat numbers,
# the rules' own names and faces (tests/test_conformance.py checks they take whatever it lets
# through). Each refused with a 400 naming the field, nothing changed.
@pytest.mark.parametrize("move_type, fields, about", [
    ("reveal_event", {"event": "Camlann"}, "event"),
    ("reveal_event", {"event": ["Holy Grail"]}, "event"),
    ("reveal_event", {}, "event"),
    ("grant", {"seat": -1, "damosel": "Isolde", "chivalry": "armor"}, "seat"),
    ("grant", {"seat": True, "damosel": "Isolde", "chivalry": "armor"}, "seat"),
    ("grant", {"seat": "x", "damosel": "Isolde", "chivalry": "armor"}, "seat"),
    ("grant", {"seat": 0, "damosel": "Enid", "chivalry": "armor"}, "damosel"),
    ("grant", {"seat": 0, "damosel": "Isolde", "chivalry": "lance"}, "chivalry"),
    ("grant", {"seat": 0, "damosel": "Isolde", "chivalry": ["armor"]}, "chivalry"),
    ("offer", {"seat": 1, "chivalry": "grail"}, "chivalry"),
    ("worship", {"placements": {"0": {"honor": "sideways"}}}, "placements"),
    ("worship", {"placements": {"0": "up"}}, "placements"),
    ("worship", {"placements": ["up"]}, "placements"),
    ("worship", {"placements": {"x": {"honor": "up"}}}, "placements"),
    ("seal", {"seat": 0, "placements": {"honor": 1}}, "placements"),
    ("joust", {"holder": 0, "challenger": 2, "chivalry": "honor", "cards": []}, "cards"),
    ("joust", {"holder": 0, "challenger": 2, "chivalry": "honor", "cards": ["tilt"]}, "cards"),
    ("joust", {"holder": 0, "challenger": 2, "chivalry": "honor",
               "cards": ["similar"] * 200 + ["different"]}, "cards"),
])
def test_a_moves_shape_is_refused_by_its_serializer(table, as_alice, move_type, fields, about):
    refused(as_alice, table, move_type, code="invalid", about=about, **fields)


def test_placements_seats_come_as_their_digits(table, as_alice):
    quest_scene(as_alice, table)
    play(as_alice, table, "worship", placements={0: {"honor": "down"}, "1": {"loyalty": "up"},
                                                 "02": {"valor": "down"}})
    assert state_of(table)["last"]["type"] == "worship"
