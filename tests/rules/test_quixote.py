"""Don Quixote's pure rules: cards, castles, the three scorings, the track, the standings."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import engine
from companion.engine import RuleViolation
from games.quixote import rules
from games.quixote.rules import GAME
from tests.rules.texts import watching

# Every refusal these tests meet and every log line and "now" line of every move they play is
# checked as a Text that keeps its values in a translation (tests/rules/texts.py).
watched = watching(GAME)

SEED = "quixote-test"


# --- helpers ------------------------------------------------------------------------------------

def new_game(names=("Peter", "Ana"), deck="app"):
    return engine.initial_state(GAME, list(names), GAME.resolve_options({"deck": deck},
                                                                        len(names)), SEED)


class Table:
    """A game played move by move, keeping the log so that it can be replayed."""

    def __init__(self, names=("Peter", "Ana"), deck="app", seed=SEED):
        self.names, self.deck, self.seed = list(names), deck, seed
        self.state = engine.initial_state(GAME, self.names, {"deck": deck}, seed)
        self.moves = []

    def play(self, kind, data=None, actor=None):
        seq = len(self.moves) + 1
        before = self.state
        after = engine.apply(GAME, before, kind, data or {}, actor, self.seed, seq)
        self.moves.append({"seq": seq, "type": kind, "data": data or {}, "actor": actor})
        self.state = after
        return GAME.summary({"type": kind, "data": data or {}}, before, after)

    def refused(self, kind, data=None):
        before = copy.deepcopy(self.state)
        with pytest.raises(RuleViolation) as caught:
            engine.apply(GAME, self.state, kind, data or {}, None, self.seed, 999)
        assert self.state == before  # nothing half-applied, input not mutated
        return caught.value

    def replayed(self):
        return engine.replay(GAME, self.names, {"deck": self.deck}, self.seed, self.moves)


def plain(seat, round_, c6=0, c4=0, churches=(), windmills=(), shields=0, knights=None):
    data = {"seat": seat, "round": round_, "castle6_knights": c6, "castle4_knights": c4,
            "church_groups": list(churches), "windmill_groups": list(windmills),
            "defense_shields": shields}
    if knights is not None:
        data["knight_groups"] = knights
    return data


def turn_round(table, cards=None):
    count = cards if cards is not None else table.state["cards_in_round"]
    return [table.play("turn") for _ in range(count)]


def score_everyone(table, round_, **numbers):
    for seat in range(len(table.names)):
        table.play("score", plain(seat, round_, **numbers))


def play_app_game(names=("Peter", "Ana")):
    table = Table(names)
    table.play("castles")
    for round_ in (1, 2, 3):
        turn_round(table)
        score_everyone(table, round_, c6=round_)
    return table


WORKED_ROUND_3 = {"castle6_knights": 1, "castle4_knights": 4, "church_groups": [4],
                  "windmill_groups": [2, 5], "defense_shields": 3,
                  "knight_groups": [[2, 3, 1, 3], [1]]}


# --- fields and the castle-touching rule -------------------------------------------------------

def test_there_are_24_fields_a1_to_h3():
    assert len(rules.FIELDS) == 24 == len(set(rules.FIELDS))
    assert {"A1", "H3", "B2", "G2"} <= set(rules.FIELDS)
    assert "I1" not in rules.FIELDS and "A4" not in rules.FIELDS


def _neighbours_by_offsets(name):
    """An independent reading: the 8 compass offsets, letters moved with chr/ord."""
    result = set()
    for d_col in (-1, 0, 1):
        for d_row in (-1, 0, 1):
            if (d_col, d_row) == (0, 0):
                continue
            other = chr(ord(name[0]) + d_col) + str(int(name[1]) + d_row)
            if "A" <= other[0] <= "H" and other[1] in "123" and len(other) == 2:
                result.add(other)
    return result


def test_touching_rule_over_all_576_pairs():
    pairs = [(a, b) for a in rules.FIELDS for b in rules.FIELDS]
    assert len(pairs) == 576
    for a, b in pairs:
        assert rules.fields_touch(a, b) == (b in _neighbours_by_offsets(a)), (a, b)


def test_touching_examples():
    assert rules.fields_touch("F1", "G2")  # corner
    assert rules.fields_touch("C2", "C3")  # side
    assert not rules.fields_touch("F1", "C2")
    assert not rules.fields_touch("A1", "A3")
    assert not rules.fields_touch("B2", "B2")  # a field does not touch itself
    assert sum(rules.fields_touch("B2", other) for other in rules.FIELDS) == 8
    assert sum(rules.fields_touch("A1", other) for other in rules.FIELDS) == 3


def test_parse_field_reads_lower_case_and_refuses_unknown():
    assert rules.parse_field(" g3 ", "field") == "G3"
    for bad in ("Z9", "A4", "", 7, None, "A"):
        with pytest.raises(RuleViolation) as caught:
            rules.parse_field(bad, "field")
        assert caught.value.field == "field"


# --- options and set-up -------------------------------------------------------------------------

def test_options_default_and_refusals():
    assert GAME.options == {"deck": "app"}
    for deck in ("app", "table", "none"):
        assert GAME.resolve_options({"deck": deck}, 2) == {"deck": deck}
    with pytest.raises(RuleViolation) as caught:
        GAME.resolve_options({"deck": "shuffled"}, 2)
    assert caught.value.field == "deck"
    GAME.check_seat_count(1)
    GAME.check_seat_count(4)
    with pytest.raises(RuleViolation):
        GAME.check_seat_count(5)


def test_setup_state_shape():
    state = new_game()
    assert state["phase"] == "castles" and state["round"] == 1
    assert state["castles"] == {"6": None, "4": None}
    assert state["turned"] == [] and state["current"] is None
    assert state["cards_in_round"] == 9 and state["turned_in_round"] == 0
    assert state["seats"][0] == {"name": "Peter", "rounds": [], "total": 0,
                                 "track": {"space": 0, "laps": 0}}
    assert json.loads(json.dumps(state)) == state
    none = new_game(deck="none")
    assert none["phase"] == "scoring" and none["cards_in_round"] is None


# --- castles ------------------------------------------------------------------------------------

def test_app_castles_never_touch_and_are_drawn_from_rng():
    seen = set()
    for seed in range(300):
        table = Table(seed=f"s{seed}")
        line = table.play("castles")
        six, four = table.state["castles"]["6"], table.state["castles"]["4"]
        assert six != four and not rules.fields_touch(six, four)
        assert line.startswith(f"Castles: 6 at {six}, 4 at {four}")
        assert table.state["phase"] == "placing"
        for refused in table.state["last"]["refused"]:
            assert rules.fields_touch(six, refused) and refused in line
        seen.add(six)
    assert len(seen) > 15  # really random


class ScriptedRng(random.Random):
    """Hands out the picks given, recording every pool offered."""

    def __init__(self, picks):
        super().__init__(0)
        self.picks, self.pools = list(picks), []

    def choice(self, seq):
        self.pools.append(list(seq))
        pick = self.picks.pop(0)
        assert pick in seq
        return pick


def test_four_castle_redrawn_and_the_refused_card_goes_back():
    rng = ScriptedRng(["F1", "G2", "E2", "C2"])
    assert rules._draw_castles(rng) == ("F1", "C2", ["G2", "E2"])
    first, second, third, fourth = rng.pools
    assert len(first) == 24
    assert "F1" not in second and len(second) == 23
    assert "G2" not in third and len(third) == 22  # the new card comes from the rest of the deck
    assert "G2" in fourth and "E2" not in fourth  # G2 was shuffled back in, E2 is out
    state = rules.move_castles(new_game(), {}, None, ScriptedRng(["F1", "G2", "C2"]))
    assert state["castles"] == {"6": "F1", "4": "C2"}
    line = GAME.summary({"type": "castles", "data": {}}, new_game(), state)
    assert line == "Castles: 6 at F1, 4 at C2 (G2 touched the 6-castle and went back into the deck)"


def test_table_castles_named_and_refusals():
    table = Table(deck="table")
    error = table.refused("castles", {"castle6": "F1", "castle4": "G2"})
    assert error.message == "The castles may not touch, not even diagonally: F1 and G2"
    assert error.field == "castle4"
    assert table.refused("castles", {"castle6": "F1", "castle4": "F1"}).field == "castle4"
    assert table.refused("castles", {"castle6": "F1"}).field == "castle4"
    assert table.refused("castles", {"castle4": "C2"}).field == "castle6"
    # A field's name as the serializer writes it ("f1" -> "F1"; "Q1" refused): tests/api.
    assert table.play("castles", {"castle6": "F1", "castle4": "C2"}) == "Castles: 6 at F1, 4 at C2"
    assert table.state["castles"] == {"6": "F1", "4": "C2"}
    error = table.refused("castles", {"castle6": "A1", "castle4": "C2"})
    assert "already placed" in error.message


def test_app_castles_refuse_named_fields_and_a_second_draw():
    table = Table()
    assert table.refused("castles", {"castle6": "F1", "castle4": "C2"}).field == "castle6"
    table.play("castles")
    assert "already placed" in table.refused("castles").message


# --- turning cards ------------------------------------------------------------------------------

def test_turn_refused_before_the_castles():
    assert "castles first" in Table().refused("turn").message
    assert "castles first" in Table(deck="table").refused("turn", {"field": "A1"}).message


def test_app_turns_free_fields_and_counts_cards():
    table = Table()
    table.play("castles")
    lines = turn_round(table)
    castles = set(table.state["castles"].values())
    assert len(set(table.state["turned"])) == 9 and not castles & set(table.state["turned"])
    assert lines[3] == f"Round 1 · card 4 of 9: {table.state['turned'][3]}"
    assert table.state["current"] == table.state["turned"][-1]
    assert table.state["phase"] == "scoring" and table.state["turned_in_round"] == 9
    assert table.refused("turn", {"field": "A1"}).field in ("field", "type")


def test_app_turn_refuses_a_named_field():
    table = Table()
    table.play("castles")
    assert table.refused("turn", {"field": "A1"}).field == "field"


def test_next_round_waits_for_every_score_and_names_who():
    table = Table(("Peter", "Ana", "Luis"))
    table.play("castles")
    assert rules.awaited(table.state) == []  # the cards are turned at the table
    turn_round(table)
    message = table.refused("turn").message
    assert "Peter, Ana and Luis have scored round 1" in message
    assert rules.awaited(table.state) == [0, 1, 2]
    table.play("score", plain(0, 1))
    table.play("score", plain(2, 1))
    assert "once Ana has scored round 1" in table.refused("turn").message
    assert rules.awaited(table.state) == [1]
    line = table.play("score", plain(1, 1))
    assert line.endswith("everyone has scored round 1")
    assert rules.awaited(table.state) == []
    assert table.state["phase"] == "placing" and table.state["round"] == 2
    assert table.state["cards_in_round"] == 7 and table.state["turned_in_round"] == 0
    lines = turn_round(table, 4)
    assert lines[-1] == f"Round 2 · card 4 of 7: {table.state['current']}"


def test_a_whole_game_turns_22_cards_and_round_3_ends_on_the_last_free_field():
    table = Table()
    table.play("castles")
    turn_round(table)
    score_everyone(table, 1)
    turn_round(table)
    score_everyone(table, 2)
    assert table.state["cards_in_round"] == 6
    lines = turn_round(table)
    turned = table.state["turned"]
    assert len(turned) == 22 == 9 + 7 + 5 + 1
    assert sorted(turned + list(table.state["castles"].values())) == sorted(rules.FIELDS)
    assert "last free field" in lines[-1] and "last free field" not in lines[-2]
    assert lines[-1].startswith(f"Round 3 · card 6 of 6: {turned[-1]}")
    assert table.state["phase"] == "scoring"
    assert "is over" in table.refused("turn").message
    score_everyone(table, 3)
    assert table.state["phase"] == "finished" and GAME.finished(table.state)
    assert "over" in table.refused("turn").message


def test_table_turn_refusals_and_the_last_card():
    table = Table(("Solo",), deck="table")
    table.play("castles", {"castle6": "F1", "castle4": "C2"})
    assert table.refused("turn", {}).field == "field"
    assert table.refused("turn", {"field": "F1"}).message == "F1 holds the 6-castle."
    assert table.refused("turn", {"field": "C2"}).message == "C2 holds the 4-castle."
    assert table.play("turn", {"field": "G3"}) == "Round 1 · card 1 of 9: G3"
    assert table.refused("turn", {"field": "G3"}).message == "G3 was already turned."
    free = [name for name in rules.FIELDS if name not in ("F1", "C2", "G3")]
    for round_, count in ((1, 8), (2, 7), (3, 5)):
        for _ in range(count):
            table.play("turn", {"field": free.pop(0)})
        if round_ < 3:
            table.play("score", plain(0, round_))
    assert len(free) == 1
    line = table.play("turn", {})  # the last card may leave out the field
    assert table.state["current"] == free[0]
    assert line == f"Round 3 · card 6 of 6: {free[0]}, the last free field (the tile set aside)"


def test_deck_none_refuses_castles_and_turns():
    table = Table(deck="none")
    for kind in ("castles", "turn"):
        error = table.refused(kind)
        assert "keeps only the scores" in error.message


# --- scoring ------------------------------------------------------------------------------------

def test_worked_example_peter_57():
    table = Table(("Peter",))
    table.play("castles")
    turn_round(table)
    table.play("score", plain(0, 1, c6=1))
    turn_round(table)
    table.play("score", plain(0, 2, c6=2, c4=2, churches=[4]))
    assert table.state["seats"][0]["total"] == 24
    turn_round(table)
    line = table.play("score", {"seat": 0, "round": 3, **WORKED_ROUND_3})
    seat = table.state["seats"][0]
    assert seat["rounds"][2] == {"round": 3, "castle6": 0, "castle4": 4, "churches": 8,
                                 "windmills": 12, "defense": 0, "knights": 9, "total": 33}
    assert [entry["total"] for entry in seat["rounds"]] == [6, 18, 33]
    assert seat["total"] == 57 and seat["track"] == {"space": 57, "laps": 0}
    assert line == ("Peter scored round 3: 33 (castles 0+4, churches 8, windmills 12, "
                    "defense 0, knights 9); total 57; the game is over")
    row = GAME.standings(table.state)[0]
    assert row["score"] == 57 and row["winner"] and row["details"]["round_totals"] == [6, 18, 33]
    assert row["details"]["rating"] == ""


def test_round_points_is_pure_and_matches_the_example():
    data = copy.deepcopy(WORKED_ROUND_3)
    assert rules.round_points(3, data)["total"] == 33
    assert data == WORKED_ROUND_3
    assert set(rules.round_points(1, plain(0, 1))) == set(rules.BREAKDOWN_KEYS)
    with pytest.raises(RuleViolation):
        rules.round_points(4, data)
    with pytest.raises(RuleViolation):
        rules.round_points(1, data)  # knight groups in round 1


@pytest.mark.parametrize("size, points", [(1, 0), (2, 2), (3, 6), (5, 10), (6, 12)])
def test_church_and_windmill_groups(size, points):
    assert rules.round_points(1, plain(0, 1, churches=[size]))["churches"] == points
    assert rules.round_points(2, plain(0, 2, windmills=[size]))["windmills"] == points


def test_several_groups_add_up():
    assert rules.round_points(1, plain(0, 1, churches=[1, 2, 3]))["churches"] == 8


@pytest.mark.parametrize("round_", [1, 2, 3])
def test_castles_need_as_many_knights_as_the_round(round_):
    short = rules.round_points(round_, plain(0, round_, c6=round_ - 1, c4=round_ - 1))
    enough = rules.round_points(round_, plain(0, round_, c6=round_, c4=round_ + 2))
    assert (short["castle6"], short["castle4"]) == (0, 0)
    assert (enough["castle6"], enough["castle4"]) == (6, 4)


@pytest.mark.parametrize("round_", [1, 2, 3])
def test_defense_needs_4_8_12_shields(round_):
    need = 4 * round_
    assert rules.round_points(round_, plain(0, round_, shields=need - 1))["defense"] == 0
    assert rules.round_points(round_, plain(0, round_, shields=need))["defense"] == 5


def test_best_knight_group_of_at_least_two():
    assert rules.round_points(3, plain(0, 3, knights=[[3], [1, 1]]))["knights"] == 2
    assert rules.round_points(3, plain(0, 3, knights=[[3], [2]]))["knights"] == 0
    assert rules.round_points(3, plain(0, 3, knights=[[1, 2], [3, 3]]))["knights"] == 6
    assert rules.round_points(3, plain(0, 3))["knights"] == 0  # left out: no group
    assert rules.round_points(1, plain(0, 1, knights=[]))["knights"] == 0


# --- the numbers fit the tiles ------------------------------------------------------------------
# The ceilings worked out by hand from the rulebook (rules.py's docstring says how): after round
# 1, 2, 3 a principality has 9, 16, 22 tiles besides its castles, two halves each, one church,
# windmill or knight on a half at most; 18 of the 24 fields are on the edge, a shield is 3 at most.

TILES = {1: 9, 2: 16, 3: 22}
HALVES = {1: 18, 2: 32, 3: 44}
EDGE_SHIELDS = {1: 3 * 2 * 9, 2: 3 * 2 * 16, 3: 3 * 2 * 18}


def refusal_of(round_, data):
    with pytest.raises(RuleViolation) as caught:
        rules.round_points(round_, data)
    return caught.value


def test_the_ceilings_come_from_the_tile_counts():
    assert len(rules.EDGE_FIELDS) == 18
    assert not {"B2", "C2", "D2", "E2", "F2", "G2"} & set(rules.EDGE_FIELDS)
    for round_ in rules.ROUNDS:
        assert rules.ceilings(round_) == {
            "tiles": TILES[round_], "edge_tiles": min(TILES[round_], 18),
            "churches": HALVES[round_], "windmills": HALVES[round_],
            "knights": HALVES[round_], "defense_shields": EDGE_SHIELDS[round_]}


@pytest.mark.parametrize("round_", rules.ROUNDS)
@pytest.mark.parametrize("name, building, points", [("church_groups", "church", "churches"),
                                                    ("windmill_groups", "windmill",
                                                     "windmills")])
def test_church_and_windmill_groups_fit_the_tiles(round_, name, building, points):
    most = HALVES[round_]
    full = {**plain(0, round_), name: [most - 3, 2, 1]}
    assert rules.round_points(round_, full)[points] == 2 * (most - 3) + 2
    error = refusal_of(round_, {**plain(0, round_), name: [most - 3, 2, 2]})
    assert error.field == name
    assert error.message == (f"The {building} groups add up to {most + 1} {points}: after "
                             f"round {round_} the {TILES[round_]} tiles hold at most {most} "
                             "(one on each tile half).")


def test_a_church_group_of_1000_after_nine_tiles_is_refused_and_changes_nothing():
    table = Table(("Vanessa",))
    table.play("castles")
    turn_round(table)
    error = table.refused("score", plain(0, 1, churches=[1000]))
    assert error.field == "church_groups" and "at most 18" in error.message
    table.play("score", plain(0, 1, churches=[18]))
    assert table.state["seats"][0]["total"] == 36


@pytest.mark.parametrize("round_", rules.ROUNDS)
@pytest.mark.parametrize("name, castle", [("castle6_knights", "6"), ("castle4_knights", "4")])
def test_castle_knights_fit_the_tiles(round_, name, castle):
    most = HALVES[round_]
    assert rules.round_points(round_, {**plain(0, round_), name: most})[f"castle{castle}"] == (
        rules.CASTLE_POINTS[castle])
    error = refusal_of(round_, {**plain(0, round_), name: most + 1})
    assert error.field == name
    assert error.message == (f"The {castle}-castle cannot have {most + 1} knights connected: "
                             f"after round {round_} the {TILES[round_]} tiles hold at most "
                             f"{most} knights (one on each tile half).")


@pytest.mark.parametrize("round_", rules.ROUNDS)
def test_defense_shields_fit_the_edge(round_):
    most = EDGE_SHIELDS[round_]
    assert rules.round_points(round_, plain(0, round_, shields=most))["defense"] == 5
    error = refusal_of(round_, plain(0, round_, shields=most + 1))
    assert error.field == "defense_shields"
    assert error.message == (f"{most + 1} shields cannot defend the realm: after round "
                             f"{round_} at most {min(TILES[round_], 18)} tiles lie on the "
                             f"edge, with at most {most} shields (a knight of 3 on each tile "
                             "half).")


def test_knight_groups_fit_the_tiles():
    full = plain(0, 3, knights=[[3] * 40, [1, 2], [1, 1]])
    assert rules.round_points(3, full)["knights"] == 120
    error = refusal_of(3, plain(0, 3, knights=[[3] * 40, [1, 2], [1, 1, 1]]))
    assert error.field == "knight_groups"
    assert error.message == ("The knight groups add up to 45 knights: after round 3 the 22 "
                             "tiles hold at most 44 (one on each tile half).")


def fitting(groups, most, size=lambda group: group):
    """The groups, in order, that fit in `most` members together (one too many is left out)."""
    kept = []
    for group in groups:
        if sum(map(size, kept)) + size(group) <= most:
            kept.append(group)
    return kept


@st.composite
def scores_within_the_ceilings(draw):
    round_ = draw(st.sampled_from(rules.ROUNDS))
    most = HALVES[round_]
    sizes = st.lists(st.integers(1, most), max_size=6)
    score = {"castle6_knights": draw(st.integers(0, most)),
             "castle4_knights": draw(st.integers(0, most)),
             "church_groups": fitting(draw(sizes), most),
             "windmill_groups": fitting(draw(sizes), most),
             "defense_shields": draw(st.integers(0, EDGE_SHIELDS[round_]))}
    if round_ == 3:
        groups = draw(st.lists(st.lists(st.integers(1, 3), min_size=1, max_size=most),
                               max_size=4))
        score["knight_groups"] = fitting(groups, most, size=len)
    return round_, score


@settings(max_examples=80, deadline=None)
@given(scores_within_the_ceilings(), st.sampled_from(["castle6_knights", "castle4_knights",
                                                      "church_groups", "windmill_groups",
                                                      "defense_shields", "knight_groups"]))
def test_a_score_within_the_ceilings_is_accepted_and_one_above_is_refused(drawn, over):
    round_, score = drawn
    assert rules.round_points(round_, score)["round"] == round_
    if over == "knight_groups" and round_ != 3:
        return
    most = EDGE_SHIELDS[round_] if over == "defense_shields" else HALVES[round_]
    if over.endswith("_groups"):
        members = [1] * (most + 1)
        above = {**score, over: [members] if over == "knight_groups" else members}
    else:
        above = {**score, over: most + 1}
    error = refusal_of(round_, above)
    assert error.field == over and f"at most {most}" in error.message


# A score's numbers are whole numbers and lists of them as its serializer writes them (the
# values of another shape are refused there: tests/api/test_quixote.py); the rules refuse what
# the table rules out.
@pytest.mark.parametrize("name, value", [("seat", 1), ("church_groups", None),
                                         ("windmill_groups", None)])
def test_score_refuses_values_naming_the_field(name, value):
    table = Table(("Solo",), deck="none")
    data = plain(0, 3)
    data[name] = value
    error = table.refused("score", data)
    assert error.field == name and error.message


@pytest.mark.parametrize("name", ["church_groups", "windmill_groups"])
def test_score_refuses_a_missing_field(name):
    data = plain(0, 1)
    del data[name]
    assert Table(("Solo",), deck="none").refused("score", data).field == name


@pytest.mark.parametrize("round_", [1, 2])
def test_knight_groups_refused_before_round_3(round_):
    table = Table(("Solo",), deck="none")
    for earlier in range(1, round_):
        table.play("score", plain(0, earlier))
    error = table.refused("score", plain(0, round_, knights=[[1, 2]]))
    assert error.field == "knight_groups" and "only in round 3" in error.message
    table.play("score", plain(0, round_, knights=[]))


def test_rounds_are_scored_in_order_per_seat():
    table = Table(deck="none")
    error = table.refused("score", plain(0, 2))
    assert error.field == "round" and "Peter has not scored round 1" in error.message
    table.play("score", plain(0, 1))
    table.play("score", plain(0, 2))  # Peter may go ahead of Ana
    assert "Ana has not scored round 1" in table.refused("score", plain(1, 3)).message


def test_a_round_is_scored_only_once_its_cards_are_turned():
    table = Table()
    assert "9 of its 9 cards" in table.refused("score", plain(0, 1)).message
    table.play("castles")
    turn_round(table, 5)
    error = table.refused("score", plain(0, 1))
    assert error.field == "round"
    assert error.message == "Round 1 cannot be scored yet: 4 of its 9 cards are still to be turned."
    turn_round(table, 4)
    score_everyone(table, 1)
    assert "7 of its 7" in table.refused("score", plain(0, 2)).message
    turn_round(table, 2)
    assert "5 of its 7" in table.refused("score", plain(0, 2)).message


def test_a_correction_replaces_the_earlier_score():
    table = Table()
    table.play("castles")
    turn_round(table)
    table.play("score", plain(0, 1, c6=1))
    line = table.play("score", plain(0, 1, c6=1, c4=1))
    assert line.startswith("Peter re-scored round 1: 10 (was 6)")
    seat = table.state["seats"][0]
    assert len(seat["rounds"]) == 1 and seat["total"] == 10
    assert table.state["phase"] == "scoring"  # Ana has still to score
    score_everyone(table, 1)  # Peter corrects once more, Ana scores: round 2 begins
    turn_round(table, 3)
    table.play("score", plain(1, 1, shields=4))  # a late correction of round 1 in round 2
    assert table.state["round"] == 2 and table.state["turned_in_round"] == 3
    assert table.state["seats"][1]["total"] == 5


def test_score_summary_lists_the_breakdown():
    table = Table(deck="none")
    table.play("score", plain(0, 1))
    line = table.play("score", plain(0, 2, c6=2, c4=2, churches=[2], shields=8))
    assert line == ("Peter scored round 2: 17 (castles 6+4, churches 2, windmills 0, "
                    "defense 5); total 17")


def test_deck_none_phase_round_and_end():
    table = Table(deck="none")
    assert table.state["phase"] == "scoring" and table.state["round"] == 1
    for round_ in (1, 2, 3):
        table.play("score", plain(0, round_))
    assert table.state["round"] == 1 and not GAME.finished(table.state)
    table.play("score", plain(1, 1))
    assert table.state["round"] == 2
    table.play("score", plain(1, 2))
    table.play("score", plain(1, 3))
    assert table.state["phase"] == "finished" and table.state["round"] == 3
    assert GAME.finished(table.state)
    assert table.refused("score", plain(0, 3)).message


# --- track and standings ------------------------------------------------------------------------

@pytest.mark.parametrize("total, track", [
    (0, {"space": 0, "laps": 0}), (1, {"space": 1, "laps": 0}), (60, {"space": 60, "laps": 0}),
    (61, {"space": 1, "laps": 1}), (120, {"space": 60, "laps": 1}),
    (121, {"space": 1, "laps": 2}),
])
def test_track(total, track):
    assert rules.track_of(total) == track


def test_standings_ties_share_the_rank_and_all_win():
    table = Table(("Peter", "Ana", "Luis"), deck="none")
    table.play("score", plain(0, 1, c6=1))
    table.play("score", plain(1, 1, c4=1))
    table.play("score", plain(2, 1, c6=1))
    rows = GAME.standings(table.state)
    assert [(row["name"], row["rank"], row["winner"]) for row in rows] == [
        ("Peter", 1, True), ("Luis", 1, True), ("Ana", 3, False)]
    assert rows[0]["details"]["round_totals"] == [6]
    assert "rating" not in rows[0]["details"]


@pytest.mark.parametrize("total, rating", [
    (0, ""), (70, ""), (71, "very good"), (85, "very good"), (86, "quite rare"),
    (100, "quite rare"), (101, "absolutely incredible"),
])
def test_solitaire_rating_thresholds(total, rating):
    assert rules.rating_of(total) == rating


def test_solitaire_rating_given_once_the_game_is_over():
    table = Table(("Solo",), deck="none")
    table.play("score", plain(0, 1, c6=1))
    table.play("score", plain(0, 2))
    assert GAME.standings(table.state)[0]["details"]["rating"] == ""  # not over yet
    table.play("score", plain(0, 3, c6=3, c4=3, churches=[19], windmills=[20], shields=12,
                              knights=[[1, 2]]))
    row = GAME.standings(table.state)[0]
    assert row["score"] == 102 and row["rank"] == 1 and row["winner"]
    assert row["details"]["rating"] == "absolutely incredible"
    assert row["details"]["round_totals"] == [6, 0, 96]
    assert row["details"]["track"] == {"space": 42, "laps": 1}


# --- properties ---------------------------------------------------------------------------------

score_numbers = st.fixed_dictionaries({
    "castle6_knights": st.integers(0, 5), "castle4_knights": st.integers(0, 5),
    # Up to 18 buildings of a kind: what 9 tiles can hold (the ceilings have their own tests).
    "church_groups": st.lists(st.integers(1, 6), max_size=3),
    "windmill_groups": st.lists(st.integers(1, 6), max_size=3),
    "defense_shields": st.integers(0, 16),
})
knight_groups = st.lists(st.lists(st.integers(1, 3), min_size=1, max_size=4), max_size=3)


def scorable(state):
    """(seat, round) pairs a `score` move may take now, worked out independently."""
    pairs = []
    for index, seat in enumerate(state["seats"]):
        done = {entry["round"] for entry in seat["rounds"]}
        for round_ in (1, 2, 3):
            in_order = all(earlier in done for earlier in range(1, round_))
            turned = state["deck"] == "none" or round_ < state["round"] or (
                round_ == state["round"] and state["phase"] == "scoring")
            if in_order and turned:
                pairs.append((index, round_))
    return pairs


def draw_move(data, state):
    kinds = []
    if state["phase"] == "castles":
        kinds.append("castles")
    if state["phase"] == "placing":
        kinds.append("turn")
    pairs = scorable(state)
    if pairs:
        kinds.append("score")
    kind = data.draw(st.sampled_from(kinds))
    if kind == "castles":
        if state["deck"] == "app":
            return kind, {}
        six = data.draw(st.sampled_from(rules.FIELDS))
        four = data.draw(st.sampled_from([name for name in rules.FIELDS
                                          if name != six and not rules.fields_touch(six, name)]))
        return kind, {"castle6": six, "castle4": four}
    if kind == "turn":
        if state["deck"] == "app":
            return kind, {}
        return kind, {"field": data.draw(st.sampled_from(rules.free_fields(state)))}
    seat, round_ = data.draw(st.sampled_from(pairs))
    numbers = data.draw(score_numbers)
    if round_ == 3:
        numbers["knight_groups"] = data.draw(knight_groups)
    return kind, {"seat": seat, "round": round_, **numbers}


def play_random(data):
    seats = data.draw(st.integers(1, 4))
    deck = data.draw(st.sampled_from(rules.DECKS))
    seed = data.draw(st.text(max_size=5))
    table = Table([f"P{i}" for i in range(seats)], deck=deck, seed=seed)
    states = [table.state]
    steps = data.draw(st.integers(0, 100))
    while len(table.moves) < steps and not GAME.finished(table.state):
        kind, move_data = draw_move(data, table.state)
        table.play(kind, move_data)
        states.append(table.state)
    return table, states


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_replay_equals_the_cached_state_and_undo_is_a_shorter_replay(data):
    table, states = play_random(data)
    assert table.replayed() == table.state
    assert json.loads(json.dumps(table.state)) == table.state
    if table.moves:
        shorter = engine.replay(GAME, table.names, {"deck": table.deck}, table.seed,
                                table.moves[:-1])
        assert shorter == states[-2]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_totals_track_and_fields_stay_consistent(data):
    table, _ = play_random(data)
    state = table.state
    for seat in state["seats"]:
        assert seat["total"] == sum(entry["total"] for entry in seat["rounds"])
        for entry in seat["rounds"]:
            assert tuple(entry) == rules.BREAKDOWN_KEYS
            assert entry["total"] == sum(entry[key] for key in rules.BREAKDOWN_KEYS[1:-1])
        track = seat["track"]
        assert track["space"] + 60 * track["laps"] == seat["total"]
        assert 1 <= track["space"] <= 60 or seat["total"] == track["space"] == 0
    placed = state["turned"] + rules.castle_fields(state)
    assert len(placed) == len(set(placed))
    if state["deck"] != "none" and state["castles"]["6"]:
        assert not rules.fields_touch(state["castles"]["6"], state["castles"]["4"])
    rows = GAME.standings(state)
    assert sorted(row["seat"] for row in rows) == list(range(len(state["seats"])))
    best = max(row["score"] for row in rows)
    assert all(row["winner"] == (row["score"] == best) for row in rows)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), score_numbers, knight_groups)
def test_round_points_total_is_the_sum_of_its_parts(round_, numbers, knights):
    if round_ == 3:
        numbers = {**numbers, "knight_groups": knights}
    breakdown = rules.round_points(round_, numbers)
    assert breakdown["total"] == sum(breakdown[key] for key in rules.BREAKDOWN_KEYS[1:-1])
    assert breakdown["round"] == round_


# --- tallies ------------------------------------------------------------------------------------

def test_tallies_are_each_rounds_total_and_categories_with_knights_in_round_3():
    table = Table(("Peter", "Ana"), deck="none")
    for round_ in (1, 2, 3):
        table.play("score", plain(0, round_, c6=3, churches=(3,), windmills=(2,), shields=12,
                                  knights=[[2, 3]] if round_ == 3 else None))
        table.play("score", plain(1, round_))
    rows = {row["seat"]: row for row in GAME.standings(table.state)}
    details = copy.deepcopy(rows[0]["details"])
    tallies = GAME.tallies(details)
    assert details == rows[0]["details"]  # pure: the details are not touched
    assert tallies["round1_total"] == 6 + 6 + 2 + 5
    assert tallies["round3_total"] == 6 + 6 + 2 + 5 + 5
    assert {key: tallies[f"round2_{key}"] for key in rules.TALLIED} == {
        "castle6": 6, "castle4": 0, "churches": 6, "windmills": 2, "defense": 5}
    assert tallies["round3_knights"] == 5
    assert "round1_knights" not in tallies and "round2_knights" not in tallies
    assert len(tallies) == 3 + 3 * len(rules.TALLIED) + 1
    assert set(GAME.tallies(rows[1]["details"])) == set(tallies)
    assert all(value == 0 for key, value in GAME.tallies(rows[1]["details"]).items())


def test_tallies_cover_only_the_rounds_present_and_only_numbers():
    state = new_game(deck="none")
    assert GAME.tallies(GAME.standings(state)[0]["details"]) == {}
    table = Table(("Peter",), deck="none")
    table.play("score", plain(0, 1, c6=1))
    partial = GAME.tallies(GAME.standings(table.state)[0]["details"])
    assert set(partial) == {"round1_total", *(f"round1_{key}" for key in rules.TALLIED)}
    assert partial["round1_castle6"] == 6
    assert GAME.tallies({"round_totals": [4, None, True], "rounds": [{"churches": "2"}]}) == {
        "round1_total": 4}


def test_the_numbers_the_panel_shows_come_from_the_rules():
    assert [rules.round_of_card(position) for position in (0, 8, 9, 15, 16, 21)] == [
        1, 1, 2, 2, 3, 3]
    assert [rules.shields_needed(r) for r in rules.ROUNDS] == [4, 8, 12]
    assert [rules.castle_knights_needed(r) for r in rules.ROUNDS] == [1, 2, 3]
    assert rules.cards_left(new_game(deck="none"), 1) == 0
    state = new_game()
    assert rules.cards_left(state, 1) == 9 and rules.cards_left(state, 3) == 6


def test_the_written_groups_are_read_by_the_rules():
    assert rules.written_group_sizes("2, 3 +1", "church") == [2, 3, 1]
    assert rules.written_group_sizes(["2 5", "", 1], "church") == [2, 5, 1]
    assert rules.written_knight_groups("2 3 1 3; 1") == [[2, 3, 1, 3], [1]]
    assert rules.written_knight_groups("[[2, 3], [1]]") == [[2, 3], [1]]
    assert rules.written_knight_groups("") == []
    with pytest.raises(RuleViolation, match="The size of a windmill group is at least 1, not 0."):
        rules.written_group_sizes("2 0", "windmill")
    with pytest.raises(RuleViolation, match="A knight's shield is 1 to 3, not 4."):
        rules.written_knight_groups("2 4")


def test_the_panel_reads_a_score_form_as_the_move_does():
    from games.quixote import panel

    values = {**panel.defaults_for(3), "church_groups": "2 3", "knight_groups": "2 3; 1",
              "castle6_knights": " 3 ", "defense_shields": "12.0"}
    score = panel.form_score(values)
    assert score["church_groups"] == [2, 3] and score["knight_groups"] == [[2, 3], [1]]
    assert score["castle6_knights"] == 3 and score["defense_shields"] == 12
    bad = {**values, "round": "4", "windmill_groups": "2 x", "defense_shields": "-1"}
    with pytest.raises(RuleViolation,
                       match=r"^Check the numbers: “Round”, “Windmills”, “Defense: shields”\.$"):
        panel.form_score(bad)
