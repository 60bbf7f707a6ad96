"""Lenino's Jack Rabbits through the API: every move, its refusals, replay and undo."""

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import services
from companion.engine import RuleViolation
from companion.errors import Refused
from companion.models import Move, Session
from companion.payloads import move_payload
from games.rabbits.rules import GAME as RABBITS
from tests.api.moves import play, refused
from tests.conftest import api_client
from tests.factories import session_for
from tests.rules.test_rabbits import NAMES, give, new, rolled

pytestmark = pytest.mark.django_db


def rabbits(owner, players=("Ana", "Ben"), **options):
    return session_for(owner, game="rabbits", players=players, options=options)


def url(session):
    return f"/api/sessions/{session.pk}/moves/"






def state_of(session):
    session.refresh_from_db()
    return session.state


def check_replay(session):
    session.refresh_from_db()
    assert services.session_replay(session=session) == session.state


def audience_turn(client, session, seat, royal, cards, dice=(3, 4)):
    """The seat rolls and holds an audience (which ends its turn)."""
    play(client, session, "roll", seat=seat, dice=list(dice))
    return play(client, session, "audience", seat=seat, royal=royal, cards=cards)


def pass_turn(client, session, seat, dice=(3, 4)):
    return play(client, session, "roll", seat=seat, dice=list(dice))


# The game and its options ----------------------------------------------------------------------

def test_the_game_is_listed_with_its_options_and_moves(anonymous):
    games = {game["slug"]: game for game in anonymous.get("/api/games/").json()}
    assert games["rabbits"]["options"] == {"ending": "diverse_monarchy", "values": "classic",
                                          "advanced_citadel": False, "first": 0}
    assert games["rabbits"]["first_option"] == "first"
    assert set(games["rabbits"]["moves"]) == {"roll", "lottery", "pay", "audience", "steal",
                                              "where", "arrive"}
    assert games["rabbits"]["min_players"] == 2 and games["rabbits"]["max_players"] == 4


def test_a_session_starts_with_the_whole_royal_line(as_alice):
    response = as_alice.post("/api/sessions/", {"game": "rabbits", "players": ["Ana", "Ben"],
                                                "options": {"ending": "tribal"}}, format="json")
    assert response.status_code == 201
    state = response.json()["state"]
    assert len(state["line"]) == 12 and state["line"][:3] == ["JH", "QH", "KH"]
    assert state["turn"]["seat"] == 0 and state["turn"]["dice"] is None
    assert state["seats"][0] == {"name": "Ana", "royals": [], "carrots": 3,
                                 "first_ace_spent": False, "place": "board"}
    assert state["winner"] is None and state["options"]["ending"] == "tribal"


@pytest.mark.parametrize("options, match", [
    ({"ending": "chaos"}, "ending"), ({"values": "matriarchy"}, "values"),
    ({"advanced_citadel": "yes"}, "advanced_citadel"), ({"jokers": True}, "no option jokers")])
def test_bad_options_are_refused(as_alice, options, match):
    response = as_alice.post("/api/sessions/", {"game": "rabbits", "players": ["Ana", "Ben"],
                                                "options": options}, format="json")
    assert response.status_code == 400 and match in response.json()["detail"]


def test_one_player_is_too_few(as_alice):
    response = as_alice.post("/api/sessions/", {"game": "rabbits", "players": ["Ana"]},
                             format="json")
    assert response.status_code == 400 and "2 to 4" in response.json()["detail"]


# roll ------------------------------------------------------------------------------------------

def test_roll_with_typed_dice_sets_the_price(as_alice, alice):
    session = rabbits(alice)
    body = play(as_alice, session, "roll", seat=0, dice=[3, 4])
    assert body["summary"] == "Ana rolled 3+4: the price is 7"
    turn = body["session"]["state"]["turn"]
    assert (turn["seat"], turn["dice"], turn["price"]) == (0, [3, 4], 7)


