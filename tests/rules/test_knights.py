"""Knights & Damosels: pure rule tests (no database, no Django)."""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import SEAT, RuleViolation, move_authority, replay
from games.knights import rules
from games.knights.rules import CHIVALRIES, DAMOSELS, EVENTS, GAME
from tests.rules.texts import watching

# Every refusal these tests meet and every log line and "now" line of every move they play is
# checked as a Text that keeps its values in a translation (tests/rules/texts.py).
watched = watching(GAME)

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


# --- helpers ------------------------------------------------------------------------------------


def new_game(players=4, **options):
    return GAME.setup(NAMES[:players], {**GAME.options, **options}, random.Random(0))


def play(state, move, actor=None, seed=0, **data):
    return GAME.moves[move](state, data, actor, random.Random(seed))


def refused(state, move, match, field=None, actor=None, **data):
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation, match=match) as caught:
        play(state, move, actor=actor, **data)
    assert state == before  # nothing mutated
    if field is not None:
        assert caught.value.field == field
    return caught.value


def revealed(event, players=4, **options):
    """A table-deck game in round 1's knight phase with `event` revealed."""
    return play(new_game(players, deck="table", **options), "reveal_event", event=event)


def grant(state, seat, damosel, chivalry):
    return play(state, "grant", seat=seat, damosel=damosel, chivalry=chivalry)


def next_round(state, event):
    """Close the current round with no placements needed and reveal `event`."""
    if state["resolution"] is None:
        kind = rules.event_kind(state["event"])
        state = play(state, "disaster" if kind == "disaster" else "worship", placements={})
    state = play(state, "end_round")
    return play(state, "reveal_event", event=event)


def with_cards(state, holdings):
    """Give seats cards directly ({seat: [(damosel, chivalry)...]}) to set a scene up fast."""
    state = copy.deepcopy(state)
    for seat, cards in holdings.items():
        for damosel, chivalry in cards:
            rules._give(state, seat, damosel, chivalry)
    return rules._refresh(state)


def card_places(state):
    """(damosel, chivalry) -> seat for every card a knight holds; checks each is in one place."""
    places = {}
    for seat, row in enumerate(state["seats"]):
        for card in row["earned"]:
            key = (card["damosel"], card["chivalry"])
            assert key not in places, f"{key} with two knights"
            places[key] = seat
    return places


def assert_consistent(state):
    places = card_places(state)
    assert sum(len(v) for v in state["cards"].values()) == 54
    for damosel in DAMOSELS:
        for chivalry in CHIVALRIES:
            assert state["cards"][damosel][chivalry] == places.get((damosel, chivalry))
    for seat, row in enumerate(state["seats"]):
        held = [card["chivalry"] for card in row["earned"]]
        assert len(held) == len(set(held)), "a knight holds one card of each chivalry at most"
        assert row["damosel"] not in {card["damosel"] for card in row["earned"]}
        assert set(row["offered"]) <= set(held)
        assert row["worship"] >= 0
        assert row["given_max"] == rules.given_max(state, seat)
    for g in state["granted"]:
        assert places[(g["damosel"], g["chivalry"])] == g["seat"]
    offered = [c for row in state["seats"] for c in row["offered"]]
    assert len(offered) == len(set(offered))
    if state["options"]["deck"] == "app":
        deck = (state["event_deck"] + state["event_discards"] + state["event_choices"]
                + ([state["event"]] if state["event"] else []))
        assert sorted(deck) == sorted(EVENTS)


# --- options and set-up -------------------------------------------------------------------------


def test_defaults_deal_knights_and_damosels_in_order_with_one_worship():
    state = new_game(4)
    assert [s["knight"] for s in state["seats"]] == ["Bors", "Gawain", "Launcelot", "Pelleas"]
    assert [s["damosel"] for s in state["seats"]] == ["Elaine", "Guinevere", "Isolde", "Morgana"]
    assert all(s["worship"] == 1 and s["earned"] == [] and s["victory"] is None
               for s in state["seats"])
    assert (state["round"], state["phase"], state["merlin"], state["arthur"]) == (1, "event", 0, 1)
    assert state["event"] is None and state["event_choices"] == [] and state["victory"] is None
    assert sorted(state["event_deck"]) == sorted(EVENTS)
    assert_consistent(state)
    json.dumps(state)


def test_chosen_roles_knights_and_damosels():
    state = new_game(3, merlin=2, knights=["Tristram", "Bors", "Gawain"],
                     damosels=["Viviane", "Nimue", "Elaine"])
    assert (state["merlin"], state["arthur"]) == (2, 0)  # Arthur sits to Merlin's left
    assert state["seats"][0]["knight"] == "Tristram" and state["seats"][1]["damosel"] == "Nimue"


def test_table_deck_keeps_no_deck():
    assert new_game(deck="table")["event_deck"] == []


@pytest.mark.parametrize("count", [2, 7])
def test_three_to_six_players(count):
    with pytest.raises(RuleViolation, match="3 to 6 players"):
        GAME.check_seat_count(count)


@pytest.mark.parametrize(("options", "field"), [
    ({"deck": "pile"}, "deck"),
    ({"merlin": 4}, "merlin"),
    ({"merlin": -1}, "merlin"),
    ({"merlin": True}, "merlin"),
    ({"merlin": "0"}, "merlin"),
    ({"knights": ["Bors", "Gawain", "Launcelot"]}, "knights"),
    ({"knights": ["Bors", "Gawain", "Launcelot", "Galahad"]}, "knights"),
    ({"knights": ["Bors", "Bors", "Launcelot", "Gawain"]}, "knights"),
    ({"knights": "Bors"}, "knights"),
    ({"damosels": ["Elaine", "Guinevere", "Isolde", "Enid"]}, "damosels"),
    ({"damosels": ["Elaine", "Elaine", "Isolde", "Nimue"]}, "damosels"),
    ({"joust": "yes"}, "joust"),
    ({"events": ["Holy Grail"]}, "events"),
    ({"events": {"Grail": ["honor"]}}, "events"),
    ({"events": {"Holy Grail": []}}, "events"),
    ({"events": {"Holy Grail": "honor"}}, "events"),
    ({"events": {"Holy Grail": ["honour"]}}, "events"),
    ({"events": {"Holy Grail": ["honor", "honor"]}}, "events"),
    ({"events": {"Holy Grail": ["honor", "valor", "loyalty", "armor"]}}, "events"),
])
def test_bad_options_are_refused(options, field):
    with pytest.raises(RuleViolation) as caught:
        GAME.resolve_options(options, 4)
    assert caught.value.field == field


def test_unknown_option_is_refused():
    with pytest.raises(RuleViolation, match="no option"):
        GAME.resolve_options({"camlann": True}, 4)


def test_good_options_pass():
    options = GAME.resolve_options(
        {"deck": "table", "merlin": 5, "joust": False, "knights": list(rules.KNIGHTS),
         "events": {"The Death of Merlin": ["farmer", "fisher", "forester"],
                    "Arthur's Marriage": ["farmer"]}}, 6)
    assert options["merlin"] == 5 and options["damosels"] is None


def test_event_lists_default_and_override():
    state = new_game()
    assert rules.event_list(state, "Holy Grail") == ["honor", "loyalty", "valor", "farmer",
                                                     "fisher", "forester"]
    assert rules.event_list(state, "Siege of Carlion") == ["armor", "horse", "sword", "farmer",
                                                           "fisher", "forester"]
    assert rules.event_list(state, "Excalibur") == CHIVALRIES
    assert rules.event_list(state, "The Adultery") == ["honor", "loyalty", "valor"]
    assert rules.event_list(state, "The Death of Merlin") == ["armor", "horse", "sword"]
    assert rules.event_list(state, "The Treason of Mordred") == ["farmer", "fisher", "forester"]
    state = new_game(events={"The Death of Merlin": ["farmer", "fisher", "forester"]})
    assert rules.event_list(state, "The Death of Merlin") == ["farmer", "fisher", "forester"]


# --- the event phase ----------------------------------------------------------------------------


def test_arthur_draws_three_events_from_the_deck():
    state = play(new_game(), "draw_events", seed=5)
    drawn = state["event_choices"]
    assert len(drawn) == 3 == len(set(drawn)) and state["last"]["drawn"] == drawn
    assert sorted(state["event_deck"] + drawn) == sorted(EVENTS)
    assert state["event_deck"] == sorted(state["event_deck"])  # no hidden order is stored
    assert play(new_game(), "draw_events", seed=5) == state  # the seeded rng decides


