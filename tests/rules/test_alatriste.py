"""El Capitán Alatriste: pure rule tests (no database, no Django)."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import SEAT, RuleViolation, move_authority, replay
from games.alatriste import rules
from games.alatriste.rules import GAME, fight, income, totals, zone
from tests.rules.texts import watching

# Every refusal these tests meet and every log line and "now" line of every move they play is
# checked as a Text that keeps its values in a translation (tests/rules/texts.py).
watched = watching(GAME)

NAMES = ["Íñigo", "Quevedo", "Malatesta"]
NOT_SET_UP = "Íñigo has not set up yet: choose Fencing and ducats first"


def card(name, kind="character", **values):
    base = {"name": name, "kind": kind, "fame": 0, "vigour": 0, "fencing": 0,
            "pistols": False, "vehicle": False, "enemies": []}
    base.update(values)
    return base


QUEVEDO = card("Quevedo", fame=2, fencing=1, enemies=["Pacheco"])
PACHECO = card("Pacheco", fame=1, fencing=1)
PISTOLAS = card("Pistolas de silla", "possession", fame=-1, fencing=1, pistols=True)
DADOS = card("Dados trucados", "possession", fame=-1)
CARRIAGE = card("Carroza", "possession", vehicle=True)
BOCANEGRA = card("Emilio Bocanegra", fame=1)
CARIDAD = card("Caridad la Lebrijana", vigour=2)  # a placeholder card that gives Vigour
SWORD = card("Espada toledana", "possession", fencing=2)


class Dice:
    """An rng that rolls the given dice, in order: server rolls made predictable."""

    def __init__(self, *values):
        self.values = list(values)

    def randint(self, low, high):
        return self.values.pop(0)


def new(names=NAMES):
    return GAME.setup(list(names), {}, random.Random(0))


def play(state, move, data, rng=None):
    return GAME.moves[move](state, data, None, rng or random.Random(7))


def ready(names=NAMES, fencing=4):
    state = new(names)
    for seat in range(len(names)):
        state = play(state, "setup", {"seat": seat, "fencing": fencing, "ducats": 10 - fencing})
    return state


def with_seat(state, index, **changes):
    """A test position: chips, cards or status set directly."""
    state = copy.deepcopy(state)
    seat = state["seats"][index]
    seat.update(changes)
    rules._refresh(seat)
    return state


def refused(state, move, data, message=None, field=None, rng=None):
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as error:
        play(state, move, data, rng)
    assert state == before
    if message is not None:
        assert message in error.value.message
    if field is not None:
        assert error.value.field == field
    return error.value


def seat(state, index):
    return state["seats"][index]


# ---------------------------------------------------------------- set-up and the sheet


def test_the_game_declares_two_to_six_players_and_one_option_who_starts():
    assert (GAME.slug, GAME.min_players, GAME.max_players) == ("alatriste", 2, 6)
    assert GAME.resolve_options({}, 4) == {"first": None}  # whoever rolls highest
    assert GAME.first == "first"
    with pytest.raises(RuleViolation):
        GAME.check_seat_count(7)
    with pytest.raises(RuleViolation):
        GAME.check_seat_count(1)


def test_the_sheet_has_the_spec_fields_and_no_seat_is_ready_before_setup():
    state = new()
    keys = {"name", "ready", "vigour", "fame", "fencing", "ducats", "cards", "attacks", "status",
            "recovering", "lost_turns", "wanted_turns", "totals", "zone", "income"}
    for index, name in enumerate(NAMES):
        assert set(seat(state, index)) == keys
        assert seat(state, index)["name"] == name
        assert seat(state, index)["ready"] is False
    assert json.loads(json.dumps(state)) == state
    assert not GAME.finished(state)


def test_setup_shares_ten_chips_between_fencing_and_ducats():
    state = play(new(), "setup", {"seat": 0, "fencing": 4, "ducats": 6})
    sheet = seat(state, 0)
    assert sheet["ready"] is True
    assert (sheet["vigour"], sheet["fame"], sheet["fencing"], sheet["ducats"]) == (12, 0, 4, 6)
    assert sheet["totals"] == {"fame": 0, "vigour": 12, "fencing": 4}
    assert (sheet["zone"], sheet["income"], sheet["status"]) == (1, 1, "free")
    assert GAME.summary(
        {"type": "setup", "data": {}}, new(), state) == "Íñigo set up: Fencing 4, 6 ducats"


@pytest.mark.parametrize("data, field", [
    ({"seat": 0, "fencing": 5, "ducats": 6}, "ducats"),
    ({"seat": 0, "fencing": 1, "ducats": 9}, "fencing"),
    ({"seat": 0, "fencing": 9, "ducats": 1}, "fencing"),
    ({"seat": 0, "fencing": 8, "ducats": 1}, "ducats"),
    ({"seat": 0, "fencing": 4}, "ducats"),
    ({"seat": 3, "fencing": 4, "ducats": 6}, "seat"),
    ({"fencing": 4, "ducats": 6}, "seat"),
])
def test_setup_refuses_bad_shares(data, field):
    refused(new(), "setup", data, field=field)


def test_setup_twice_is_refused_but_a_dead_player_may_set_up_again():
    state = ready()
    refused(state, "setup", {"seat": 0, "fencing": 5, "ducats": 5}, "already set up")
    dead = play(state, "death", {"seat": 0})
    assert seat(dead, 0)["status"] == "dead"
    again = play(dead, "setup", {"seat": 0, "fencing": 6, "ducats": 4})
    assert seat(again, 0)["status"] == "free"
    assert (seat(again, 0)["vigour"], seat(again, 0)["fencing"]) == (12, 6)


@pytest.mark.parametrize("move, data", [
    ("turn", {"seat": 0}),
    ("adjust", {"seat": 0, "stat": "fame", "delta": 1}),
    ("card", {"seat": 0, "action": "add", "card": QUEVEDO}),
    ("attack", {"from": 1, "to": 0, "action": "play"}),
    ("attack", {"from": 0, "to": 1, "action": "play"}),
    ("status", {"seat": 0, "status": "jail"}),
    ("duel", {"challenger": 1, "challenged": 0, "accepted": True}),
    ("combat", {"attacker": 0, "defender": 1}),
    ("dice_game", {"seat": 0, "bet": 5}),
    ("dice_game", {"seat": 1, "bet": 5, "joiners": [0]}),
    ("death", {"seat": 0}),
    ("valido", {"seat": 0, "won": True}),
])
def test_every_move_for_a_seat_needs_its_setup_first(move, data):
    state = new()
    state = play(state, "setup", {"seat": 1, "fencing": 4, "ducats": 6})
    refused(state, move, data, NOT_SET_UP)


@pytest.mark.parametrize("move, data", [
    ("turn", {"seat": 0}),
    ("adjust", {"seat": 0, "stat": "fame", "delta": 1}),
    ("card", {"seat": 0, "action": "add", "card": QUEVEDO}),
    ("status", {"seat": 0, "status": "free"}),
    ("duel", {"challenger": 1, "challenged": 0, "accepted": True}),
    ("death", {"seat": 0}),
])
def test_a_dead_player_plays_nothing_but_setup(move, data):
    state = play(ready(), "death", {"seat": 0})
    refused(state, move, data, "Íñigo is dead")


@pytest.mark.parametrize("move", sorted(set(GAME.moves) - {"end", "bullfight", "act_of_faith"}))
@pytest.mark.parametrize("data", [{}, None])
def test_missing_fields_are_refused_as_rule_violations(move, data):
    with pytest.raises(RuleViolation):
        play(ready(), move, data)


# ---------------------------------------------------------------- totals, income, zone


def test_totals_add_the_cards_and_never_go_below_zero():
    state = with_seat(ready(), 0, cards=[QUEVEDO, PISTOLAS, DADOS])
    assert totals(seat(state, 0)) == {"fame": 0, "vigour": 12, "fencing": 6}
    state = with_seat(state, 0, fame=5)
    assert seat(state, 0)["totals"] == {"fame": 5, "vigour": 12, "fencing": 6}


@pytest.mark.parametrize("fame, expected", [(0, 1), (14, 1), (15, 2), (29, 2), (30, 3), (41, 3)])
def test_income_follows_total_fame(fame, expected):
    assert income(seat(with_seat(ready(), 0, fame=fame), 0)) == expected


def test_income_counts_the_cards_fame():
    assert income(seat(with_seat(ready(), 0, fame=13, cards=[QUEVEDO]), 0)) == 2


@pytest.mark.parametrize("fame, cards, expected", [
    (40, [], 1), (14, [CARRIAGE], 1), (15, [CARRIAGE], 2), (29, [CARRIAGE], 2),
    (30, [CARRIAGE], 3), (28, [CARRIAGE, QUEVEDO], 3),
])
def test_zone_needs_fame_and_a_vehicle(fame, cards, expected):
    assert zone(seat(with_seat(ready(), 0, fame=fame, cards=cards), 0)) == expected


# ---------------------------------------------------------------- turn


def test_a_turn_pays_the_income_and_counts_down_lost_and_wanted_turns():
    state = with_seat(ready(), 0, fame=15, lost_turns=2, wanted_turns=3, status="jail")
    after = play(state, "turn", {"seat": 0})
    sheet = seat(after, 0)
    assert (sheet["ducats"], sheet["lost_turns"], sheet["wanted_turns"]) == (8, 1, 2)
    assert sheet["status"] == "jail"
    line = GAME.summary({"type": "turn", "data": {}}, state, after)
    assert line == "Íñigo's turn: +2 ducats, a lost turn (1 left), wanted 2 more turns"
    plain = play(ready(), "turn", {"seat": 1})
    assert (seat(plain, 1)["ducats"], seat(plain, 1)["lost_turns"]) == (7, 0)
    last = with_seat(ready(), 0, wanted_turns=1)
    line = GAME.summary({"type": "turn", "data": {}}, last, play(last, "turn", {"seat": 0}))
    assert line == "Íñigo's turn: +1 ducat, no longer wanted"



def test_the_highest_die_starts_and_turns_go_round_the_table_once_each():
    state = ready()
    assert rules.next_turn(state) is None  # the first turn: whoever rolled highest
    assert rules.awaited(state) == []
    state = play(state, "turn", {"seat": 1})
    assert rules.next_turn(state) == 2
    assert rules.awaited(state) == [2]  # the seat whose turn comes next, as the now line says
    # Quevedo took his income: starting his turn again is refused, and so is skipping ahead.
    refused(state, "turn", {"seat": 1}, "Next it is Malatesta's turn, not Quevedo's", "seat")
    refused(state, "turn", {"seat": 0}, "Next it is Malatesta's turn, not Íñigo's", "seat")
    for index in (2, 0, 1, 2):
        state = play(state, "turn", {"seat": index})
    assert [seat(state, i)["ducats"] for i in range(3)] == [7, 8, 8]
    assert state["turn"] == 2


def test_turns_skip_seats_not_set_up_and_dead_ones_until_they_set_up_again():
    state = new([*NAMES, "Angélica"])
    for index in (0, 1, 3):
        state = play(state, "setup", {"seat": index, "fencing": 4, "ducats": 6})
    state = play(state, "turn", {"seat": 1})
    assert rules.next_turn(state) == 3  # Malatesta has not set up: not in the order yet
    refused(state, "turn", {"seat": 2}, "Malatesta has not set up yet", "seat")
    state = play(state, "turn", {"seat": 3})
    state = play(state, "death", {"seat": 0})
    assert rules.next_turn(state) == 1  # Íñigo is dead: skipped
    refused(state, "turn", {"seat": 3}, "Next it is Quevedo's turn, not Angélica's", "seat")
    state = play(state, "turn", {"seat": 1})
    state = play(state, "setup", {"seat": 2, "fencing": 4, "ducats": 6})
    state = play(state, "setup", {"seat": 0, "fencing": 4, "ducats": 6})
    for index in (2, 3, 0, 1):
        assert rules.next_turn(state) == index
        state = play(state, "turn", {"seat": index})


def test_a_player_losing_turns_still_takes_his_turn_in_order():
    state = with_seat(ready(), 1, lost_turns=1)
    state = play(state, "turn", {"seat": 0})
    state = play(state, "turn", {"seat": 1})
    assert (seat(state, 1)["lost_turns"], seat(state, 1)["ducats"]) == (0, 7)
    assert state["last"]["lost_turn"] is True
    assert rules.next_turn(state) == 2


# ---------------------------------------------------------------- adjust


def test_adjust_changes_a_pile_and_chips_stop_at_zero_and_vigour_at_twelve():
    state = play(ready(), "adjust", {"seat": 0, "stat": "fame", "delta": 3, "reason": "C box"})
    assert seat(state, 0)["fame"] == 3
    state = play(state, "adjust", {"seat": 0, "stat": "fame", "delta": -5})
    assert seat(state, 0)["fame"] == 0
    assert GAME.summary({"type": "adjust"}, state, state) == "Íñigo -5 fame (-3 applied)"
    state = play(state, "adjust", {"seat": 0, "stat": "vigour", "delta": 4})
    assert seat(state, 0)["vigour"] == 12
    state = play(state, "adjust", {"seat": 0, "stat": "fencing", "delta": -9})
    assert seat(state, 0)["fencing"] == 0


def test_a_payment_beyond_the_ducats_held_sends_to_jail_and_pays_nothing():
    state = ready()
    jailed = play(state, "adjust", {"seat": 0, "stat": "ducats", "delta": -7, "reason": "tavern"})
    assert (seat(jailed, 0)["ducats"], seat(jailed, 0)["status"]) == (6, "jail")
    assert "can't pay 7 ducats (tavern): to the town jail" in GAME.summary(
        {"type": "adjust"}, state, jailed)
    paid = play(state, "adjust", {"seat": 0, "stat": "ducats", "delta": -6})
    assert (seat(paid, 0)["ducats"], seat(paid, 0)["status"]) == (0, "free")
    court = with_seat(state, 0, status="court_jail")
    court = play(court, "adjust", {"seat": 0, "stat": "ducats", "delta": -9})
    assert seat(court, 0)["status"] == "court_jail"


def test_vigour_to_zero_is_death_unless_cards_give_vigour():
    state = with_seat(ready(), 0, cards=[QUEVEDO], fame=4, vigour=2)
    dead = play(state, "adjust", {"seat": 0, "stat": "vigour", "delta": -5})
    assert GAME.summary({"type": "adjust"}, state, dead) == (
        "Íñigo -5 vigour (-2 applied): Íñigo dies")
    sheet = seat(dead, 0)
    assert sheet["status"] == "dead"
    assert (sheet["vigour"], sheet["fame"], sheet["fencing"], sheet["ducats"]) == (0, 0, 0, 0)
    assert sheet["cards"] == []
    saved = play(with_seat(state, 0, cards=[CARIDAD]), "adjust",
                 {"seat": 0, "stat": "vigour", "delta": -2})
    assert (seat(saved, 0)["status"], seat(saved, 0)["recovering"]) == ("free", True)
    assert seat(saved, 0)["totals"]["vigour"] == 2


@pytest.mark.parametrize("data, field", [
    ({"seat": 0, "stat": "luck", "delta": 1}, "stat"),
    ({"seat": 0, "stat": "fame", "delta": 0}, "delta"),
    ({"seat": 9, "stat": "fame", "delta": 1}, "seat"),
])
def test_adjust_refusals(data, field):
    refused(ready(), "adjust", data, field=field)


# ---------------------------------------------------------------- cards


def test_board_cards_never_equal_never_enemies():
    state = play(ready(), "card", {"seat": 0, "action": "add", "card": QUEVEDO})
    assert seat(state, 0)["totals"] == {"fame": 2, "vigour": 12, "fencing": 5}
    refused(state, "card", {"seat": 0, "action": "add", "card": card(" quevedo ")},
            "Íñigo already has Quevedo: never two equal cards", "card")
    refused(state, "card", {"seat": 0, "action": "add", "card": PACHECO},
            "Pacheco and Quevedo are enemies")
    # Enemies when either card lists the other: Pacheco lists nobody, Quevedo lists him.
    other = play(ready(), "card", {"seat": 1, "action": "add", "card": PACHECO})
    refused(other, "card", {"seat": 1, "action": "add", "card": QUEVEDO}, "enemies")
    # A possession may lie on two players' boards (equal only within one board); a character
    # is one card (test_a_character_is_one_card_held_by_one_player_at_a_time).
    armed = play(state, "card", {"seat": 0, "action": "add", "card": SWORD})
    both = play(armed, "card", {"seat": 1, "action": "add", "card": SWORD})
    assert seat(both, 1)["cards"][0]["name"] == "Espada toledana"
    refused(state, "card", {"seat": 1, "action": "add", "card": QUEVEDO}, "Íñigo holds it")


def test_a_card_keeps_its_catalogue_id_and_defaults_missing_values():
    state = play(ready(), "card", {"seat": 0, "action": "add",
                                   "card": {"id": 7, "number": 31, "name": "Caballo",
                                            "kind": "possession", "vehicle": True}})
    held = seat(state, 0)["cards"][0]
    assert held == {"id": 7, "number": 31, "name": "Caballo", "kind": "possession", "fame": 0,
                    "vigour": 0, "fencing": 0, "pistols": False, "vehicle": True, "enemies": []}


@pytest.mark.parametrize("bad, message", [
    (card("Ataque", "attack"), "attack card"),
    (card("Ayuda", "help"), "help card"),
    (card(""), "needs a name"),
    (card("X", "weapon"), "a card is a"),
    (card("X", fame="2"), "fame"),
    (card("X", pistols=1), "pistols"),
    (card("X", enemies="Pacheco"), "enemies"),
    ("Quevedo", "name and values"),
])
def test_card_refusals(bad, message):
    refused(ready(), "card", {"seat": 0, "action": "add", "card": bad}, message, "card")


def test_removing_a_card_and_refusals():
    state = play(ready(), "card", {"seat": 0, "action": "add", "card": QUEVEDO})
    gone = play(state, "card", {"seat": 0, "action": "remove", "card": QUEVEDO})
    assert seat(gone, 0)["cards"] == []
    gone = play(state, "card", {"seat": 0, "action": "remove", "card": "quevedo"})
    assert seat(gone, 0)["cards"] == []
    refused(state, "card", {"seat": 0, "action": "remove", "card": PACHECO},
            "Íñigo has no Pacheco on the board")
    refused(state, "card", {"seat": 0, "action": "drop", "card": QUEVEDO}, field="action")


RECOVERING = "Íñigo was saved from death and recovers until back at 3 Vigour chips (1 now)"


@pytest.mark.parametrize("move, data, field, why", [
    ("duel", {"challenger": 0, "challenged": 1, "accepted": True}, "challenger",
     "no duels or combats until then."),
    ("combat", {"attacker": 0, "defender": 1}, "attacker", "no duels or combats until then."),
    ("dice_game", {"seat": 0, "bet": 5}, "seat", "no game of dice until then."),
    ("dice_game", {"seat": 1, "bet": 5, "joiners": [0]}, "joiners",
     "no game of dice until then."),
    ("valido", {"seat": 0, "won": True}, "seat", "El Valido waits until then."),
])
def test_a_player_saved_from_death_starts_nothing_until_he_recovers(move, data, field, why):
    # "he will have to recover a minimum of 3 points to be able to continue playing ...
    # remaining there until he reaches the minimum" (Death of a player).
    state = with_seat(ready(), 0, cards=[CARIDAD], vigour=1, recovering=True, fame=30)
    refused(state, move, data, f"{RECOVERING}: {why}", field)
    recovered = play(state, "adjust", {"seat": 0, "stat": "vigour", "delta": 2})
    assert seat(play(recovered, move, data), 0)["status"] == "free"


def test_a_recovering_player_can_be_challenged_and_dies_of_it():
    state = with_seat(ready(), 1, cards=[CARIDAD], vigour=1, recovering=True)
    after = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": True})
    assert seat(after, 1)["status"] == "dead" and seat(after, 0)["wanted_turns"] == 3


@pytest.mark.parametrize("move", ["bullfight", "act_of_faith"])
def test_a_recovering_player_is_not_in_the_plaza_mayor(move):
    state = with_seat(ready(), 0, cards=[CARIDAD, BOCANEGRA], vigour=1, recovering=True)
    after = play(state, move, {})
    assert 0 not in after["last"]["players"] and after["last"]["winner"] != 0
    refused(state, move, {"rolls": {"0": [6, 6]}}, "Íñigo does not take part", "rolls")


def test_a_saved_player_losing_the_vigour_card_dies():
    state = with_seat(ready(), 0, cards=[CARIDAD], vigour=0, recovering=True)
    dead = play(state, "card", {"seat": 0, "action": "remove", "card": CARIDAD})
    assert seat(dead, 0)["status"] == "dead"



def test_a_character_is_one_card_held_by_one_player_at_a_time():
    state = play(ready(), "card", {"seat": 2, "action": "add", "card": BOCANEGRA})
    refused(state, "card", {"seat": 0, "action": "add",
                            "card": {**BOCANEGRA, "name": " emilio BOCANEGRA "}},
            "There is one Emilio Bocanegra card and Malatesta holds it", "card")
    # Once Malatesta has discarded it, another player may have it.
    freed = play(state, "card", {"seat": 2, "action": "remove", "card": BOCANEGRA})
    taken = play(freed, "card", {"seat": 0, "action": "add", "card": BOCANEGRA})
    assert [c["name"] for c in seat(taken, 0)["cards"]] == ["Emilio Bocanegra"]
    # Possessions are not characters: the app's reading lets two players each have pistols.
    armed = play(play(ready(), "card", {"seat": 0, "action": "add", "card": PISTOLAS}),
                 "card", {"seat": 1, "action": "add", "card": PISTOLAS})
    assert seat(armed, 1)["cards"][0]["name"] == "Pistolas de silla"


# ---------------------------------------------------------------- attacks and status


def test_attack_cards_at_most_three_waiting_and_resolved_oldest_first():
    state = ready()
    for _ in range(3):
        state = play(state, "attack", {"from": 0, "to": 1, "action": "play"})
    assert seat(state, 1)["attacks"] == 3
    refused(state, "attack", {"from": 2, "to": 1, "action": "play"}, "already has 3", "to")
    refused(state, "attack", {"from": 1, "to": 1, "action": "play"}, "on their own board")
    state = play(state, "attack", {"to": 1, "action": "resolve"})
    assert seat(state, 1)["attacks"] == 2
    refused(ready(), "attack", {"to": 1, "action": "resolve"}, "no attack card waiting")
    refused(ready(), "attack", {"from": 0, "to": 1, "action": "swap"}, field="action")
    refused(ready(), "attack", {"to": 1, "action": "play"}, field="from")


def test_status_sets_jail_and_lost_turns_and_refuge_or_away_clear_wanted():
    state = with_seat(ready(), 0, wanted_turns=3)
    jail = play(state, "status", {"seat": 0, "status": "jail", "lost_turns": 2})
    assert (seat(jail, 0)["status"], seat(jail, 0)["lost_turns"]) == ("jail", 2)
    assert seat(jail, 0)["wanted_turns"] == 3
    for status in ("refuge", "away", "court_jail"):
        after = play(state, "status", {"seat": 0, "status": status})
        assert (seat(after, 0)["status"], seat(after, 0)["wanted_turns"]) == (status, 0)
    free = play(jail, "status", {"seat": 0, "status": "free"})
    assert (seat(free, 0)["status"], seat(free, 0)["lost_turns"]) == ("free", 2)
    refused(state, "status", {"seat": 0, "status": "dead"}, field="status")
    refused(state, "status", {"seat": 0, "status": "jail", "lost_turns": -1}, field="lost_turns")


# ---------------------------------------------------------------- duel


def duel_position():
    """Íñigo: Fencing 4, Quevedo (+1) and seat pistols (left out of duels); Malatesta: 3."""
    state = ready()
    state = with_seat(state, 0, cards=[QUEVEDO, PISTOLAS])
    return with_seat(state, 2, fencing=3)


def test_the_duel_worked_example():
    state = duel_position()
    after = play(state, "duel", {
        "challenger": 0, "challenged": 2, "accepted": True,
        "rolls": {"challenger": [6, 3], "challenged": [1, 4], "challenged_extra": 3}})
    last = after["last"]
    line = ("Íñigo 4 + 1 + (6+3) = 14 [+1 Fencing] vs "
            "Malatesta 3 + 0 + (1+4) = 8 [extra die 3: -3 Vigour]")
    assert last["fight"]["line"] == line
    assert (last["winner"], last["loser"]) == (0, 2)
    inigo, malatesta = seat(after, 0), seat(after, 2)
    assert inigo["fencing"] == 5  # the 6
    assert inigo["fame"] == 2  # challenged +1, won +1
    assert malatesta["fame"] == 0  # accepted +1, lost with no cards -1
    assert malatesta["vigour"] == 9
    assert GAME.summary({"type": "duel"}, state, after) == (
        f"Íñigo challenged Malatesta: {line}; Íñigo wins")


def test_the_fight_breakdown_helper_for_the_page():
    state = duel_position()
    result = fight("duel", seat(state, 0), seat(state, 2), [2, 6], [5, 5], 4)
    left, right = result["sides"]
    assert (left["chips"], left["cards"], left["total"]) == (4, 1, 13)
    assert (left["extra_needed"], left["vigour_lost"], left["fencing_gained"]) == (True, 4, 1)
    assert (right["total"], right["extra_needed"], right["vigour_lost"]) == (13, False, 0)
    assert result["winner"] is None
    combat = fight("combat", seat(state, 0), seat(state, 2), [3, 3], [3, 4])
    assert combat["sides"][0]["cards"] == 2  # pistols count in a combat
    assert combat["sides"][1]["extra_limit"] == 3  # against pistols a 3 wounds
    assert combat["sides"][0]["extra_needed"] is False
    assert combat["sides"][1]["extra_needed"] is True
    assert combat["sides"][0]["fencing_gained"] == 0


def test_a_double_one_costs_one_extra_die_and_a_six_and_a_one_do_both():
    state = ready()
    after = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": True,
                                 "rolls": {"challenger": [6, 1], "challenged": [1, 1],
                                           "challenger_extra": 2, "challenged_extra": 5}})
    assert (seat(after, 0)["fencing"], seat(after, 0)["vigour"]) == (5, 10)
    assert (seat(after, 1)["fencing"], seat(after, 1)["vigour"]) == (4, 7)


def test_a_needed_extra_die_not_given_is_rolled_and_an_unneeded_one_is_ignored():
    state = ready()
    after = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": True,
                                 "rolls": {"challenger": [5, 4], "challenged": [2, 3],
                                           "challenger_extra": 6}}, rng=Dice(4))
    assert (seat(after, 0)["vigour"], seat(after, 1)["vigour"]) == (12, 8)
    assert after["last"]["fight"]["sides"][1]["extra"] == 4
    assert after["last"]["fight"]["sides"][0]["extra"] is None


def test_server_dice_are_rolled_and_recorded():
    after = play(ready(), "duel", {"challenger": 0, "challenged": 1, "accepted": True},
                 rng=Dice(5, 5, 3, 4))
    sides = after["last"]["fight"]["sides"]
    assert (sides[0]["dice"], sides[1]["dice"]) == ([5, 5], [3, 4])
    assert after["last"]["winner"] == 0


def test_given_dice_that_end_equal_are_refused():
    refused(ready(), "duel", {"challenger": 0, "challenged": 1, "accepted": True,
                              "rolls": {"challenger": [4, 3], "challenged": [5, 2]}},
            "Equal: roll again", "rolls")
    # One side's dice given, the other's rolled: still the players' to roll again.
    refused(ready(), "duel", {"challenger": 0, "challenged": 1, "accepted": True,
                              "rolls": {"challenger": [4, 3]}}, "Equal: roll again",
            rng=Dice(5, 2))


def test_server_dice_that_end_equal_are_rolled_again():
    after = play(ready(), "duel", {"challenger": 0, "challenged": 1, "accepted": True},
                 rng=Dice(4, 3, 5, 2, 3, 3, 5, 4))
    last = after["last"]
    assert last["fight"]["ties"] == [{"challenger": [4, 3], "challenged": [5, 2]}]
    assert (last["fight"]["sides"][0]["dice"], last["winner"]) == ([3, 3], 1)


def test_a_refused_duel_costs_the_challenged_two_fame():
    state = with_seat(ready(), 1, fame=1)
    after = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": False})
    assert (seat(after, 0)["fame"], seat(after, 1)["fame"]) == (1, 0)
    assert after["last"]["outcome"] == "refused"
    assert "refused (Quevedo -2 Fame)" in GAME.summary({"type": "duel"}, state, after)


def test_the_patrol_sends_both_to_jail_when_it_rolls_its_distance():
    data = {"challenger": 0, "challenged": 1, "accepted": True, "patrol": {"distance": 4}}
    after = play(ready(), "duel", data, rng=Dice(4))
    assert [seat(after, i)["status"] for i in (0, 1)] == ["jail", "jail"]
    assert (seat(after, 0)["fame"], seat(after, 1)["fame"]) == (1, 1)
    assert after["last"]["fight"] is None
    away = play(ready(), "duel", {**data, "patrol": {"distance": 4, "roll": 3},
                                  "rolls": {"challenger": [6, 5], "challenged": [3, 4]}})
    assert away["last"]["outcome"] == "fought"


def test_a_challenged_player_with_three_vigour_chips_dies_and_the_challenger_is_wanted():
    state = with_seat(ready(), 1, vigour=3, cards=[CARIDAD])
    after = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": True})
    assert seat(after, 1)["status"] == "dead"
    assert seat(after, 0)["wanted_turns"] == 3
    assert after["last"]["deaths"] == [1]
    # Refused: no death, but challenging a weak player is itself prosecuted.
    refusal = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": False})
    assert seat(refusal, 1)["status"] == "free"
    assert seat(refusal, 0)["wanted_turns"] == 3
    strong = play(with_seat(ready(), 1, vigour=4), "duel",
                  {"challenger": 0, "challenged": 1, "accepted": True,
                   "rolls": {"challenger": [6, 5], "challenged": [3, 4]}})
    assert (seat(strong, 1)["status"], seat(strong, 0)["wanted_turns"]) == ("free", 0)


def test_killing_in_a_duel_makes_the_killer_wanted_and_vigour_cards_save():
    state = with_seat(ready(), 1, vigour=4)
    data = {"challenger": 0, "challenged": 1, "accepted": True,
            "rolls": {"challenger": [6, 5], "challenged": [2, 4], "challenged_extra": 5}}
    after = play(state, "duel", data)
    assert seat(after, 1)["status"] == "dead"
    assert seat(after, 0)["wanted_turns"] == 3
    assert "Quevedo dies; Íñigo wanted 3 turns" in GAME.summary({"type": "duel"}, state, after)
    saved = play(with_seat(state, 1, cards=[CARIDAD]), "duel", data)
    assert (seat(saved, 1)["status"], seat(saved, 1)["recovering"]) == ("free", True)
    assert seat(saved, 0)["wanted_turns"] == 0


def test_the_winner_takes_a_board_card_of_the_loser():
    state = with_seat(ready(), 1, cards=[PACHECO, SWORD])
    rolls = {"challenger": [6, 5], "challenged": [3, 4]}
    data = {"challenger": 0, "challenged": 1, "accepted": True, "rolls": rolls}
    kept = play(state, "duel", {**data, "take": {"card": "Pacheco", "keep": True}})
    assert [c["name"] for c in seat(kept, 0)["cards"]] == ["Pacheco"]
    assert [c["name"] for c in seat(kept, 1)["cards"]] == ["Espada toledana"]
    assert seat(kept, 1)["fame"] == 1  # the loser had cards: no extra loss
    dropped = play(state, "duel", {**data, "take": {"card": SWORD, "keep": False}})
    assert seat(dropped, 0)["cards"] == []
    assert [c["name"] for c in seat(dropped, 1)["cards"]] == ["Pacheco"]
    refused(state, "duel", {**data, "take": {"card": "Quevedo", "keep": True}},
            "Quevedo has no Quevedo on the board", "take")
    enemy = with_seat(state, 0, cards=[QUEVEDO])
    refused(enemy, "duel", {**data, "take": {"card": "Pacheco", "keep": True}}, "enemies")


def test_a_card_taken_in_a_duel_does_not_save_its_winner_from_his_own_extra_die():
    # The Vigour goes with the duel's dice; only then does the winner take a card (The Duel).
    state = with_seat(with_seat(ready(), 0, vigour=4), 1, cards=[CARIDAD])
    data = {"challenger": 0, "challenged": 1, "accepted": True,
            "rolls": {"challenger": [6, 2], "challenged": [3, 3], "challenger_extra": 4},
            "take": {"card": "Caridad la Lebrijana", "keep": True}}
    after = play(state, "duel", data)
    assert after["last"]["winner"] == 0 and after["last"]["deaths"] == [0]
    assert (seat(after, 0)["status"], seat(after, 0)["cards"]) == ("dead", [])
    assert seat(after, 1)["cards"] == []  # taken all the same, and gone with the dead winner
    assert after["last"]["take"] == {"card": "Caridad la Lebrijana", "keep": False}
    saved = play(with_seat(state, 0, cards=[CARIDAD]), "duel",
                 {**data, "take": {"card": "Caridad la Lebrijana", "keep": False}})
    assert (seat(saved, 0)["status"], seat(saved, 0)["recovering"]) == ("free", True)


def test_a_loser_with_cards_in_hand_loses_no_extra_fame():
    data = {"challenger": 0, "challenged": 1, "accepted": True,
            "rolls": {"challenger": [6, 5], "challenged": [3, 4]}}
    bare = play(ready(), "duel", data)
    hand = play(ready(), "duel", {**data, "loser_has_hand_cards": True})
    assert (seat(bare, 1)["fame"], seat(hand, 1)["fame"]) == (0, 1)


@pytest.mark.parametrize("data, field", [
    ({"challenger": 0, "challenged": 0, "accepted": True}, "challenged"),
    ({"challenger": 0, "challenged": 1}, "accepted"),
    ({"challenger": 0, "challenged": 1, "accepted": True, "rolls": {"attacker": [3, 3]}},
     "rolls"),
])
def test_duel_refusals(data, field):
    refused(ready(), "duel", data, field=field)


@pytest.mark.parametrize("status", ["jail", "court_jail", "away", "refuge"])
def test_no_duels_or_combats_out_of_the_streets(status):
    state = with_seat(ready(), 1, status=status)
    refused(state, "duel", {"challenger": 0, "challenged": 1, "accepted": True},
            "no duels or combats there", "challenged")
    refused(state, "combat", {"attacker": 1, "defender": 0}, "no duels or combats", "attacker")


def test_a_wanted_player_is_captured_when_met_so_he_fights_no_one():
    state = with_seat(ready(), 0, wanted_turns=2)
    refused(state, "duel", {"challenger": 1, "challenged": 0, "accepted": True},
            "Íñigo is wanted: meeting another player means the court jail", "challenged")
    refused(state, "combat", {"attacker": 0, "defender": 1}, "Íñigo is wanted", "attacker")
    captured = play(state, "status", {"seat": 0, "status": "court_jail"})
    assert seat(captured, 0)["wanted_turns"] == 0
    assert "no longer wanted" in GAME.summary({"type": "status"}, state, captured)
    for index in (0, 1, 2, 0):  # Íñigo's next two turns, round the table
        state = play(state, "turn", {"seat": index})
    after = play(state, "combat", {"attacker": 0, "defender": 1,
                                   "rolls": {"attacker": [6, 6], "defender": [4, 4]}})
    assert after["last"]["outcome"] == "fought"



@pytest.mark.parametrize("move, data, field", [
    ("duel", {"challenger": 0, "challenged": 1, "accepted": True}, "challenger"),
    ("duel", {"challenger": 1, "challenged": 0, "accepted": False}, "challenged"),
    ("combat", {"attacker": 0, "defender": 1}, "attacker"),
    ("combat", {"attacker": 1, "defender": 0}, "defender"),
    ("dice_game", {"seat": 0, "bet": 5}, "seat"),
    ("dice_game", {"seat": 1, "bet": 5, "joiners": [0]}, "joiners"),
])
def test_a_player_losing_turns_is_off_the_board_until_they_are_over(move, data, field):
    state = with_seat(ready(), 0, lost_turns=1)
    refused(state, move, data, "Íñigo is losing turns (1 left)", field)
    back = play(state, "turn", {"seat": 0})
    assert seat(back, 0)["lost_turns"] == 0
    assert play(back, move, data)["last"]["type"] == move


# ---------------------------------------------------------------- combat


def test_combat_with_pistols_wounds_on_a_three():
    state = with_seat(ready(), 0, cards=[PISTOLAS], fame=3)
    after = play(state, "combat", {
        "attacker": 0, "defender": 1, "rolls": {
            "attacker": [3, 6], "defender": [3, 5], "attacker_extra": 6, "defender_extra": 2}})
    last = after["last"]
    assert last["fight"]["line"] == ("Íñigo 4 + 1 + (3+6) = 14 vs "
                                     "Quevedo 4 + 0 + (3+5) = 12 [extra die 2: -2 Vigour]")
    assert (seat(after, 0)["vigour"], seat(after, 1)["vigour"]) == (12, 10)
    assert seat(after, 0)["fame"] == 2  # the attacker loses 1 Fame; no Fame for winning
    assert (seat(after, 0)["fencing"], seat(after, 1)["fencing"]) == (4, 4)  # no Fencing gained


@pytest.mark.parametrize("die, wounded", [(1, True), (2, True), (3, True), (4, False)])
def test_combat_wound_threshold_against_pistols(die, wounded):
    state = with_seat(ready(), 1, cards=[PISTOLAS])
    after = play(state, "combat", {"attacker": 0, "defender": 1, "rolls": {
        "attacker": [die, 6], "defender": [5, 5], "attacker_extra": 2}})
    assert (seat(after, 0)["vigour"] == 10) is wounded


def test_combat_without_pistols_a_three_does_not_wound():
    after = play(ready(), "combat", {"attacker": 0, "defender": 1, "rolls": {
        "attacker": [3, 6], "defender": [4, 4], "attacker_extra": 2}})
    assert seat(after, 0)["vigour"] == 12


def test_the_combat_loser_discards_board_cards_of_its_choice():
    state = with_seat(ready(), 1, cards=[PACHECO, SWORD, CARRIAGE])
    data = {"attacker": 0, "defender": 1, "rolls": {"attacker": [6, 6], "defender": [4, 4]}}
    after = play(state, "combat", {**data, "discard": ["Pacheco", "Carroza"]})
    assert [c["name"] for c in seat(after, 1)["cards"]] == ["Espada toledana"]
    assert "Quevedo discards Pacheco, Carroza" in GAME.summary({"type": "combat"}, state, after)
    refused(state, "combat", {**data, "discard": ["Pacheco", "Carroza", "Espada toledana"]},
            field="discard")
    refused(state, "combat", {**data, "discard": ["Pacheco", "pacheco"]}, field="discard")
    refused(state, "combat", {**data, "discard": ["Quevedo"]}, "no Quevedo", "discard")


def test_combat_on_a_weak_defender_kills_and_the_patrol_can_stop_it():
    state = with_seat(ready(), 1, vigour=2)
    after = play(state, "combat", {"attacker": 0, "defender": 1})
    assert seat(after, 1)["status"] == "dead"
    assert seat(after, 0)["wanted_turns"] == 3
    stopped = play(state, "combat", {"attacker": 0, "defender": 1,
                                     "patrol": {"distance": 2, "roll": 5}})
    assert [seat(stopped, i)["status"] for i in (0, 1)] == ["jail", "jail"]
    assert seat(stopped, 0)["wanted_turns"] == 3  # the attack on a weak player itself
    assert "the Patrol rolled 5 for distance 2" in GAME.summary({"type": "combat"}, state,
                                                                 stopped)
    refused(ready(), "combat", {"attacker": 0, "defender": 0}, field="defender")


# ---------------------------------------------------------------- dice game


def test_the_dice_game_with_joiners():
    state = ready()
    data = {"seat": 0, "bet": 5, "joiners": [1, 2]}
    won = play(state, "dice_game", {**data, "rolls": {
        "player": [6, 6], "bank": [1, 1], "1": [2, 3], "2": [4, 4]}})
    assert [seat(won, i)["ducats"] for i in range(3)] == [6 - 5 + 20, 1, 1]
    assert won["last"]["pot"] == 20
    joiner = play(state, "dice_game", {**data, "rolls": {
        "player": [1, 6], "bank": [1, 1], "1": [5, 3], "2": [4, 2]}})
    assert [seat(joiner, i)["ducats"] for i in range(3)] == [1, 21, 1]
    bank = play(state, "dice_game", {"seat": 0, "bet": 6, "rolls": {
        "player": [1, 6], "bank": [5, 5]}})
    assert (seat(bank, 0)["ducats"], bank["last"]["bank_won"]) == (0, True)
    line = GAME.summary({"type": "dice_game"}, state, bank)
    assert line == "Íñigo bet 6 at dice: Íñigo 1+6=7, bank 5+5=10; the bank takes the pot of 12"


def test_dice_game_ties_among_the_leaders_roll_again():
    state = ready()
    refused(state, "dice_game", {"seat": 0, "bet": 5, "rolls": {"player": [3, 4],
                                                               "bank": [5, 2]}}, "Equal")
    after = play(state, "dice_game", {"seat": 0, "bet": 5}, rng=Dice(3, 4, 5, 2, 6, 1, 1, 1))
    assert after["last"]["ties"] == [{"player": [3, 4], "bank": [5, 2]}]
    assert after["last"]["winner"] == 0


@pytest.mark.parametrize("data, field", [
    ({"seat": 0, "bet": 4}, "bet"),
    ({"seat": 0, "bet": 7}, "bet"),
    ({"seat": 0, "bet": 5, "joiners": [0]}, "joiners"),
    ({"seat": 0, "bet": 5, "joiners": [1, 1]}, "joiners"),
    ({"seat": 0, "bet": 5, "joiners": [5]}, "joiners"),
    ({"seat": 0, "bet": 5, "rolls": {"1": [3, 3]}}, "rolls"),
])
def test_dice_game_refusals(data, field):
    refused(ready(), "dice_game", data, field=field)


def test_dice_game_joiners_need_the_bet_and_to_be_free():
    poor = with_seat(ready(), 1, ducats=4)
    refused(poor, "dice_game", {"seat": 0, "bet": 5, "joiners": [1]},
            "Quevedo can't put in 5 ducats: Quevedo has 4.")
    jailed = with_seat(ready(), 1, status="jail")
    refused(jailed, "dice_game", {"seat": 0, "bet": 5, "joiners": [1]}, "can't join")


def test_dice_game_dice_of_a_seat_not_in_it_are_refused_by_name():
    # The panel offers every seat's dice for the joiners: dice filled in for one not ticked.
    refused(ready(), "dice_game", {"seat": 0, "bet": 5, "rolls": {"1": [3, 3]}},
            "Quevedo does not join this game of dice", field="rolls")
    refused(ready(), "dice_game", {"seat": 0, "bet": 5, "rolls": {"0": [3, 3]}},
            "Íñigo plays against the bank", field="rolls")
    refused(ready(), "dice_game", {"seat": 0, "bet": 5, "rolls": {"9": [3, 3]}},
            "There are no dice for 9", field="rolls")



@pytest.mark.parametrize("status", ["jail", "court_jail", "away", "refuge"])
def test_the_dice_game_refused_off_the_board_says_so_in_its_own_words(status):
    state = with_seat(ready(), 0, status=status)
    error = refused(state, "dice_game", {"seat": 0, "bet": 5},
                    f"Íñigo is {rules.STATUS_WORDS[status]}: "
                    "the game of dice is played on the board", "seat")
    assert "duels" not in error.message


# ---------------------------------------------------------------- Plaza Mayor


def test_the_bullfight_counts_fencing_chips_only_and_skips_players_out_of_it():
    state = with_seat(ready(), 0, cards=[SWORD])
    state = with_seat(state, 2, status="jail")
    after = play(state, "bullfight", {"rolls": {"0": [2, 2], "1": [3, 2]}})
    assert after["last"]["players"] == [0, 1]
    assert after["last"]["bases"] == {"0": 4, "1": 4}  # the sword does not count
    assert (seat(after, 1)["fame"], seat(after, 0)["fame"]) == (3, 0)
    line = GAME.summary({"type": "bullfight"}, state, after)
    assert line == "Bullfight: Íñigo 4+2+2=8, Quevedo 4+3+2=9; Quevedo wins +3 Fame"
    refused(state, "bullfight", {"rolls": {"2": [6, 6]}}, "Malatesta does not take part")
    lost = with_seat(ready(), 2, lost_turns=1)
    assert play(lost, "bullfight", {})["last"]["players"] == [0, 1]


def test_plaza_ties_only_the_leaders_roll_again():
    state = ready()
    refused(state, "bullfight", {"rolls": {"0": [6, 6], "1": [6, 6], "2": [1, 1]}}, "Equal")
    after = play(state, "bullfight", {"rolls": {"2": [1, 1]}}, rng=Dice(6, 6, 6, 6, 2, 1, 3, 1))
    assert after["last"]["ties"] == [{"0": [6, 6], "1": [6, 6]}]
    assert after["last"]["dice"] == {"0": [2, 1], "1": [3, 1], "2": [1, 1]}
    assert after["last"]["winner"] == 1


def test_the_act_of_faith_counts_fame_and_characters_not_possessions():
    state = with_seat(ready(), 0, fame=2, cards=[QUEVEDO, DADOS])
    after = play(state, "act_of_faith", {"rolls": {"0": [1, 1], "1": [6, 1], "2": [1, 2]}})
    assert after["last"]["bases"] == {"0": 4, "1": 0, "2": 0}
    assert after["last"]["winner"] == 1
    assert seat(after, 1)["fame"] == 4


def test_emilio_bocanegra_wins_the_act_of_faith():
    state = with_seat(ready(), 2, cards=[BOCANEGRA])
    after = play(state, "act_of_faith", {"rolls": {"0": [6, 6]}})
    assert after["last"]["winner"] == 2
    assert seat(after, 2)["fame"] == 4
    assert GAME.summary({"type": "act_of_faith"}, state, after) == (
        "Act of Faith: Malatesta wins with Emilio Bocanegra (+4 Fame)")
    # A holder who is not in the square (jail) does not take part, so does not win it.
    jailed = with_seat(state, 2, status="jail")
    assert play(jailed, "act_of_faith", {"rolls": {"0": [6, 6], "1": [1, 1]}})["last"][
        "winner"] == 0


def test_the_plaza_needs_someone_free():
    state = ready()
    for index in range(3):
        state = with_seat(state, index, status="jail")
    refused(state, "bullfight", {}, "No player is free")
    refused(state, "act_of_faith", {}, "No player is free")


# ---------------------------------------------------------------- death


def test_death_discards_the_cards_and_returns_the_chips():
    state = with_seat(ready(), 0, cards=[QUEVEDO], fame=7, attacks=2, wanted_turns=2)
    after = play(state, "death", {"seat": 0})
    sheet = seat(after, 0)
    assert (sheet["status"], sheet["cards"], sheet["attacks"]) == ("dead", [], 0)
    assert [sheet[k] for k in ("vigour", "fame", "fencing", "ducats", "wanted_turns")] == [0] * 5
    assert sheet["totals"] == {"fame": 0, "vigour": 0, "fencing": 0}
    assert GAME.summary({"type": "death"}, state, after) == "Íñigo died"


def test_death_with_vigour_cards_saves_and_recovers_at_three_chips():
    state = with_seat(ready(), 0, cards=[CARIDAD, QUEVEDO])
    after = play(state, "death", {"seat": 0})
    sheet = seat(after, 0)
    assert (sheet["status"], sheet["vigour"], sheet["recovering"]) == ("free", 0, True)
    assert len(sheet["cards"]) == 2
    assert GAME.summary({"type": "death"}, state, after) == "Íñigo is saved by their cards"
    after = play(after, "adjust", {"seat": 0, "stat": "vigour", "delta": 2})
    assert seat(after, 0)["recovering"] is True
    after = play(after, "adjust", {"seat": 0, "stat": "vigour", "delta": 1})
    assert seat(after, 0)["recovering"] is False


# ---------------------------------------------------------------- El Valido, end, standings


def test_el_valido_needs_thirty_fame_with_the_cards():
    state = with_seat(ready(), 0, fame=29)
    refused(state, "valido", {"seat": 0, "won": True}, "Íñigo has 29 Fame: El Valido needs 30")
    state = with_seat(state, 0, fame=28, cards=[QUEVEDO])
    missed = play(state, "valido", {"seat": 0, "won": False})
    assert not GAME.finished(missed)
    refused(state, "valido", {"seat": 0}, field="won")



@pytest.mark.parametrize("changes, why", [
    ({"status": "jail"}, "is in the town jail"),
    ({"status": "court_jail"}, "is in the court jail"),
    ({"status": "refuge"}, "is in refuge in a church"),
    ({"status": "away"}, "is away from Madrid"),
    ({"lost_turns": 2}, "is losing turns (2 left)"),
])
def test_el_valido_is_reached_only_by_a_free_player_on_the_board(changes, why):
    state = with_seat(ready(), 0, fame=30, **changes)
    for won in (True, False):
        refused(state, "valido", {"seat": 0, "won": won},
                f"Íñigo {why}: El Valido is reached from the board", "seat")
    # A wanted player is free on the board: the Valido box is his to reach.
    wanted = with_seat(ready(), 0, fame=30, wanted_turns=2)
    assert GAME.finished(play(wanted, "valido", {"seat": 0, "won": True}))


def test_el_valido_won_ends_the_game_with_that_player_first_and_sole_winner():
    state = with_seat(ready(), 0, fame=30, ducats=0)
    state = with_seat(state, 1, fame=30, ducats=20)
    state = with_seat(state, 2, fame=30, ducats=20)
    after = play(state, "valido", {"seat": 0, "won": True})
    assert GAME.finished(after)
    rows = GAME.standings(after)
    assert [(r["seat"], r["rank"], r["winner"]) for r in rows] == [
        (0, 1, True), (1, 2, False), (2, 2, False)]
    assert rows[0]["details"]["valido"] is True
    assert "enters the King's service and wins" in GAME.summary({"type": "valido"}, state, after)


def test_the_end_ranks_by_fame_and_half_the_ducats():
    state = with_seat(ready(), 0, fame=10, ducats=7)  # 13.5
    state = with_seat(state, 1, fame=9, ducats=8)  # 13
    state = with_seat(state, 2, fame=11, ducats=5, cards=[QUEVEDO])  # 13 + 2.5 = 15.5
    after = play(state, "end", {})
    assert GAME.finished(after)
    rows = GAME.standings(after)
    assert [(r["seat"], r["score"], r["rank"], r["winner"]) for r in rows] == [
        (2, 15.5, 1, True), (0, 13.5, 2, False), (1, 13, 3, False)]
    assert GAME.summary({"type": "end"}, state, after) == (
        "The players stopped: Malatesta leads with 15.5")


def test_equal_scores_share_the_win():
    state = with_seat(ready(), 0, fame=3, ducats=4)
    state = with_seat(state, 1, fame=4, ducats=2)
    rows = GAME.standings(state)
    assert [(r["seat"], r["rank"], r["winner"]) for r in rows][:2] == [(0, 1, True), (1, 1, True)]
    assert isinstance(rows[0]["score"], int)


# ---------------------------------------------------------------- properties

POOL = [QUEVEDO, PACHECO, PISTOLAS, DADOS, CARRIAGE, BOCANEGRA, CARIDAD, SWORD]
N = 3


def dice():
    return st.lists(st.integers(1, 6), min_size=2, max_size=2)


seat_no = st.integers(0, N - 1)
maybe_rolls = st.one_of(st.none(), st.fixed_dictionaries({}, optional={
    "challenger": dice(), "challenged": dice(), "challenger_extra": st.integers(1, 6)}))

MOVES = st.one_of(
    st.builds(lambda s, f: ("setup", {"seat": s, "fencing": f, "ducats": 10 - f}),
              seat_no, st.integers(2, 8)),
    st.builds(lambda s: ("turn", {"seat": s}), seat_no),
    st.builds(lambda s, stat, d: ("adjust", {"seat": s, "stat": stat, "delta": d}),
              seat_no, st.sampled_from(rules.STATS), st.integers(-14, 14)),
    st.builds(lambda s, a, c: ("card", {"seat": s, "action": a, "card": c}),
              seat_no, st.sampled_from(["add", "add", "remove"]), st.sampled_from(POOL)),
    st.builds(lambda f, t, a: ("attack", {"from": f, "to": t, "action": a}),
              seat_no, seat_no, st.sampled_from(["play", "resolve"])),
    st.builds(lambda s, status, lost: ("status", {"seat": s, "status": status,
                                                  "lost_turns": lost}),
              seat_no, st.sampled_from(rules.STATUSES), st.integers(0, 2)),
    st.builds(lambda a, b, acc, r, p: ("duel", {
        "challenger": a, "challenged": b, "accepted": acc, "patrol": p,
        **({"rolls": r} if r else {})}),
        seat_no, seat_no, st.booleans(), maybe_rolls,
        st.one_of(st.none(), st.fixed_dictionaries({"distance": st.integers(0, 9)}))),
    st.builds(lambda a, b: ("combat", {"attacker": a, "defender": b}), seat_no, seat_no),
    st.builds(lambda s, bet, j: ("dice_game", {"seat": s, "bet": bet, "joiners": j}),
              seat_no, st.integers(5, 8), st.lists(seat_no, max_size=2)),
    st.just(("bullfight", {})),
    st.just(("act_of_faith", {})),
    st.builds(lambda s: ("death", {"seat": s}), seat_no),
    st.builds(lambda s, w: ("valido", {"seat": s, "won": w}), seat_no, st.booleans()),
)
SETUPS = [("setup", {"seat": i, "fencing": 3 + i, "ducats": 7 - i}) for i in range(N)]


def play_log(seed, proposals):
    """Apply the proposals one at a time, as the platform does, keeping only the accepted."""
    names = NAMES[:N]
    state = GAME.setup(names, {}, random.Random(f"{seed}:0"))
    log, states = [], [state]
    for move, data in [*SETUPS, *proposals]:
        if GAME.finished(state):
            break
        seq = len(log) + 1
        try:
            state = GAME.moves[move](state, data, None, random.Random(f"{seed}:{seq}"))
        except RuleViolation:
            continue
        log.append({"seq": seq, "type": move, "data": data, "actor": None})
        states.append(state)
    return names, log, states


def check_sheet(sheet):
    for stat in ("vigour", "fame", "fencing", "ducats", "attacks", "lost_turns",
                 "wanted_turns"):
        assert sheet[stat] >= 0, stat
    assert sheet["vigour"] <= rules.MAX_VIGOUR
    assert sheet["attacks"] <= rules.MAX_ATTACKS
    assert all(value >= 0 for value in sheet["totals"].values())
    assert sheet["totals"] == totals(sheet)
    assert (sheet["zone"], sheet["income"]) == (zone(sheet), income(sheet))
    names = [c["name"].casefold() for c in sheet["cards"]]
    assert len(names) == len(set(names))
    if sheet["status"] == "dead":
        assert sheet["cards"] == [] and sheet["vigour"] == 0


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), proposals=st.lists(MOVES, max_size=30))
def test_chips_stay_in_bounds_and_replay_gives_the_cached_state(seed, proposals):
    names, log, states = play_log(seed, proposals)
    for state in states:
        for sheet in state["seats"]:
            check_sheet(sheet)
        assert json.loads(json.dumps(state)) == state
        GAME.standings(state)
    assert replay(GAME, names, {}, str(seed), log) == states[-1]
    # Undo: replaying all moves but the last gives the state before the last.
    assert replay(GAME, names, {}, str(seed), log[:-1]) == states[-2]
    for move, before, after in zip(log, states[:-1], states[1:], strict=True):
        assert GAME.summary({"type": move["type"], "data": move["data"]}, before, after)


# Fields of any other shape than the moves' serializers write never reach the rules: the
# conformance test checks that whatever a serializer lets through, the rules take or refuse with
# a sentence (tests/test_conformance.py), and tests/api/test_alatriste.py the shapes refused.


def test_an_attack_card_is_its_players_to_play_and_its_targets_to_carry_out():
    state = ready()
    assert move_authority(GAME, "attack", {"action": "play", "from": 0, "to": 1},
                          state) == (SEAT, (0,))
    assert move_authority(GAME, "attack", {"action": "resolve", "from": 0, "to": 1},
                          state) == (SEAT, (1,))