def test_roll_without_dice_is_rolled_by_the_server_and_replays(as_alice, alice):
    session = rabbits(alice)
    body = play(as_alice, session, "roll", seat=0)
    dice = body["session"]["state"]["turn"]["dice"]
    assert all(1 <= die <= 6 for die in dice)
    assert f"{dice[0]}+{dice[1]}" in body["summary"]
    assert body["session"]["state"]["turn"]["price"] == sum(dice)
    check_replay(session)


def test_roll_accepts_the_dice_as_text(as_alice, alice):
    session = rabbits(alice)
    body = play(as_alice, session, "roll", seat=0, dice="6 5")
    assert body["session"]["state"]["turn"]["price"] == 11


def test_roll_refusals(as_alice, alice):
    session = rabbits(alice, players=("Ana", "Ben", "Cid"))
    refused(as_alice, session, "roll", "Ana rolls first", seat=1, dice=[1, 1])
    refused(as_alice, session, "roll", "less than or equal to 6", code="invalid", seat=0,
            dice=[3, 7])
    refused(as_alice, session, "roll", "at least 2", code="invalid", seat=0, dice=[3])
    refused(as_alice, session, "roll", "required", code="invalid", dice=[3, 3])
    play(as_alice, session, "roll", seat=0, dice=[2, 2])
    refused(as_alice, session, "roll", "Ana has rolled already this turn", seat=0, dice=[1, 1])
    refused(as_alice, session, "roll", "the next to roll is Ben", seat=2, dice=[1, 1])
    play(as_alice, session, "roll", seat=1, dice=[1, 1])
    assert state_of(session)["turn"]["price"] == 2


def test_turns_go_round_the_seats(as_alice, alice):
    session = rabbits(alice)
    for seat in (0, 1, 0, 1):
        pass_turn(as_alice, session, seat)
    assert state_of(session)["turn"]["seat"] == 1


# lottery ---------------------------------------------------------------------------------------

def test_lottery_wins_a_card_once_a_turn(as_alice, alice):
    session = rabbits(alice)
    play(as_alice, session, "roll", seat=0, dice=[3, 5])
    body = play(as_alice, session, "lottery", seat=0, card="5c")
    assert body["summary"] == "Ana won the lottery with 5C: one card from the pile"
    assert body["session"]["state"]["turn"]["lottery"] is True
    assert "discard down to 9" in body["session"]["state"]["last"]["answer"]
    refused(as_alice, session, "lottery", "played the lottery already", seat=0, card="3H")


def test_lottery_refusals(as_alice, alice):
    session = rabbits(alice)
    refused(as_alice, session, "lottery", "Ana's turn starts with a roll", seat=0, card="3H")
    play(as_alice, session, "roll", seat=0, dice=[1, 3])
    refused(as_alice, session, "lottery", "It is Ana's turn, not Ben's", seat=1, card="3H")
    refused(as_alice, session, "lottery", "matches neither die", seat=0, card="4H")
    refused(as_alice, session, "lottery", "royals never match", seat=0, card="QH")
    refused(as_alice, session, "lottery", "first ace is not spent", seat=0, card="AS")
    refused(as_alice, session, "lottery", "not a card", code="invalid", seat=0, card="ZZ")
    refused(as_alice, session, "lottery", "required", code="invalid", seat=0)


def test_an_ace_matches_a_one_once_the_first_ace_is_spent(as_alice, alice):
    session = rabbits(alice)
    play(as_alice, session, "roll", seat=0, dice=[1, 6])
    play(as_alice, session, "pay", seat=0, cards=["AS"], suits=["S"])
    refused(as_alice, session, "lottery", "The lottery comes right after the roll", seat=0,
            card="AH")
    play(as_alice, session, "roll", seat=1, dice=[2, 2])
    play(as_alice, session, "roll", seat=0, dice=[1, 6])
    play(as_alice, session, "lottery", seat=0, card="AH")


# pay -------------------------------------------------------------------------------------------

def test_pay_counts_the_first_ace_as_11_and_records_it(as_alice, alice):
    session = rabbits(alice)
    play(as_alice, session, "roll", seat=0, dice=[6, 6])
    body = play(as_alice, session, "pay", seat=0, cards=["AS", "2C"], suits=["S", "C"])
    assert body["summary"] == "Ana paid AS(11)+2C=13 (price 12)"
    assert body["session"]["state"]["seats"][0]["first_ace_spent"] is True
    # A later ace is 1.
    refused(as_alice, session, "pay", "add up to 4", seat=0, cards=["AC", "3C"], suits=["C"])