def test_draw_refusals():
    refused(new_game(deck="table"), "draw_events", "table keeps its own event deck")
    drawn = play(new_game(), "draw_events")
    refused(drawn, "draw_events", "already drawn")
    knight = play(play(drawn, "pass_events", discard=drawn["event_choices"][0]),
                  "reveal_event", event=drawn["event_choices"][1])
    refused(knight, "draw_events", "already revealed")


def test_arthur_discards_one_and_merlin_reveals_one_of_two():
    state = play(new_game(), "draw_events", seed=3)
    first, second, third = state["event_choices"]
    refused(state, "reveal_event", "Arthur passes them first", event=first)
    wrong = refused(state, "pass_events", "not among Arthur's events", field="discard",
                    discard="Nope")
    refused(state, "pass_events", "needs a discard", field="discard")
    state = play(state, "pass_events", discard=second)
    assert state["event_choices"] == [first, third] and state["event_discards"] == [second]
    refused(state, "pass_events", "draw them first", discard=first)
    wrong_too = refused(state, "reveal_event", "not one of Merlin's 2 events", field="event",
                        event=second)
    # A refusal names none of the hidden events but the one given (the host's phone reads it).
    assert not any(event in str(wrong) for event in (first, second, third))
    assert first not in str(wrong_too) and third not in str(wrong_too)
    state = play(state, "reveal_event", event=third)
    assert state["event"] == third and state["phase"] == "knight"
    assert state["event_choices"] == [] and sorted(state["event_discards"]) == sorted([first,
                                                                                       second])
    refused(state, "reveal_event", "already revealed", event=first)
    assert_consistent(state)


def test_the_event_steps_are_arthurs_and_merlins_and_pass_on_with_the_roles():
    state = new_game(4, merlin=2)  # Dee is Arthur, Cid Merlin
    assert move_authority(GAME, "draw_events", {}, state) == (SEAT, (3,))
    assert rules.awaited(state) == [3]  # the table waits on the seat whose step it is
    assert move_authority(GAME, "pass_events", {"discard": "Excalibur"}, state) == (SEAT, (3,))
    assert move_authority(GAME, "reveal_event", {"event": "Excalibur"}, state) == (SEAT, (2,))
    # A grant names the knight given the card; Merlin, who holds it, grants it.
    assert move_authority(GAME, "grant", {"seat": 0, "damosel": "Isolde",
                                          "chivalry": "honor"}, state) == (SEAT, (2,))
    state = play(play(play(new_game(4, deck="table", merlin=2), "reveal_event",
                           event="Excalibur"), "worship", placements={}), "end_round")
    assert move_authority(GAME, "reveal_event", {"event": "Excalibur"}, state) == (SEAT, (3,))
    assert move_authority(GAME, "draw_events", {}, state) == (SEAT, (0,))


def test_pass_events_needs_a_draw_and_an_app_deck():
    refused(new_game(), "pass_events", "draw them first", discard="Holy Grail")
    refused(new_game(deck="table"), "pass_events", "table keeps", discard="Holy Grail")


def test_table_deck_reveals_any_event_by_name():
    state = play(new_game(deck="table"), "reveal_event", event="The Adultery")
    assert state["event"] == "The Adultery" and state["phase"] == "knight"


def test_the_last_cards_are_drawn_then_the_discards_are_reshuffled():
    state = new_game()
    state["event_deck"] = ["Holy Grail"]
    state["event_discards"] = sorted(set(EVENTS) - {"Holy Grail"})
    state = play(state, "draw_events", seed=9)
    assert state["event_choices"][0] == "Holy Grail" and state["last"]["reshuffled"]
    assert state["event_discards"] == [] and len(state["event_deck"]) == 9
    assert_consistent(state)


def test_an_empty_deck_is_rebuilt_from_the_discards():
    state = new_game()
    state["event_deck"], state["event_discards"] = [], sorted(EVENTS)
    state = play(state, "draw_events")
    assert len(state["event_choices"]) == 3 and len(state["event_deck"]) == 9
    assert state["last"]["reshuffled"]


# --- the knight phase: grants -------------------------------------------------------------------


def test_a_grant_moves_the_card_from_its_damosel_to_the_knight():
    state = grant(revealed("Holy Grail"), 0, "Guinevere", "honor")
    assert state["cards"]["Guinevere"]["honor"] == 0
    assert state["seats"][0]["earned"] == [{"damosel": "Guinevere", "chivalry": "honor"}]
    assert state["granted"] == [{"seat": 0, "damosel": "Guinevere", "chivalry": "honor"}]
    assert state["seats"][1]["given_max"] == 1
    assert_consistent(state)


def test_grant_refused_outside_the_knight_phase():
    refused(new_game(), "grant", "reveal this round's event first", seat=0, damosel="Isolde",
            chivalry="armor")
    state = grant(revealed("Holy Grail"), 0, "Guinevere", "honor")
    served = play(state, "offer", seat=0, chivalry="honor")
    refused(served, "grant", "knight phase is over", seat=1, damosel="Isolde", chivalry="armor")
    placed = play(revealed("Excalibur"), "worship", placements={})
    refused(placed, "grant", "knight phase is over|worship is entered", seat=1,
            damosel="Isolde", chivalry="armor")


def test_grant_refused_when_the_card_is_not_with_its_damosel():
    state = grant(revealed("Holy Grail"), 0, "Guinevere", "honor")
    refused(state, "grant", "not with Guinevere: Ann's Bors holds it", field="chivalry", seat=2,
            damosel="Guinevere", chivalry="honor")


def test_grant_refused_when_the_knight_already_has_that_chivalry():
    state = grant(revealed("Holy Grail"), 0, "Guinevere", "honor")
    state = next_round(state, "Excalibur")
    refused(state, "grant", "Ann's Bors already holds a card of honor", field="chivalry", seat=0,
            damosel="Isolde", chivalry="honor")


def test_grant_refused_for_a_card_of_the_seats_own_damosel():
    refused(revealed("Holy Grail"), "grant", "Elaine, Ann's own damosel", field="damosel",
            seat=0, damosel="Elaine", chivalry="honor")


def test_one_grant_per_seat_per_round():
    state = grant(revealed("Holy Grail"), 0, "Guinevere", "honor")
    refused(state, "grant", "already been granted a card this round", field="seat", seat=0,
            damosel="Isolde", chivalry="armor")
    state = next_round(state, "Excalibur")
    state = grant(state, 0, "Isolde", "armor")  # a new round, a new grant
    assert len(state["seats"][0]["earned"]) == 2


def test_each_damosel_puts_one_card_in_merlins_hand_a_round():
    state = grant(revealed("Holy Grail"), 0, "Guinevere", "honor")
    refused(state, "grant", "Guinevere put only one card", field="damosel", seat=2,
            damosel="Guinevere", chivalry="armor")


def test_at_most_one_card_a_round_from_the_damosels_nobody_plays():
    state = grant(revealed("Holy Grail"), 0, "Nimue", "honor")  # Nimue and Viviane are unused
    refused(state, "grant", "damosels nobody plays", field="damosel", seat=1, damosel="Viviane",
            chivalry="armor")
    state = grant(state, 1, "Isolde", "armor")
    assert len(state["granted"]) == 2


def test_with_six_players_every_damosel_is_played():
    state = revealed("Holy Grail", players=6)
    state = grant(state, 0, "Nimue", "honor")
    state = grant(state, 1, "Viviane", "armor")
    assert len(state["granted"]) == 2


# A move's fields as its serializer writes them (the other shapes are refused there: tests/api).
@pytest.mark.parametrize(("data", "field"), [
    ({"seat": 4, "damosel": "Isolde", "chivalry": "armor"}, "seat"),
    ({"damosel": "Isolde", "chivalry": "armor"}, "seat"),
    ({"seat": 0, "chivalry": "armor"}, "damosel"),
    ({"seat": 0, "damosel": "Isolde"}, "chivalry"),
])
def test_grant_refuses_bad_fields(data, field):
    with pytest.raises(RuleViolation) as caught:
        GAME.moves["grant"](revealed("Holy Grail"), data, None, random.Random(0))
    assert caught.value.field == field


# --- the service phase: offers ------------------------------------------------------------------


def test_the_first_offer_opens_the_service_phase():
    state = grant(revealed("Holy Grail"), 0, "Guinevere", "honor")
    state = play(state, "offer", seat=0, chivalry="honor")
    assert state["phase"] == "service" and state["seats"][0]["offered"] == ["honor"]
    refused(state, "grant", "knight phase is over", seat=1, damosel="Isolde", chivalry="valor")


def test_the_whole_placement_is_the_hosts_while_a_card_is_to_be_placed_face_up_or_down():
    state = play(grant(revealed("Holy Grail"), 0, "Guinevere", "honor"), "offer", seat=0,
                 chivalry="honor")
    assert move_authority(GAME, "worship", {"placements": {}}, state) == ("host", ())
    disaster = grant(revealed("The Adultery"), 0, "Guinevere", "honor")
    assert move_authority(GAME, "disaster", {"placements": {}}, disaster) == ("host", ())
    # Nothing to place (a Prosperity), or no round open: nothing secret, the table's.
    assert move_authority(GAME, "worship", {}, revealed("Excalibur")) == ("table", ())
    assert move_authority(GAME, "worship", {}, new_game()) == ("table", ())


def test_offer_refusals():
    state = with_cards(revealed("Holy Grail"), {0: [("Guinevere", "honor"), ("Isolde", "armor")],
                                                1: [("Isolde", "honor")]})
    refused(state, "offer", "does not list armor", field="chivalry", seat=0, chivalry="armor")
    refused(state, "offer", "Cid's Launcelot holds no valor", field="chivalry", seat=2,
            chivalry="valor")
    served = play(state, "offer", seat=0, chivalry="honor")
    refused(served, "offer", "Ann's Bors has already offered honor", field="chivalry", seat=1,
            chivalry="honor")
    refused(served, "offer", "already offered honor", seat=0, chivalry="honor")
    refused(served, "offer", "no seat 9", field="seat", seat=9, chivalry="honor")


def test_offer_refused_on_a_disaster_and_outside_the_phases():
    state = with_cards(revealed("The Adultery"), {0: [("Guinevere", "honor")]})
    refused(state, "offer", "is a Disaster", seat=0, chivalry="honor")
    refused(new_game(), "offer", "reveal this round's event first", seat=0, chivalry="honor")
    state = with_cards(revealed("Excalibur"), {0: [("Guinevere", "honor")]})
    placed = play(state, "worship", placements={})
    refused(placed, "offer", "worship is entered", seat=0, chivalry="honor")


def test_event_override_changes_what_may_be_offered():
    state = with_cards(revealed("Holy Grail", events={"Holy Grail": ["honor"]}),
                       {0: [("Guinevere", "farmer"), ("Isolde", "honor")]})
    refused(state, "offer", "does not list farmer", seat=0, chivalry="farmer")
    assert play(state, "offer", seat=0, chivalry="honor")["seats"][0]["offered"] == ["honor"]


# --- the worship arithmetic ---------------------------------------------------------------------

# Written by hand from the spec, independent of the code: the points of the Arms/Virtue cards in
# the order they are given, and what each offered Vassalage card earns beside them.
SHARE_TABLE = {
    ("up",): ([6], 1),
    ("down",): ([5], 0),
    ("up", "up"): ([3, 3], 1),
    ("up", "down"): ([2, 4], 1),
    ("down", "up"): ([4, 2], 1),
    ("down", "down"): ([2, 2], 0),
    ("up", "up", "up"): ([2, 2, 2], 1),
    ("up", "up", "down"): ([1, 1, 4], 1),
    ("up", "down", "up"): ([1, 4, 1], 1),
    ("down", "up", "up"): ([4, 1, 1], 1),
    ("up", "down", "down"): ([4, 1, 1], 1),
    ("down", "up", "down"): ([1, 4, 1], 1),
    ("down", "down", "up"): ([1, 1, 4], 1),
    ("down", "down", "down"): ([1, 1, 1], 0),
}


def test_the_table_covers_every_face_combination():
    assert set(SHARE_TABLE) == {faces for n in (1, 2, 3)
                                for faces in itertools.product(("up", "down"), repeat=n)}


@pytest.mark.parametrize("faces", sorted(SHARE_TABLE))
@pytest.mark.parametrize("vassals", [0, 1, 2, 3])
@pytest.mark.parametrize("bonus", ["none", "shared", "vassal"])
@pytest.mark.parametrize(("kind", "shared"), [("war", rules.ARMS), ("quest", rules.VIRTUES)])
def test_war_and_quest_points_against_the_table(faces, vassals, bonus, kind, shared):
    shared_points, vassal_points = SHARE_TABLE[faces]
    cards = [(shared[i], face) for i, face in enumerate(faces)]
    cards += [(rules.VASSALAGE[i], None) for i in range(vassals)]
    expected = list(shared_points) + [vassal_points] * vassals
    bonus_chivalry = None
    if bonus == "shared":
        bonus_chivalry = shared[len(faces) - 1]  # the event's own card: the last Arms/Virtue
        expected[len(faces) - 1] += 1
    elif bonus == "vassal" and vassals:
        bonus_chivalry = "forester" if vassals == 3 else "farmer"
        expected[len(faces) + (2 if vassals == 3 else 0)] += 1
    elif bonus == "vassal":
        bonus_chivalry = "farmer"  # listed but not offered: no one earns it
    assert rules.offer_points(kind, bonus_chivalry, cards) == expected


@pytest.mark.parametrize("vassals", [1, 2, 3])
def test_vassalage_alone_earns_one_each(vassals):
    cards = [(rules.VASSALAGE[i], None) for i in range(vassals)]
    assert rules.offer_points("war", None, cards) == [1] * vassals
    assert rules.offer_points("war", "farmer", cards) == [2] + [1] * (vassals - 1)


def test_prosperity_pays_one_per_card_and_one_more_for_the_events_own():
    cards = [("armor", None), ("farmer", None), ("honor", None), ("fisher", None)]
    assert rules.offer_points("prosperity", "fisher", cards) == [1, 1, 1, 2]
    assert rules.offer_points("prosperity", "forester", cards) == [1, 1, 1, 1]
    assert rules.offer_points("prosperity", None, []) == []


def quest_scene():
    """Holy Grail: Ann offers honor, Bob loyalty, Cid valor, Dee farmer."""
    state = with_cards(revealed("Holy Grail"), {
        0: [("Guinevere", "honor")], 1: [("Isolde", "loyalty")], 2: [("Morgana", "valor")],
        3: [("Elaine", "farmer")]})
    for seat, chivalry in enumerate(["honor", "loyalty", "valor", "farmer"]):
        state = play(state, "offer", seat=seat, chivalry=chivalry)
    return state


def test_worship_move_applies_the_war_and_quest_arithmetic():
    state = play(quest_scene(), "worship",
                 placements={"0": {"honor": "down"}, "1": {"loyalty": "up"},
                             "2": {"valor": "up"}})
    # one down: honor takes 1 from each up card (2+2=4), +1 for Holy Grail's honor
    assert [s["worship"] for s in state["seats"]] == [1 + 5, 1 + 1, 1 + 1, 1 + 1]
    assert state["phase"] == "worship" and state["resolution"]["change"] == [5, 1, 1, 1]
    assert [c["points"] for c in state["resolution"]["cards"]] == [5, 1, 1, 1]
    assert_consistent(state)


def test_all_face_down_costs_every_card_one():
    state = play(quest_scene(), "worship",
                 placements={"0": {"honor": "down"}, "1": {"loyalty": "down"},
                             "2": {"valor": "down"}})
    assert [s["worship"] for s in state["seats"]] == [1 + 2, 1 + 1, 1 + 1, 1 + 0]


def test_prosperity_worship_needs_no_placement():
    state = with_cards(revealed("Excalibur"), {0: [("Guinevere", "fisher")],
                                               1: [("Isolde", "armor")]})
    state = play(state, "offer", seat=0, chivalry="fisher")
    state = play(state, "offer", seat=1, chivalry="armor")
    refused(state, "worship", "Ann has no fisher card to place", field="placements",
            placements={"0": {"fisher": "up"}})
    state = play(state, "worship")
    assert [s["worship"] for s in state["seats"]] == [3, 2, 1, 1]


def test_worship_refusals():
    state = quest_scene()
    refused(state, "worship", "Bob must still place loyalty", field="placements",
            placements={"0": {"honor": "down"}, "2": {"valor": "up"}})
    refused(state, "worship", "Dee has no farmer card to place", field="placements",
            placements={"0": {"honor": "up"}, "1": {"loyalty": "up"}, "2": {"valor": "up"},
                        "3": {"farmer": "up"}})
    refused(state, "worship", "no seat", field="placements",
            placements={"7": {"honor": "up"}})
    refused(state, "worship", "Ann must still place honor", placements={})
    refused(revealed("The Adultery"), "worship", "is a Disaster", placements={})
    refused(new_game(), "worship", "reveal this round's event first", placements={})
    done = play(revealed("Excalibur"), "worship", placements={})
    refused(done, "worship", "worship is entered", placements={})


def test_worship_placements_take_integer_seat_keys_too():
    state = play(quest_scene(), "worship",
                 placements={0: {"honor": "up"}, 1: {"loyalty": "up"}, 2: {"valor": "up"}})
    assert state["resolution"]["placements"] == {"0": {"honor": "up"}, "1": {"loyalty": "up"},
                                                 "2": {"valor": "up"}}