def test_pay_may_overpay_and_takes_the_cards_as_text(as_alice, alice):
    session = rabbits(alice)
    play(as_alice, session, "roll", seat=0, dice=[1, 2])
    body = play(as_alice, session, "pay", seat=0, cards="10D 9D", suits="D")
    assert body["session"]["state"]["last"]["total"] == 19


def test_pay_refusals(as_alice, alice):
    session = rabbits(alice)
    refused(as_alice, session, "pay", "starts with a roll", seat=0, cards=["7H"], suits=["H"])
    play(as_alice, session, "roll", seat=0, dice=[4, 4])
    refused(as_alice, session, "pay", "7H adds up to 7: the price is 8", about="cards", seat=0,
            cards=["7H"], suits=["H"])
    refused(as_alice, session, "pay", "7D is diamonds: this tile takes hearts and spades",
            seat=0, cards=["7D", "2H"], suits=["S", "H"])
    refused(as_alice, session, "pay", "QH is not Ana's to spend", seat=0, cards=["QH"],
            suits=["H"])
    refused(as_alice, session, "pay", "listed twice", seat=0, cards=["7H", "7H"], suits=["H"])
    refused(as_alice, session, "pay", "Say which cards", seat=0, cards=[], suits=["H"])
    refused(as_alice, session, "pay", "not a suit", code="invalid", seat=0, cards=["9H"],
            suits=["X"])
    refused(as_alice, session, "pay", "required", code="invalid", seat=0, cards=["9H"])
    refused(as_alice, session, "pay", "It is Ana's turn, not Ben's", seat=1, cards=["9H"],
            suits=["H"])


def test_a_royal_spent_goes_back_to_the_line_and_its_carrot_home(as_alice, alice):
    session = rabbits(alice)
    audience_turn(as_alice, session, 0, "JH", ["10H"])
    pass_turn(as_alice, session, 1)
    play(as_alice, session, "roll", seat=0, dice=[5, 5])
    body = play(as_alice, session, "pay", seat=0, cards=["JH"], suits=["H"])
    state = body["session"]["state"]
    assert state["seats"][0]["royals"] == [] and state["seats"][0]["carrots"] == 3
    assert "JH" in state["line"] and "JH" not in state["tiles"]
    assert body["summary"].endswith("; JH back to the line")


def test_patriarchy_values(as_alice, alice):
    session = rabbits(alice, values="patriarchy")
    play(as_alice, session, "roll", seat=0, dice=[6, 6])
    refused(as_alice, session, "pay", "add up to 11", seat=0, cards=["9S", "2S"], suits=["S"])
    body = play(as_alice, session, "pay", seat=0, cards=["AS"], suits=["S"])
    assert body["session"]["state"]["last"]["total"] == 14


# audience --------------------------------------------------------------------------------------

def test_audience_takes_the_royal_leaves_a_carrot_and_ends_the_turn(as_alice, alice):
    session = rabbits(alice)
    body = audience_turn(as_alice, session, 0, "QS", ["4S", "6S"])
    state = body["session"]["state"]
    assert body["summary"] == "Ana won an audience with QS (4S+6S=10)"
    assert state["seats"][0]["royals"] == ["QS"] and state["seats"][0]["carrots"] == 2
    assert state["tiles"] == {"QS": 0} and "QS" not in state["line"]
    assert state["turn"]["ended"]
    refused(as_alice, session, "pay", "turn has ended", seat=0, cards=["9H"], suits=["H"])
    refused(as_alice, session, "lottery", "It is Ben's turn, which starts with a roll", seat=1,
            card="3H")
    check_replay(session)