def test_preview_is_pure_and_matches_the_move():
    state = quest_scene()
    placements = {"0": {"honor": "up"}, "1": {"loyalty": "down"}, "2": {"valor": "down"}}
    before = copy.deepcopy(state)
    preview = rules.worship_preview(state, placements)
    assert state == before
    assert play(state, "worship", placements=placements)["resolution"] == preview


# --- disasters ----------------------------------------------------------------------------------


def adultery_scene():
    """The Adultery: Ann holds honor and loyalty, Bob valor, Cid honor; Dee holds nothing."""
    return with_cards(revealed("The Adultery"), {
        0: [("Guinevere", "honor"), ("Isolde", "loyalty")], 1: [("Isolde", "valor")],
        2: [("Morgana", "honor")]})


def test_disaster_majority_returns_and_minority_pays_two():
    state = adultery_scene()
    state["seats"][0]["worship"] = 5
    assert rules.required_placements(state) == {"0": ["honor", "loyalty"], "1": ["valor"],
                                                "2": ["honor"]}
    state = play(state, "disaster", placements={"0": {"honor": "up", "loyalty": "down"},
                                                "1": {"valor": "up"}, "2": {"honor": "up"}})
    assert state["cards"]["Guinevere"]["honor"] is None
    assert state["cards"]["Isolde"]["valor"] is None and state["cards"]["Morgana"]["honor"] is None
    assert state["seats"][0]["earned"] == [{"damosel": "Isolde", "chivalry": "loyalty"}]
    assert [s["worship"] for s in state["seats"]] == [3, 1, 1, 1]
    assert state["resolution"]["majority"] == "up"
    assert_consistent(state)


def test_disaster_loss_takes_only_what_there_is():
    state = play(adultery_scene(), "disaster",
                 placements={"0": {"honor": "down", "loyalty": "down"}, "1": {"valor": "down"},
                             "2": {"honor": "up"}})
    assert [s["worship"] for s in state["seats"]] == [1, 1, 0, 1]
    assert state["cards"]["Morgana"]["honor"] == 2  # the minority card stays


def test_disaster_equal_counts_change_nothing():
    state = adultery_scene()
    after = play(state, "disaster", placements={"0": {"honor": "down", "loyalty": "down"},
                                                "1": {"valor": "up"}, "2": {"honor": "up"}})
    assert after["seats"] == state["seats"] and after["cards"] == state["cards"]
    assert after["resolution"]["majority"] is None


def test_disaster_with_no_listed_cards_is_entered_empty():
    state = play(revealed("The Death of Merlin"), "disaster", placements={})
    assert state["resolution"]["up"] == 0 and state["phase"] == "worship"


def test_disaster_refusals():
    state = adultery_scene()
    refused(state, "disaster", "Cid must still place honor", field="placements",
            placements={"0": {"honor": "up", "loyalty": "up"}, "1": {"valor": "up"}})
    refused(state, "disaster", "Dee has no honor card", field="placements",
            placements={"0": {"honor": "up", "loyalty": "up"}, "1": {"valor": "up"},
                        "2": {"honor": "up"}, "3": {"honor": "up"}})
    refused(quest_scene(), "disaster", "not a Disaster", placements={})


def test_disaster_override_lists_vassalage():
    state = with_cards(revealed("The Death of Merlin",
                                events={"The Death of Merlin": ["farmer", "fisher", "forester"]}),
                       {0: [("Guinevere", "farmer"), ("Isolde", "armor")]})
    assert rules.required_placements(state) == {"0": ["farmer"]}


def test_a_disaster_in_the_knight_phase_returns_a_card_granted_this_round():
    state = grant(revealed("The Adultery"), 0, "Guinevere", "honor")
    state = play(state, "disaster", placements={"0": {"honor": "up"}})
    assert state["granted"] == [] and state["seats"][0]["earned"] == []
    assert_consistent(state)


# --- the joust ----------------------------------------------------------------------------------


def knight_joust_scene(**options):
    """Ann was granted Guinevere's honor in the knight phase; Cid wants it."""
    return grant(revealed("Holy Grail", **options), 0, "Guinevere", "honor")


def joust(state, cards, holder=0, challenger=2, chivalry="honor", damosel="Guinevere"):
    return play(state, "joust", holder=holder, challenger=challenger, chivalry=chivalry,
                damosel=damosel, cards=cards)


def test_a_different_first_pair_keeps_the_card_and_takes_one_worship():
    state = joust(knight_joust_scene(), ["different"])
    assert state["cards"]["Guinevere"]["honor"] == 0
    assert [s["worship"] for s in state["seats"]] == [2, 1, 0, 1]
    assert state["joust"]["losers"] == [2] and state["joust"]["challenged"] == ["Guinevere:honor"]


def test_similar_then_different_gives_the_card_to_the_challenger():
    state = joust(knight_joust_scene(), ["similar", "different"])
    assert state["cards"]["Guinevere"]["honor"] == 2
    assert state["granted"] == [{"seat": 2, "damosel": "Guinevere", "chivalry": "honor"}]
    assert state["seats"][0]["earned"] == []
    assert [s["worship"] for s in state["seats"]] == [0, 1, 2, 1]
    assert_consistent(state)
    # the loser may make another grant, but not joust again this phase
    again = grant(state, 0, "Isolde", "valor")
    assert again["seats"][0]["earned"] == [{"damosel": "Isolde", "chivalry": "valor"}]
    refused(grant(again, 3, "Nimue", "armor"), "joust", "lost a joust", field="challenger",
            holder=3, challenger=0, chivalry="armor", damosel="Nimue", cards=["declined"])


def test_a_decline_passes_the_right_with_no_worship():
    state = joust(knight_joust_scene(), ["declined"])
    assert state["cards"]["Guinevere"]["honor"] == 2
    assert [s["worship"] for s in state["seats"]] == [1, 1, 1, 1]
    state = joust(knight_joust_scene(), ["similar", "declined"])
    assert state["cards"]["Guinevere"]["honor"] == 0
    state = joust(knight_joust_scene(), ["similar", "similar", "different"])
    assert state["cards"]["Guinevere"]["honor"] == 0
    assert [s["worship"] for s in state["seats"]] == [2, 1, 0, 1]


def test_a_loser_with_no_worship_pays_nothing():
    state = knight_joust_scene()
    state["seats"][0]["worship"] = 0
    state = joust(state, ["similar", "different"])
    assert [s["worship"] for s in state["seats"]] == [0, 1, 1, 1]
    assert state["cards"]["Guinevere"]["honor"] == 2


def test_joust_refusals():
    state = knight_joust_scene()
    refused(knight_joust_scene(joust=False), "joust", "joust rule is off", holder=0,
            challenger=2, chivalry="honor", damosel="Guinevere", cards=["different"])
    refused(new_game(), "joust", "reveal this round's event first", holder=0, challenger=2,
            chivalry="honor", damosel="Guinevere", cards=["different"])
    refused(state, "joust", "himself", field="challenger", holder=0, challenger=0,
            chivalry="honor", damosel="Guinevere", cards=["different"])
    refused(state, "joust", "was not granted Isolde's honor", field="holder", holder=0,
            challenger=2, chivalry="honor", damosel="Isolde", cards=["different"])
    refused(state, "joust", "Ann's Bors was not granted a card of valor", field="holder", holder=0,
            challenger=2, chivalry="valor", cards=["different"])
    refused(state, "joust", "own damosel", field="damosel", holder=0, challenger=1,
            chivalry="honor", damosel="Guinevere", cards=["different"])
    poor = copy.deepcopy(state)
    poor["seats"][2]["worship"] = 0
    refused(poor, "joust", "at least 1 worship", field="challenger", holder=0, challenger=2,
            chivalry="honor", damosel="Guinevere", cards=["different"])
    holding = with_cards(state, {2: [("Morgana", "honor")]})
    refused(holding, "joust", "already holds a card of honor", holder=0, challenger=2,
            chivalry="honor", damosel="Guinevere", cards=["different"])
    granted = grant(state, 2, "Nimue", "armor")
    refused(granted, "joust", "already been granted", holder=0, challenger=2, chivalry="honor",
            damosel="Guinevere", cards=["different"])
    once = joust(state, ["different"])
    refused(once, "joust", "already challenged in this phase", field="chivalry", holder=0,
            challenger=3, chivalry="honor", damosel="Guinevere", cards=["different"])


@pytest.mark.parametrize("cards", [["similar"], ["different", "similar"],
                                   ["declined", "different"], ["similar", "similar"]])
def test_joust_cards_must_be_similar_pairs_then_an_end(cards):
    refused(knight_joust_scene(), "joust", "joust", field="cards", holder=0, challenger=2,
            chivalry="honor", damosel="Guinevere", cards=cards)


def test_a_service_joust_moves_the_offer():
    state = with_cards(revealed("Holy Grail"), {0: [("Guinevere", "honor")],
                                                2: [("Morgana", "honor")]})
    state = play(state, "offer", seat=0, chivalry="honor")
    refused(state, "joust", "has not offered valor", field="holder", holder=0, challenger=2,
            chivalry="valor", cards=["declined"])
    refused(state, "joust", "Bob's Gawain holds no honor", field="chivalry", holder=0,
            challenger=1, chivalry="honor", cards=["declined"])
    state = play(state, "joust", holder=0, challenger=2, chivalry="honor", cards=["declined"])
    assert state["seats"][0]["offered"] == [] and state["seats"][2]["offered"] == ["honor"]
    assert_consistent(state)


def test_the_joust_bookkeeping_starts_again_in_the_service_phase():
    state = joust(knight_joust_scene(), ["similar", "declined"])  # Cid lost the knight phase's
    state = with_cards(state, {2: [("Morgana", "loyalty")], 1: [("Isolde", "loyalty")]})
    state = play(state, "offer", seat=1, chivalry="loyalty")
    assert state["joust"] == {"phase": "service", "challenged": [], "losers": []}
    state = play(state, "joust", holder=1, challenger=2, chivalry="loyalty", cards=["declined"])
    assert state["seats"][2]["offered"] == ["loyalty"]


def test_no_joust_once_the_worship_is_entered():
    state = play(quest_scene(), "worship",
                 placements={"0": {"honor": "up"}, "1": {"loyalty": "up"}, "2": {"valor": "up"}})
    refused(state, "joust", "worship is entered", holder=0, challenger=2, chivalry="honor",
            cards=["declined"])


# --- sealed choices -----------------------------------------------------------------------------

QUEST_FACES = {"0": {"honor": "down"}, "1": {"loyalty": "up"}, "2": {"valor": "down"}}


def test_seals_are_hidden_until_the_last_applies_the_worship():
    state = quest_scene()
    assert rules.awaited(state) == []  # offering: any knight's
    state = play(state, "seal", actor=0, seat=0, placements=QUEST_FACES["0"])
    assert state["phase"] == "worship" and state["resolution"] is None
    assert rules.awaited(state) == [1, 2]  # the seats yet to seal
    assert state["sealed"] == {"0": {"honor": "down"}}
    refused(state, "offer", "No offer now", seat=3, chivalry="fisher")
    state = play(state, "seal", actor=1, seat=1, placements=QUEST_FACES["1"])
    assert state["last"] == {"type": "seal", "seat": 1}  # whose seal, never its faces
    assert rules.redact(state, 0)["sealed"] == {"0": {"honor": "down"}, "1": {"sealed": True}}
    assert rules.redact(state, 1)["sealed"] == {"0": {"sealed": True}, "1": {"loyalty": "up"}}
    assert rules.redact(state, None)["sealed"] == {"0": {"sealed": True}, "1": {"sealed": True}}
    assert rules.redact(state, 3)["sealed"] == {"0": {"sealed": True}, "1": {"sealed": True}}
    assert state["sealed"]["0"] == {"honor": "down"}  # redact copies
    refused(state, "end_round", "Cid must still seal")
    last = play(state, "seal", actor=2, seat=2, placements=QUEST_FACES["2"])
    whole = play(quest_scene(), "worship", placements=QUEST_FACES)
    assert last["sealed"] == {} and last["resolution"] == whole["resolution"]
    assert last["seats"] == whole["seats"] and last["cards"] == whole["cards"]
    assert rules.redact(last, None) == last


def test_redact_move_hides_other_seats_seals_while_pending():
    state = play(quest_scene(), "seal", actor=0, seat=0, placements=QUEST_FACES["0"])
    move = {"seq": 9, "type": "seal", "data": {"seat": 0, "placements": {"honor": "down"}},
            "actor": 0}
    assert GAME.redact_move(move, state, 0) == move
    hidden = GAME.redact_move(move, state, 1)
    assert hidden["data"] == {"seat": 0, "placements": {"sealed": True}} and hidden["seq"] == 9
    assert GAME.redact_move(move, state, None)["data"]["placements"] == {"sealed": True}
    assert move["data"]["placements"] == {"honor": "down"}  # not mutated
    other = {"type": "offer", "data": {"seat": 0, "chivalry": "honor"}}
    assert GAME.redact_move(other, state, 1) == other
    done = play(play(state, "seal", seat=1, placements=QUEST_FACES["1"]), "seal", seat=2,
                placements=QUEST_FACES["2"])
    assert GAME.redact_move(move, done, 1) == move


def test_redact_move_hides_an_undone_seal_for_good():
    # After an undo the seat has no seal pending, yet its retracted faces must stay unseen.
    state = quest_scene()
    move = {"seq": 9, "type": "seal", "data": {"seat": 0, "placements": {"honor": "down"}},
            "undone": True}
    assert GAME.redact_move(move, state, 1)["data"]["placements"] == {"sealed": True}
    assert GAME.redact_move(move, state, None)["data"]["placements"] == {"sealed": True}
    assert GAME.redact_move(move, state, 0) == move


def test_seal_refusals():
    state = quest_scene()
    refused(state, "seal", "Only Ann's own phone", field="seat", actor=1, seat=0,
            placements={"honor": "up"})
    refused(state, "seal", "Dee has nothing to place", field="seat", seat=3,
            placements={"farmer": "up"})
    refused(state, "seal", "Ann must still place honor", field="placements", seat=0,
            placements={})
    refused(state, "seal", "Ann has no valor card", field="placements", seat=0,
            placements={"honor": "up", "valor": "up"})
    refused(state, "seal", "needs a placements", field="placements", seat=0)
    refused(revealed("Excalibur"), "seal", "Prosperity", seat=0, placements={})
    refused(new_game(), "seal", "reveal this round's event first", seat=0, placements={})
    done = play(state, "worship", placements=QUEST_FACES)
    refused(done, "seal", "worship is entered", seat=0, placements={"honor": "up"})


def test_the_host_seals_for_a_seat_without_a_phone_and_a_seal_is_final():
    state = play(quest_scene(), "seal", actor=None, seat=0, placements={"honor": "up"})
    assert state["sealed"] == {"0": {"honor": "up"}}
    for actor in (0, None):  # neither the seat's phone nor the host changes it
        refused(state, "seal", "Ann has sealed already: a sealed choice is final",
                field="seat", actor=actor, seat=0, placements={"honor": "down"})


def test_the_hosts_whole_placement_takes_the_seals_as_they_stand():
    state = play(quest_scene(), "seal", actor=0, seat=0, placements={"honor": "up"})
    # The host's faces for Ann (sealed) are not used; the other seats' are.
    state = play(state, "worship", placements=QUEST_FACES)
    assert state["sealed"] == {} and state["resolution"]["placements"]["0"] == {"honor": "up"}
    for key, faces in QUEST_FACES.items():
        if key != "0":
            assert state["resolution"]["placements"][key] == faces


def test_the_hosts_whole_placement_may_leave_out_the_sealed_seats():
    state = play(quest_scene(), "seal", actor=0, seat=0, placements={"honor": "up"})
    rest = {key: faces for key, faces in QUEST_FACES.items() if key != "0"}
    state = play(state, "worship", placements=rest)
    assert state["resolution"]["placements"]["0"] == {"honor": "up"}


def test_a_preview_takes_a_seal_it_may_see_as_sealed_and_gives_none_for_a_hidden_one():
    state = play(quest_scene(), "seal", actor=0, seat=0, placements={"honor": "down"})
    rest = {key: faces for key, faces in QUEST_FACES.items() if key != "0"}
    # Ann's phone sees her own seal: the preview is what the worship will do, her honor down
    # whatever the form says (the host's form leaves her out).
    own = rules.worship_preview(rules.redact(state, 0), {**rest, "0": {"honor": "up"}})
    assert own == play(state, "worship", placements=rest)["resolution"]
    assert own["placements"]["0"] == {"honor": "down"}
    # The host's phone may not see it: no preview, rather than one that counts it face up.
    for viewer in (None, 1):
        with pytest.raises(RuleViolation) as refusal:
            rules.worship_preview(rules.redact(state, viewer), {**rest, "0": {"honor": "up"}})
        assert "the faces Ann sealed stay hidden" in str(refusal.value.message)
    assert rules.hidden_seals(rules.redact(state, None)) == [0]
    assert rules.hidden_seals(state) == []