def test_audience_refusals(as_alice, alice):
    session = rabbits(alice)
    audience_turn(as_alice, session, 0, "QS", ["10S"])
    play(as_alice, session, "roll", seat=1, dice=[3, 4])
    refused(as_alice, session, "audience", "QS is not in the line: Ana holds it", seat=1,
            royal="QS", cards=["10S"])
    refused(as_alice, session, "audience", "7S is not a royal", seat=1, royal="7S",
            cards=["10S"])
    refused(as_alice, session, "audience", "9H is not diamonds", seat=1, royal="KD",
            cards=["9H", "2D"])
    refused(as_alice, session, "audience", "9D adds up to 9: an audience needs 10", seat=1,
            royal="KD", cards=["9D"])
    refused(as_alice, session, "audience", "QS is not Ben's to spend", seat=1, royal="KS",
            cards=["QS"])
    refused(as_alice, session, "audience", "It is Ben's turn, not Ana's", seat=0, royal="KD",
            cards=["10D"])
    play(as_alice, session, "where", seat=1, place="off")
    refused(as_alice, session, "audience", "Ben is off the board", seat=1, royal="KD",
            cards=["10D"])


def test_audience_needs_a_carrot(as_alice, alice):
    session = rabbits(alice)
    for royal in ("JH", "JS", "JD"):
        audience_turn(as_alice, session, 0, royal, [f"10{royal[-1]}"])
        pass_turn(as_alice, session, 1)
    assert state_of(session)["seats"][0]["carrots"] == 0
    play(as_alice, session, "roll", seat=0, dice=[2, 2])
    refused(as_alice, session, "audience", "Ana has no carrot left", seat=0, royal="JC",
            cards=["10C"])


def test_audience_first_ace_counts_11(as_alice, alice):
    session = rabbits(alice)
    body = audience_turn(as_alice, session, 0, "KC", ["AC"])
    assert body["session"]["state"]["seats"][0]["first_ace_spent"] is True


# steal -----------------------------------------------------------------------------------------

def test_steal_passes_the_royal_and_the_victim_goes_off(as_alice, alice):
    session = rabbits(alice)
    audience_turn(as_alice, session, 0, "KH", ["10H"])
    play(as_alice, session, "roll", seat=1, dice=[3, 4])
    body = play(as_alice, session, "steal", thief=1, victim=0, royal="KH")
    state = body["session"]["state"]
    assert body["summary"] == "Ben stole KH from Ana, who is off the board"
    assert state["seats"][1]["royals"] == ["KH"] and state["seats"][0]["royals"] == []
    assert state["seats"][0]["carrots"] == 3 and state["seats"][1]["carrots"] == 2
    assert state["tiles"] == {"KH": 1} and state["seats"][0]["place"] == "off"
    assert state["turn"]["ended"]
    # Off the board, Ana's next turn starts underground.
    body = play(as_alice, session, "roll", seat=0, dice=[1, 1])
    assert body["session"]["state"]["seats"][0]["place"] == "underground"
    assert "waits underground" in body["summary"]


def test_steal_refusals(as_alice, alice):
    session = rabbits(alice)
    audience_turn(as_alice, session, 0, "KH", ["10H"])
    refused(as_alice, session, "steal", "It is Ben's turn, which starts with a roll", thief=1,
            victim=0, royal="KH")
    play(as_alice, session, "roll", seat=1, dice=[3, 4])
    refused(as_alice, session, "steal", "cannot steal from itself", thief=1, victim=1,
            royal="KH")
    refused(as_alice, session, "steal", "Ana does not hold QH", thief=1, victim=0, royal="QH")
    refused(as_alice, session, "steal", "will hold 1 royals: nothing is returned", thief=1,
            victim=0, royal="KH", returns="KH")
    refused(as_alice, session, "steal", "required", code="invalid", victim=0, royal="KH")
    play(as_alice, session, "where", seat=0, place="underground")
    refused(as_alice, session, "steal", "Ana is underground", thief=1, victim=0, royal="KH")