def test_disaster_seals_apply_the_disaster():
    state = adultery_scene()
    faces = {"0": {"honor": "up", "loyalty": "down"}, "1": {"valor": "up"},
             "2": {"honor": "up"}}
    sealed = state
    for seat in ("2", "0", "1"):
        sealed = play(sealed, "seal", actor=int(seat), seat=int(seat), placements=faces[seat])
    whole = play(state, "disaster", placements=faces)
    assert sealed["resolution"] == whole["resolution"] and sealed["seats"] == whole["seats"]
    line = GAME.summary({"type": "seal", "data": {"seat": 1, "placements": faces["1"]}},
                        state, sealed)
    assert "all are in" in line and "The Adultery" in line


def test_a_seal_summary_does_not_tell_the_faces():
    after = play(quest_scene(), "seal", actor=0, seat=0, placements={"honor": "down"})
    line = GAME.summary({"type": "seal", "data": {"seat": 0, "placements": {"honor": "down"}}},
                        quest_scene(), after)
    assert line == "Ann sealed a placement"


# --- the end of the round and victory -----------------------------------------------------------


def test_end_round_passes_arthur_and_merlin_and_clears_the_round():
    state = play(new_game(merlin=3), "draw_events")
    choices = state["event_choices"]
    state = play(play(state, "pass_events", discard=choices[0]), "reveal_event", event=choices[1])
    state = grant(state, 0, "Guinevere", "farmer")
    if rules.event_kind(state["event"]) == "disaster":
        needed = rules.required_placements(state)
        state = play(state, "disaster",
                     placements={k: dict.fromkeys(v, "up") for k, v in needed.items()})
    else:
        state = play(state, "worship", placements={})
    state = play(state, "end_round")
    assert (state["round"], state["phase"], state["merlin"], state["arthur"]) == (2, "event", 0, 1)
    assert state["event"] is None and state["granted"] == [] and state["resolution"] is None
    assert choices[1] in state["event_discards"]
    assert all(s["offered"] == [] for s in state["seats"])
    assert_consistent(state)


def test_end_round_refused_before_the_worship():
    refused(new_game(), "end_round", "reveal its event first")
    refused(quest_scene(), "end_round", "enter its worship")


def knight_victory_scene():
    """Ann's Bors holds 6 cards; a Prosperity round grants the seventh."""
    cards = [("Guinevere", "armor"), ("Isolde", "horse"), ("Morgana", "sword"),
             ("Guinevere", "honor"), ("Isolde", "loyalty"), ("Morgana", "valor")]
    return with_cards(revealed("Excalibur"), {0: cards})


def test_the_game_ends_after_the_round_in_which_a_condition_is_met():
    state = grant(knight_victory_scene(), 0, "Nimue", "farmer")
    assert state["seats"][0]["victory"] == "knight" and not GAME.finished(state)
    state = play(play(state, "worship", placements={}), "end_round")
    assert GAME.finished(state) and state["phase"] == "finished"
    assert state["victory"]["winner"] == 0 and state["victory"]["class"] == "knight"
    rows = GAME.standings(state)
    assert rows[0]["seat"] == 0 and rows[0]["winner"] and rows[0]["rank"] == 1
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]  # the lot ordered the three others
    assert sum(r["winner"] for r in rows) == 1
    assert "Ann wins (knight victory)" in GAME.summary({"type": "end_round", "data": {}},
                                                       state, state)


def test_damosel_victory_needs_five_cards_with_one_knight_at_four_players():
    given = [("Elaine", c) for c in ["armor", "horse", "sword", "honor"]]
    state = with_cards(revealed("Excalibur"), {1: given})
    assert state["seats"][0]["given_max"] == 4 and state["seats"][0]["victory"] is None
    state = grant(state, 1, "Elaine", "valor")
    assert state["seats"][0]["given_max"] == 5 and state["seats"][0]["victory"] == "damosel"


def test_damosel_victory_needs_four_at_five_players():
    given = [("Elaine", c) for c in ["armor", "horse", "sword", "honor"]]
    state = with_cards(revealed("Excalibur", players=5), {1: given})
    assert state["seats"][0]["victory"] == "damosel"


@pytest.mark.parametrize(("players", "needed"), [(3, 30), (4, 22), (5, 18), (6, 15)])
def test_worship_victory_thresholds(players, needed):
    state = revealed("Excalibur", players=players)
    state["seats"][1]["worship"] = needed - 1
    assert rules.victory_class(state, 1) is None
    state["seats"][1]["worship"] = needed
    assert rules.victory_class(state, 1) == "worship"
    state = play(play(state, "worship", placements={}), "end_round")
    assert state["victory"]["winner"] == 1 and state["victory"]["class"] == "worship"


def test_no_victory_means_the_next_round():
    state = play(play(revealed("Excalibur"), "worship", placements={}), "end_round")
    assert not GAME.finished(state) and state["victory"] is None


def worked_example():
    """Rule card 3: Launcelot 5 given, 6 earned, 12 worship; Gawain 5, 6, 10; Bors 4, 7, 14;
    Percival (the card's Galahad) 3, 7, 15."""
    state = revealed("Excalibur", knights=["Launcelot", "Gawain", "Bors", "Percival"],
                     damosels=["Elaine", "Guinevere", "Isolde", "Morgana"])
    first5 = ["armor", "horse", "sword", "honor", "loyalty"]
    state = with_cards(state, {
        0: [("Isolde", c) for c in first5[:4]] + [("Viviane", "loyalty"), ("Viviane", "valor")],
        1: [("Morgana", c) for c in first5[:3]] + [("Viviane", c) for c in
                                                   ("honor", "farmer", "fisher")],
        2: [("Elaine", c) for c in first5] + [("Nimue", "valor"), ("Nimue", "farmer")],
        3: [("Guinevere", c) for c in first5] + [("Nimue", "fisher"), ("Nimue", "forester")],
    })
    for row, worship in zip(state["seats"], [12, 10, 14, 15], strict=True):
        row["worship"] = worship
    return rules._refresh(state)


def test_the_worked_example_tie_break():
    state = worked_example()
    got = [(r["given_max"], len(r["earned"]), r["worship"], r["victory"])
           for r in state["seats"]]
    assert got == [(5, 6, 12, "damosel"), (5, 6, 10, "damosel"), (4, 7, 14, "knight"),
                   (3, 7, 15, "knight")]
    assert_consistent(state)
    before = GAME.standings(state)
    assert [r["seat"] for r in before] == [0, 1, 2, 3] and not any(r["winner"] for r in before)
    state = play(play(state, "worship", placements={}), "end_round")
    rows = GAME.standings(state)
    assert [GAME_knight(state, r["seat"]) for r in rows] == ["Launcelot", "Gawain", "Bors",
                                                             "Percival"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["winner"] and not any(r["winner"] for r in rows[1:])
    assert state["victory"]["lots"] == [] and state["victory"]["met"] == [0, 1, 2, 3]


def GAME_knight(state, seat):  # noqa: N802 - reads as the knight's name in the assertion
    return state["seats"][seat]["knight"]


def test_a_tie_left_is_drawn_by_lot_and_recorded():
    state = revealed("Excalibur")
    state["seats"][1]["worship"] = state["seats"][2]["worship"] = 22
    before = GAME.standings(state)
    assert [(r["seat"], r["rank"]) for r in before] == [(1, 1), (2, 1), (0, 3), (3, 3)]
    state = play(state, "worship", placements={})
    ends = {tuple(play(state, "end_round", seed=s)["victory"]["order"][:2]) for s in range(20)}
    assert ends == {(1, 2), (2, 1)}  # the lot decides, seeded
    end = play(state, "end_round", seed=1)
    lots = end["victory"]["lots"]
    assert lots[0]["seats"] == [1, 2] and sorted(lots[0]["drawn"]) == [1, 2]
    assert end["last"]["lots"] == lots
    rows = GAME.standings(end)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4] and sum(r["winner"] for r in rows) == 1
    line = GAME.summary({"type": "end_round", "data": {}}, state, end)
    assert "lot among Bob, Cid" in line
    assert play(state, "end_round", seed=1) == end


def test_ranking_keys_order():
    state = worked_example()
    assert rules.rank_keys(state, 0) == (3, 5, 6, 12)
    assert rules.rank_keys(state, 3) == (2, 3, 7, 15)


# --- summaries ----------------------------------------------------------------------------------


def test_summaries_name_the_seats_and_the_arithmetic():
    state = play(new_game(), "draw_events", seed=2)
    choices = state["event_choices"]
    line = GAME.summary({"type": "draw_events", "data": {}}, new_game(), state)
    assert line == "Bob (Arthur) drew 3 events"  # which: Arthur's alone
    passed = play(state, "pass_events", discard=choices[0])
    assert GAME.summary({"type": "pass_events", "data": {"discard": choices[0]}}, state,
                        passed) == "Bob (Arthur) discarded one event and passed 2 to Merlin"
    shown = play(revealed("Holy Grail"), "grant", seat=0, damosel="Guinevere", chivalry="honor")
    assert GAME.summary({"type": "reveal_event", "data": {"event": "Holy Grail"}}, new_game(),
                        revealed("Holy Grail")).startswith("Ann (Merlin) revealed Holy Grail")
    assert GAME.summary({"type": "grant", "data": {"seat": 0, "damosel": "Guinevere",
                                                   "chivalry": "honor"}}, revealed("Holy Grail"),
                        shown) == "Ann's Bors was granted a card of honor"
    offered = play(shown, "offer", seat=0, chivalry="honor")
    assert GAME.summary({"type": "offer", "data": {"seat": 0, "chivalry": "honor"}}, shown,
                        offered) == "Ann's Bors offered honor"
    worshipped = play(quest_scene(), "worship", placements=QUEST_FACES)
    line = GAME.summary({"type": "worship", "data": {}}, quest_scene(), worshipped)
    assert line.startswith("Worship for Holy Grail: Ann +") and "honor down" in line
    jousted = joust(knight_joust_scene(), ["similar", "different"])
    line = GAME.summary({"type": "joust", "data": {}}, knight_joust_scene(), jousted)
    assert line == ("Cid challenged Ann for the honor granted to Ann (similar, different): Cid "
                    "gets it, taking 1 worship from Ann")
    disaster = play(adultery_scene(), "disaster",
                    placements={"0": {"honor": "up", "loyalty": "down"}, "1": {"valor": "up"},
                                "2": {"honor": "up"}})
    line = GAME.summary({"type": "disaster", "data": {}}, adultery_scene(), disaster)
    assert line.startswith("The Adultery: 3 up, 1 down") and "Ann -1" in line
    ended = play(play(revealed("Excalibur"), "worship", placements={}), "end_round")
    assert GAME.summary({"type": "end_round", "data": {}}, revealed("Excalibur"), ended) == (
        "Round 1 ended; Cid is Arthur, Bob is Merlin")


# --- properties ---------------------------------------------------------------------------------

JOUST_SEQUENCES = [["different"], ["declined"], ["similar", "different"],
                   ["similar", "declined"], ["similar", "similar", "different"]]


def candidate(draw, state):
    """One move that is often, not always, legal in `state`."""
    count = len(state["seats"])
    seat = st.integers(0, count - 1)
    if state["phase"] == "event":
        choices = state["event_choices"]
        if state["options"]["deck"] == "table":
            return "reveal_event", {"event": draw(st.sampled_from(sorted(EVENTS)))}, None
        if not choices:
            return "draw_events", {}, None
        if len(choices) == 3:
            return "pass_events", {"discard": draw(st.sampled_from(choices))}, None
        return "reveal_event", {"event": draw(st.sampled_from(choices))}, None
    if state["resolution"] is not None:
        return "end_round", {}, None
    what = draw(st.sampled_from(["grant"] * 8 + ["offer"] * 5 + ["joust"] * 2 + ["seal"] * 3
                                + ["place"]))
    faces = st.sampled_from(["up", "down"])
    if what == "grant":
        return "grant", {"seat": draw(seat), "damosel": draw(st.sampled_from(DAMOSELS)),
                         "chivalry": draw(st.sampled_from(CHIVALRIES))}, None
    if what == "offer":
        offerer = draw(seat)
        listed = rules.event_list(state, state["event"])
        held = [c["chivalry"] for c in state["seats"][offerer]["earned"]
                if c["chivalry"] in listed] or listed
        return "offer", {"seat": offerer, "chivalry": draw(st.sampled_from(held))}, None
    if what == "joust":
        cards = draw(st.sampled_from(JOUST_SEQUENCES))
        if state["granted"] and state["phase"] == "knight":
            g = draw(st.sampled_from(state["granted"]))
            return "joust", {"holder": g["seat"], "challenger": draw(seat), "cards": cards,
                             "damosel": g["damosel"], "chivalry": g["chivalry"]}, None
        offers = [(s, c) for s, row in enumerate(state["seats"]) for c in row["offered"]]
        if offers:
            holder, chivalry = draw(st.sampled_from(offers))
            return "joust", {"holder": holder, "challenger": draw(seat), "chivalry": chivalry,
                             "cards": cards}, None
    needed = rules.required_placements(state)
    placements = {key: {c: draw(faces) for c in cards} for key, cards in needed.items()}
    if what == "seal" and needed:
        key = draw(st.sampled_from(sorted(needed)))
        actor = draw(st.sampled_from([None, int(key)]))
        return "seal", {"seat": int(key), "placements": placements[key]}, actor
    kind = rules.event_kind(state["event"])
    return ("disaster" if kind == "disaster" else "worship"), {"placements": placements}, None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(3, 6), deck=st.sampled_from(["app", "table"]),
       seed=st.text(max_size=4))
def test_random_play_keeps_every_invariant_and_replays(data, players, deck, seed):
    names = NAMES[:players]
    options = GAME.resolve_options({"deck": deck, "merlin": data.draw(st.integers(0, players - 1))},
                                   players)
    state = replay(GAME, names, options, seed, [])
    log, states = [], [state]
    for seq in range(1, 200):
        if GAME.finished(state):
            break
        move, fields, actor = candidate(data.draw, state)
        try:
            after = GAME.moves[move](state, copy.deepcopy(fields), actor,
                                     random.Random(f"{seed}:{seq}"))
        except RuleViolation:
            continue
        assert json.loads(json.dumps(after)) == after
        assert after["last"]["type"] == move  # every move says what it was
        assert_consistent(after)
        GAME.summary({"type": move, "data": fields}, state, after)
        for viewer in [None, *range(players)]:
            json.dumps(GAME.redact(after, viewer))
        log.append({"seq": seq, "type": move, "data": fields, "actor": actor})
        states.append(after)
        state = after
    assert replay(GAME, names, options, seed, log) == state
    if log:
        assert replay(GAME, names, options, seed, log[:-1]) == states[-2]
    rows = GAME.standings(state)
    assert sorted(r["seat"] for r in rows) == list(range(players))
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)


@settings(max_examples=60, deadline=None)
@given(faces=st.lists(st.sampled_from(["up", "down"]), min_size=0, max_size=3),
       vassals=st.integers(0, 3), bonus=st.sampled_from([None, *CHIVALRIES]),
       kind=st.sampled_from(["war", "quest", "prosperity"]))
def test_points_are_never_negative_and_war_pays_at_least_three(faces, vassals, bonus, kind):
    cards = [(rules.ARMS[i], f) for i, f in enumerate(faces)]
    cards += [(rules.VASSALAGE[i], None) for i in range(vassals)]
    points = rules.offer_points(kind, bonus, cards)
    assert all(p >= 0 for p in points)
    if kind != "prosperity" and faces:
        shared = sum(points[: len(faces)]) - sum(c == bonus for c, _ in cards[: len(faces)])
        assert shared == (6 - len(faces) if "up" not in faces else 6)


# Any fields of the shapes the moves' serializers write (moves.py): seats as whole numbers up
# to the serializer's highest, names and faces among the rules' own, the placements' seats as
# their digits. What has another shape never reaches the rules (tests/test_conformance.py).
_SEAT = st.integers(0, 5)
_FACES = st.dictionaries(st.sampled_from(CHIVALRIES), st.sampled_from(rules.FACES), max_size=3)


def payloads(move):
    """Fields a move's serializer may hand the rules: a seal's placements are one seat's faces,
    a worship's or a disaster's every seat's."""
    placements = _FACES if move == "seal" else st.dictionaries(_SEAT.map(str), _FACES,
                                                                 max_size=4)
    return st.fixed_dictionaries({}, optional={
        "seat": _SEAT, "holder": _SEAT, "challenger": _SEAT,
        "damosel": st.sampled_from(DAMOSELS), "chivalry": st.sampled_from(CHIVALRIES),
        "discard": st.sampled_from(sorted(EVENTS)), "event": st.sampled_from(sorted(EVENTS)),
        "cards": st.lists(st.sampled_from(rules.JOUST_CARDS), min_size=1, max_size=4),
        "placements": placements})
SCENES = {
    "new": lambda: new_game(),
    "drawn": lambda: play(new_game(), "draw_events"),
    "quest": quest_scene,
    "joust": knight_joust_scene,
    "adultery": adultery_scene,
    "sealing": lambda: play(quest_scene(), "seal", seat=0, placements={"honor": "up"}),
}