def test_a_thief_with_four_royals_returns_one(as_alice, alice):
    session = rabbits(alice)
    audience_turn(as_alice, session, 0, "KH", ["10H"])
    for royal in ("JS", "QD", "KC"):
        audience_turn(as_alice, session, 1, royal, [f"10{royal[-1]}"])
        pass_turn(as_alice, session, 0)
    play(as_alice, session, "roll", seat=1, dice=[2, 3])
    refused(as_alice, session, "steal", "say which one goes back", thief=1, victim=0,
            royal="KH")
    refused(as_alice, session, "steal", "can only return one of", thief=1, victim=0,
            royal="KH", returns="JH")
    body = play(as_alice, session, "steal", thief=1, victim=0, royal="KH", returns="QD")
    state = body["session"]["state"]
    assert state["seats"][1]["royals"] == ["KH", "JS", "KC"]
    assert state["seats"][1]["carrots"] == 0 and "QD" in state["line"]
    assert body["summary"].endswith("; QD back to the line")
    check_replay(session)


def test_a_blank_returns_from_a_form_is_left_out(as_alice, alice):
    session = rabbits(alice)
    audience_turn(as_alice, session, 0, "KH", ["10H"])
    play(as_alice, session, "roll", seat=1, dice=[3, 4])
    body = play(as_alice, session, "steal", thief="1", victim="0", royal="kh", returns="")
    assert Move.objects.get(session=session, seq=body["seq"]).data == {
        "thief": 1, "victim": 0, "royal": "KH"}


# where -----------------------------------------------------------------------------------------

def test_where_moves_a_rabbit_at_any_time(as_alice, alice):
    session = rabbits(alice)
    body = play(as_alice, session, "where", seat=1, place="off")
    assert body["summary"] == "Ben is now off the board"
    assert body["session"]["state"]["seats"][1]["place"] == "off"
    refused(as_alice, session, "where", "Ben is off the board already", seat=1, place="off")
    refused(as_alice, session, "where", "valid choice", code="invalid", seat=1, place="moon")
    refused(as_alice, session, "where", "There is no seat 2", seat=2, place="off")
    play(as_alice, session, "where", seat=1, place="board")


# arrive ----------------------------------------------------------------------------------------

def diverse_monarchy_for_ana(client, session):
    for royal, cards in (("JH", ["10H"]), ("QS", ["4S", "6S"]), ("KD", ["10D"])):
        audience_turn(client, session, 0, royal, cards)
        pass_turn(client, session, 1)


def test_arrive_wins_with_a_diverse_monarchy(as_alice, alice):
    session = rabbits(alice)
    diverse_monarchy_for_ana(as_alice, session)
    play(as_alice, session, "roll", seat=0, dice=[3, 3])
    body = play(as_alice, session, "arrive", seat=0)
    assert body["summary"] == "Ana is back at the Citadel with JH, QS and KD and wins"
    session_data = body["session"]
    assert session_data["status"] == "finished" and session_data["state"]["winner"] == 0
    assert [row["name"] for row in session_data["standings"]] == ["Ana", "Ben"]
    assert session_data["standings"][0]["winner"] is True
    assert session_data["standings"][1]["winner"] is False
    response = as_alice.post(url(session), {"type": "where", "seat": 1, "place": "off"},
                             format="json")
    assert response.status_code == 409
    check_replay(session)


def test_arrive_says_what_is_missing(as_alice, alice):
    session = rabbits(alice)
    refused(as_alice, session, "arrive", "Ana's turn starts with a roll", seat=0)
    audience_turn(as_alice, session, 0, "JH", ["10H"])
    pass_turn(as_alice, session, 1)
    audience_turn(as_alice, session, 0, "QH", ["10H"])
    pass_turn(as_alice, session, 1)
    play(as_alice, session, "roll", seat=0, dice=[3, 3])
    refused(as_alice, session, "arrive", "You need a King: you hold JH and QH", seat=0)
    refused(as_alice, session, "arrive", "It is Ana's turn, not Ben's", seat=1)
    play(as_alice, session, "where", seat=0, place="off")
    refused(as_alice, session, "arrive", "Ana is off the board", seat=0)