@settings(max_examples=300, deadline=None)
@given(scene=st.sampled_from(sorted(SCENES)),
       move_data=st.sampled_from(sorted(GAME.moves)).flatmap(
           lambda move: st.tuples(st.just(move), payloads(move))),
       actor=st.none() | st.integers(0, 3))
def test_any_payload_is_applied_or_refused_with_a_rule_violation(scene, move_data, actor):
    move, data = move_data
    state = SCENES[scene]()
    before = copy.deepcopy(state)
    given_data = copy.deepcopy(data)
    try:
        after = GAME.moves[move](state, data, actor, random.Random(0))
    except RuleViolation as refusal:
        assert refusal.message
    else:
        assert_consistent(after)
        assert json.loads(json.dumps(after)) == after
    assert state == before and data == given_data


def test_the_finished_game_refuses_another_end_of_round():
    state = grant(knight_victory_scene(), 0, "Nimue", "farmer")
    state = play(play(state, "worship", placements={}), "end_round")
    refused(state, "end_round", "The game is over")
    refused(state, "grant", "The game is over", seat=1, damosel="Elaine", chivalry="armor")


# --- what Merlin and Arthur see -----------------------------------------------------------------


def test_arthurs_draw_is_seen_by_arthur_alone_and_the_passed_two_by_merlin_too():
    state = play(new_game(merlin=0), "draw_events", seed=4)  # Bob is Arthur, Ann Merlin
    drawn = state["event_choices"]
    assert rules.redact(state, 1)["event_choices"] == drawn
    assert rules.redact(state, 1)["last"]["drawn"] == drawn
    for viewer in (None, 0, 2, 3):
        seen = rules.redact(state, viewer)
        assert seen["event_choices"] == [None, None, None], viewer
        assert seen["last"]["drawn"] == [None, None, None], viewer
        assert seen["event_deck"] == [None] * 9 and seen["event_discards"] == [], viewer
        assert not set(drawn) & set(json.dumps(seen).split('"')), viewer
    passed = play(state, "pass_events", discard=drawn[0])
    assert rules.redact(passed, 1)["last"]["discarded"] == drawn[0]
    assert rules.redact(passed, 0)["event_choices"] == drawn[1:]  # Merlin holds the two
    assert rules.redact(passed, 0)["last"]["discarded"] is None
    for viewer in (None, 2, 3):
        seen = rules.redact(passed, viewer)
        assert seen["event_choices"] == [None, None] and seen["event_discards"] == [None]
        assert not set(drawn) & set(json.dumps(seen).split('"')), viewer
    shown = play(passed, "reveal_event", event=drawn[1])
    for viewer in (None, 0, 1, 2):
        seen = rules.redact(shown, viewer)
        assert seen["event"] == drawn[1] and seen["event_discards"] == [None, None]
        assert drawn[0] not in json.dumps(seen) and drawn[2] not in json.dumps(seen)
    assert rules.pending(state) and rules.pending(passed) and not rules.pending(shown)


def test_the_log_and_the_move_list_keep_arthurs_draw():
    state = play(new_game(merlin=0), "draw_events", seed=4)
    drawn = state["event_choices"]
    line = GAME.summary({"type": "draw_events", "data": {}}, new_game(merlin=0), state)
    assert line == "Bob (Arthur) drew 3 events"
    passed = play(state, "pass_events", discard=drawn[0])
    line = GAME.summary({"type": "pass_events", "data": {"discard": drawn[0]}}, state, passed)
    assert line == "Bob (Arthur) discarded one event and passed 2 to Merlin"
    move = {"seq": 2, "type": "pass_events", "data": {"discard": drawn[0]}, "undone": False}
    assert GAME.redact_move(move, passed, 1) == move
    for viewer in (None, 0, 2, 3):
        assert GAME.redact_move(move, passed, viewer)["data"] == {"discard": None}, viewer
    shown = play(passed, "reveal_event", event=drawn[1])
    assert GAME.redact_move(move, shown, 1)["data"] == {"discard": None}
    assert GAME.redact_move({**move, "undone": True}, passed, 1)["data"] == {"discard": None}


def granted_scene():
    """Holy Grail, Ann is Merlin: Bob's Gawain granted Elaine's sword, Cid's Launcelot
    Morgana's honor; Bob's Gawain held Elaine's horse and armor already."""
    state = grant(grant(revealed("Holy Grail"), 1, "Elaine", "sword"), 2, "Morgana", "honor")
    return with_cards(state, {1: [("Elaine", "horse"), ("Elaine", "armor")]})


def test_the_damosel_behind_a_grant_is_seen_by_its_knight_and_merlin_until_the_knight_phase_ends():
    state = granted_scene()
    assert rules.redact(state, 1)["seats"][1]["earned"] == state["seats"][1]["earned"]
    assert rules.redact(state, 0)["cards"]["Morgana"]["honor"] == 2  # Merlin sees every damosel
    for viewer in (None, 2, 3):
        seen = rules.redact(state, viewer)
        assert {"damosel": None, "chivalry": "sword"} in seen["seats"][1]["earned"], viewer
        assert seen["cards"]["Elaine"]["sword"] is None, viewer
        assert {"seat": 1, "damosel": None, "chivalry": "sword"} in seen["granted"], viewer
        # Elaine's two cards with Bob's Gawain are known; the sword would make three
        assert seen["seats"][0]["given_max"] == 2, viewer
    assert rules.redact(state, 1)["seats"][0]["given_max"] == 3
    assert rules.redact(state, None)["last"]["damosel"] is None
    assert rules.redact(state, 2)["last"]["damosel"] == "Morgana"
    assert rules.pending(state)
    offered = play(state, "offer", seat=2, chivalry="honor")  # the knight phase is over
    assert rules.redact(offered, None)["cards"] == offered["cards"]
    assert rules.redact(offered, None)["granted"] == offered["granted"]
    assert not rules.pending(offered)


def test_the_standings_do_not_count_a_hidden_grant_as_given():
    state = granted_scene()
    ann = next(row for row in GAME.standings(state) if row["seat"] == 0)
    assert ann["details"]["given_max"] == 2
    offered = play(state, "offer", seat=2, chivalry="honor")
    ann = next(row for row in GAME.standings(offered) if row["seat"] == 0)
    assert ann["details"]["given_max"] == 3


def test_the_log_and_the_move_list_keep_a_granted_damosel():
    state = granted_scene()
    line = GAME.summary({"type": "grant", "data": {"seat": 1, "damosel": "Elaine",
                                                   "chivalry": "sword"}},
                        revealed("Holy Grail"), state)
    assert line == "Bob's Gawain was granted a card of sword"
    move = {"seq": 2, "type": "grant", "undone": False,
            "data": {"seat": 1, "damosel": "Elaine", "chivalry": "sword"}}
    assert GAME.redact_move(move, state, 1) == move and GAME.redact_move(move, state, 0) == move
    for viewer in (None, 2, 3):
        assert GAME.redact_move(move, state, viewer)["data"]["damosel"] is None, viewer
    undone = {**move, "undone": True}
    assert GAME.redact_move(undone, revealed("Holy Grail"), 2)["data"]["damosel"] is None
    offered = play(state, "offer", seat=2, chivalry="honor")
    assert GAME.redact_move(move, offered, None) == move


def test_a_knight_phase_joust_keeps_the_damosel_hidden():
    state = granted_scene()
    jousted = play(state, "joust", holder=1, challenger=3, chivalry="sword",
                   cards=["similar", "different"])  # no damosel: Bob's one grant this round
    assert jousted["cards"]["Elaine"]["sword"] == 3
    line = GAME.summary({"type": "joust", "data": {}}, state, jousted)
    assert line == ("Dee challenged Bob for the sword granted to Bob (similar, different): "
                    "Dee gets it, taking 1 worship from Bob")
    assert rules.redact(jousted, 3)["cards"]["Elaine"]["sword"] == 3
    for viewer in (None, 1, 2):
        seen = rules.redact(jousted, viewer)
        assert seen["cards"]["Elaine"]["sword"] is None and seen["last"]["damosel"] is None
        assert seen["joust"]["challenged"] == [rules.hidden_key(3, "sword")]
        assert rules.challengeable(seen) == [
            {"holder": 2, "damosel": None if viewer != 2 else "Morgana", "chivalry": "honor"}]
    move = {"type": "joust", "undone": False,
            "data": {"holder": 1, "challenger": 3, "chivalry": "sword", "damosel": "Elaine",
                     "cards": ["similar", "different"]}}
    assert GAME.redact_move(move, jousted, 2)["data"]["damosel"] is None
    assert GAME.redact_move(move, jousted, 3) == move
    refused(state, "joust", "Ann's Bors was not granted a card of sword", field="holder", holder=0,
            challenger=3, chivalry="sword", cards=["declined"])