@pytest.mark.parametrize("ending, royals, missing", [
    ("simple", ["JH", "QH"], "You need 1 more royal"),
    ("diverse", ["JH", "QH", "KS"], "You need a royal of another suit"),
    ("monarchy", ["JH", "JS", "QD"], "You need a King"),
    ("diverse_monarchy", ["JH", "QH", "KS"], "of 3 different suits"),
    ("tribal", ["JH", "QH", "KS"], "must all be of one suit"),
])
def test_each_ending_refuses_what_falls_short(as_alice, alice, ending, royals, missing):
    session = rabbits(alice, ending=ending)
    for royal in royals:
        audience_turn(as_alice, session, 0, royal, [f"10{royal[-1]}"])
        pass_turn(as_alice, session, 1)
    play(as_alice, session, "roll", seat=0, dice=[3, 3])
    refused(as_alice, session, "arrive", missing, seat=0)


@pytest.mark.parametrize("ending, royals", [
    ("simple", ["JH", "JS", "JD"]), ("diverse", ["JH", "JS", "JD"]),
    ("monarchy", ["JH", "QH", "KS"]), ("tribal", ["JC", "QC", "KC"])])
def test_each_ending_wins_with_what_it_asks(as_alice, alice, ending, royals):
    session = rabbits(alice, ending=ending)
    for royal in royals:
        audience_turn(as_alice, session, 0, royal, [f"10{royal[-1]}"])
        pass_turn(as_alice, session, 1)
    play(as_alice, session, "roll", seat=0, dice=[3, 3])
    assert play(as_alice, session, "arrive", seat=0)["session"]["status"] == "finished"


def test_advanced_citadel_expects_hearts_worth_the_price(as_alice, alice):
    session = rabbits(alice, advanced_citadel=True)
    diverse_monarchy_for_ana(as_alice, session)
    play(as_alice, session, "roll", seat=0, dice=[4, 5])
    refused(as_alice, session, "arrive", "expects hearts worth at least 9", seat=0)
    refused(as_alice, session, "arrive", "9S is not a heart", seat=0, cards=["9S"])
    refused(as_alice, session, "arrive", "8H adds up to 8: the price is 9", seat=0, cards=["8H"])
    refused(as_alice, session, "arrive", "JH is one of the royals brought home", seat=0,
            cards=["JH"])
    body = play(as_alice, session, "arrive", seat=0, cards="AH")
    assert body["summary"].endswith("(hearts at the door: AH(11)=11)")


def test_without_advanced_citadel_nothing_is_paid_at_the_door(as_alice, alice):
    session = rabbits(alice)
    diverse_monarchy_for_ana(as_alice, session)
    play(as_alice, session, "roll", seat=0, dice=[4, 5])
    refused(as_alice, session, "arrive", "leave the cards out", seat=0, cards=["9H"])
    assert play(as_alice, session, "arrive", seat=0, cards="")["session"]["state"]["winner"] == 0


# guests, undo, replay ------------------------------------------------------------------------

def test_a_guest_plays_its_own_turn(alice):
    session = rabbits(alice)
    guest = services.guest_join(code=session.code, seat=1)
    as_ben = api_client(guest=guest)
    play(api_client(user=alice), session, "roll", seat=0, dice=[2, 2])
    body = play(as_ben, session, "roll", seat=1, dice=[5, 1])
    assert body["session"]["state"]["turn"]["seat"] == 1


def test_a_stranger_gets_404(as_charlie, alice):
    session = rabbits(alice)
    response = as_charlie.post(url(session), {"type": "roll", "seat": 0}, format="json")
    assert response.status_code == 404


def test_undo_reopens_a_won_game_and_replays(as_alice, alice):
    session = rabbits(alice)
    diverse_monarchy_for_ana(as_alice, session)
    play(as_alice, session, "roll", seat=0, dice=[3, 3])
    play(as_alice, session, "arrive", seat=0)
    response = as_alice.post(f"/api/sessions/{session.pk}/undo/", format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active" and body["state"]["winner"] is None
    assert body["state"]["turn"]["dice"] == [3, 3]
    check_replay(session)
    assert Session.objects.get(pk=session.pk).results.count() == 0


def test_undo_of_a_server_roll_and_replay_of_a_long_game(as_alice, alice):
    session = rabbits(alice, players=("Ana", "Ben", "Cid"))
    play(as_alice, session, "roll", seat=0)
    play(as_alice, session, "where", seat=2, place="off")
    play(as_alice, session, "roll", seat=1)
    as_alice.post(f"/api/sessions/{session.pk}/undo/", format="json")
    assert state_of(session)["turn"]["seat"] == 0
    play(as_alice, session, "roll", seat=1)
    play(as_alice, session, "roll", seat=2)
    assert state_of(session)["seats"][2]["place"] == "underground"
    check_replay(session)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(RABBITS.moves)),
       st.dictionaries(st.sampled_from(["seat", "thief", "victim", "royal", "returns", "card",
                                        "cards", "suits", "dice", "place"]),
                       st.one_of(st.none(), st.booleans(), st.integers(-2, 12), st.text(max_size=4),
                                 st.lists(st.one_of(st.integers(0, 7), st.text(max_size=3)),
                                          max_size=3))))
def test_what_a_moves_serializer_takes_the_rules_take_or_refuse_with_a_sentence(move_type,
                                                                                  data):
    """The serializer is the one shape check: whatever it lets through, the rules apply or
    refuse with a sentence (RuleViolation), never anything else."""
    try:
        typed = move_payload(game="rabbits", move_type=move_type, fields=data)
    except Refused:
        return
    state = give(give(rolled(new(NAMES)), 1, "QH"), 0, "JS")
    with contextlib.suppress(RuleViolation):
        RABBITS.moves[move_type](state, typed, None, random.Random(1))


@pytest.mark.parametrize("move_type, fields, match, about", [
    ("roll", {"seat": 0, "dice": [0, 3]}, "greater than or equal to 1", "dice"),
    ("roll", {"seat": 0, "dice": [7, 1]}, "less than or equal to 6", "dice"),
    ("roll", {"seat": 0, "dice": [3]}, "at least 2", "dice"),
    ("roll", {"seat": 0, "dice": [3, 4, 5]}, "no more than 2", "dice"),
    ("roll", {"seat": 0, "dice": [True, 2]}, "valid integer", "dice"),
    ("roll", {"seat": 0, "dice": [3.5, 2]}, "valid integer", "dice"),
    ("roll", {"seat": "zero"}, "valid integer", "seat"),
    ("roll", {"seat": True}, "valid integer", "seat"),
    ("roll", {"seat": -1}, "greater than or equal to 0", "seat"),
    ("roll", {}, "required", "seat"),
    ("steal", {"thief": 0, "royal": "KH"}, "required", "victim"),
    ("lottery", {"seat": 0}, "required", "card"),
    ("lottery", {"seat": 0, "card": "1S"}, "is not a card", "card"),
    ("audience", {"seat": 0, "royal": "QX", "cards": ["10H"]}, "is not a card", "royal"),
    ("audience", {"seat": 0, "cards": ["10H"]}, "required", "royal"),
    ("pay", {"seat": 0, "cards": ["5S"], "suits": ["X"]}, "'X' is not a suit", "suits"),
    ("pay", {"seat": 0, "cards": ["5Z"], "suits": ["S"]}, "is not a card", "cards"),
    ("pay", {"seat": 0, "cards": 5, "suits": ["S"]}, "list", "cards"),
    ("steal", {"thief": 0, "victim": 1, "royal": "KH", "returns": "XX"}, "is not a card",
     "returns"),
    ("where", {"seat": 0, "place": "sky"}, "not a valid choice", "place"),
    ("where", {"seat": 0}, "required", "place"),
])
def test_a_moves_shape_is_refused_by_its_serializer(as_alice, alice, move_type, fields, match,
                                                    about):
    session = rabbits(alice)
    play(as_alice, session, "roll", seat=0, dice=[3, 4])
    refused(as_alice, session, move_type, match, code="invalid", about=about, **fields)


def test_suits_and_cards_come_written_as_the_rules_write_them():
    typed = move_payload(game="rabbits", move_type="pay",
                         fields={"seat": 0, "cards": "9s 10h", "suits": ["c", "s", "spades"]})
    assert typed == {"seat": 0, "cards": ["9S", "10H"], "suits": ["C", "S", "S"]}
