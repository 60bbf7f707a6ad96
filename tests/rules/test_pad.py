"""The score pad ("Any game"): pure rule tests (no database, no Django)."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import RuleViolation, replay, standings_of
from games.pad import rules
from games.pad.rules import GAME
from tests.rules.texts import watching

# Every refusal these tests meet and every log line and "now" line of every move they play is
# checked as a Text that keeps its values in a translation (tests/rules/texts.py).
watched = watching(GAME)

NAMES = ["Ana", "Ben", "Cy", "Di"]


def new(names=None, **options):
    names = list(names or NAMES)
    options.setdefault("game", "Hearts")
    return GAME.setup(names, GAME.resolve_options(options, len(names)), random.Random(0))


def act(state, move_type, **data):
    before = copy.deepcopy(state)
    after = GAME.moves[move_type](state, data, None, random.Random(7))
    assert state == before, "a move must not mutate its input"
    assert after["last"]["type"] == move_type
    assert GAME.summary({"type": move_type, "data": data}, state, after)
    return after


def refused(state, move_type, match, field=None, **data):
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation, match=match) as caught:
        GAME.moves[move_type](state, data, None, random.Random(7))
    assert state == before
    if field is not None:
        assert caught.value.field == field
    return caught.value


def options_refused(match, seats=4, **options):
    with pytest.raises(RuleViolation, match=match):
        GAME.resolve_options(options, seats)


def ranks(state):
    return {row["name"]: row["rank"] for row in standings_of(GAME, state)}


def winners(state):
    return sorted(row["name"] for row in standings_of(GAME, state) if row["winner"])


# --- set-up -------------------------------------------------------------------------------------

def test_the_game_is_named_and_the_name_is_its_title():
    options = GAME.resolve_options({"game": "  Catan "}, 3)
    assert GAME.title(options) == "Catan"
    assert new(game="Catan")["game"] == "Catan"


@pytest.mark.parametrize(("options", "match"), [
    ({}, "Name the game you play"),
    ({"game": "   "}, "Name the game you play"),
    ({"game": "x" * 61}, "60 letters at most"),
    ({"game": "Hearts", "win": "most"}, "highest score, lowest score, cooperative"),
    ({"game": "Hearts", "target": "lots"}, "The target is a number of points, such as 100, "
                                           "not 'lots'"),
    ({"game": "Hearts", "target": 2.5}, "The target is a number"),
    ({"game": "Hearts", "rounds": 0}, "rounds is a whole number from 1"),
    ({"game": "Hearts", "rounds": True}, "rounds is a whole number"),
    ({"game": "Codenames", "win": "none", "target": 10}, "no target and no count of rounds"),
    ({"game": "Hanabi", "win": "coop", "teams": [[0, 1]]}, "one team already"),
    ({"game": "Bridge", "teams": [[0, 2], [1, 7]]}, "A team names seat 7"),
    ({"game": "Bridge", "teams": [[0, 2], [2, 3]]}, "Seat 2 is in two teams"),
    ({"game": "Bridge", "teams": "0 2"}, "Teams are a list of teams"),
    ({"game": "Bridge", "first": 4}, "starting player is one of the seats, 0 to 3"),
])
def test_bad_options_are_refused_with_a_sentence(options, match):
    options_refused(match, **options)


# --- high and low, rounds, corrections ----------------------------------------------------------

def test_a_round_for_every_seat_at_once_and_the_running_totals():
    state = act(new(win="high"), "round", scores=[3, -2, 0, 10])
    state = act(state, "round", scores=[4, 5, -1, 0])
    assert rules.totals(state) == [7, 3, -1, 10]
    assert ranks(state) == {"Di": 1, "Ana": 2, "Ben": 3, "Cy": 4}
    row = next(row for row in standings_of(GAME, state) if row["name"] == "Di")
    assert row["leader"] and not row["winner"]
    assert GAME.round_scores(row["details"]) == [10, 0]
    assert GAME.summary({}, state, state) == "Round 2: Ana +4, Ben +5, Cy -1, Di 0"


def test_a_seat_scores_its_next_round_once_the_table_has_caught_up():
    assert rules.awaited(new()) == []  # a round nobody has begun is still being played
    state = act(new(), "score", seat=1, points=5)
    assert rules.waiting_for(state) == ["Ana", "Cy", "Di"]
    assert rules.awaited(state) == [0, 2, 3]
    refused(state, "score", "Ben has scored round 1: round 2 opens once Ana, Cy and Di have "
                            "scored round 1", seat=1, points=2)
    refused(state, "score", "Ben has scored round 1 already: correct it instead", seat=1,
            points=2, round=1)
    refused(state, "round", "Ben scored round 1 already: leave that seat blank",
            scores=[1, 2, 3, 4])
    state = act(state, "round", scores=[1, None, 3, 4])
    assert [seat["scores"] for seat in state["seats"]] == [[1], [5], [3], [4]]


def test_a_round_for_a_seat_that_does_not_exist_is_refused():
    state = new()
    refused(state, "score", "There is no seat 7: the seats are 0 Ana, 1 Ben, 2 Cy, 3 Di",
            field="seat", seat=7, points=3)
    refused(state, "round", "one score per seat: 4", scores=[1, 2, 3, 4, 5])
    refused(state, "correct", "There is no seat 9", seat=9, round=1, points=1)


def test_a_round_fills_in_at_least_one_seat():
    # Whole numbers are the move's serializer's to check (tests/api/test_pad.py).
    refused(new(), "round", "Fill in at least one", scores=[None, None, None, None])


def test_a_correction_replaces_an_earlier_entry():
    state = act(new(), "round", scores=[1, 2, 3, 4])
    state = act(state, "round", scores=[5, 6, 7, 8])
    state = act(state, "correct", seat=2, round=1, points=-3)
    assert state["seats"][2]["scores"] == [-3, 7]
    assert GAME.summary({}, state, state) == "Cy's round 1 corrected from 3 to -3 (total 4)"
    refused(state, "correct", "rounds 1 to 2: there is no round 3", seat=2, round=3, points=1)
    refused(state, "correct", "is -3 already", seat=2, round=1, points=-3)


def test_lowest_score_wins_after_the_last_round():
    state = new(win="low", rounds=2)
    state = act(state, "round", scores=[10, 4, 7, 7])
    state = act(state, "round", scores=[-5, 4, 0, 1])
    assert GAME.finished(state) and state["ended_by"] == "rounds"
    assert winners(state) == ["Ana"]
    assert ranks(state) == {"Ana": 1, "Cy": 2, "Ben": 3, "Di": 3}
    assert GAME.summary({}, state, state).endswith("the last round is played: Ana wins")
    refused(state, "score", "The game is over", seat=0, points=1)


def test_a_target_ends_the_game_once_the_round_is_complete():
    """Hearts: the end comes at 100, the lowest total then wins; the others finish the round."""
    state = act(new(win="low", target=100), "round", scores=[60, 20, 30, 16])
    assert rules.target_distance(state) == [40, 80, 70, 84]
    state = act(state, "score", seat=0, points=45)
    assert not GAME.finished(state)
    for seat, points in ((1, 10), (2, 10)):
        state = act(state, "score", seat=seat, points=points)
    state = act(state, "score", seat=3, points=10)
    assert GAME.finished(state) and state["ended_by"] == "target"
    assert rules.target_distance(state)[0] == 0
    assert winners(state) == ["Di"]


def test_the_end_by_hand_and_its_refusals():
    state = new()
    refused(state, "end", "No score has been entered yet", field="type")
    state = act(state, "round", scores=[1, 9, 9, 2])
    refused(state, "end", "leave the outcome out", field="outcome", outcome="won")
    state = act(state, "end")
    assert winners(state) == ["Ben", "Cy"]
    assert GAME.summary({}, state, state) == "The end after 1 round: Ben and Cy win"


def test_the_end_waits_for_a_round_every_seat_has_scored():
    """Lowest wins: Ben, left out of round 2, had won on one round fewer."""
    state = new(win="low")
    state = act(state, "round", scores=[3, 1, 5, 4])
    state = act(state, "round", scores=[3, None, 5, 4])
    refused(state, "end", r"^Round 2 still needs Ben: enter their points \(0 counts too\) before "
            r"the end\.$", field="type")
    state = act(state, "score", seat=1, points=0, round=2)
    state = act(state, "end")
    assert winners(state) == ["Ben"]


def test_teams_score_the_sum_of_their_seats_and_rank_together():
    state = new(teams=[[0, 2], [1, 3]])
    state = act(state, "round", scores=[5, 1, 5, 20])
    assert rules.side_totals(state) == [10, 21, 10, 21]
    state = act(state, "end")
    rows = standings_of(GAME, state)
    assert [(row["name"], row["rank"], row["score"], row["winner"]) for row in rows] == [
        ("Ben", 1, 21, True), ("Di", 1, 21, True), ("Ana", 3, 10, False),
        ("Cy", 3, 10, False)]
    assert rows[0]["details"]["total"] == 1 and rows[0]["details"]["team"] == 1


# --- cooperative and no points ------------------------------------------------------------------

def test_a_cooperative_game_lost_loses_for_everyone():
    state = act(new(win="coop"), "round", scores=[3, 2, 4, 1])
    refused(state, "end", "Say whether the table won or lost", field="outcome")
    state = act(state, "end", outcome="lost")
    rows = standings_of(GAME, state)
    assert [row["rank"] for row in rows] == [1, 1, 1, 1]
    assert not any(row["winner"] for row in rows)
    assert GAME.summary({}, state, state) == "The end: the table loses"


def test_a_cooperative_target_reached_wins_for_everyone_and_missed_loses():
    state = act(new(win="coop", target=20), "round", scores=[5, 5, 5, 5])
    assert GAME.finished(state) and winners(state) == sorted(NAMES)
    missed = act(new(win="coop", target=30, rounds=1), "round", scores=[5, 5, 5, 5])
    assert GAME.finished(missed) and missed["outcome"] == "lost" and winners(missed) == []


def test_a_game_without_points_names_its_winners():
    state = new(win="none")
    refused(state, "round", "played without points", scores=[1, 2, 3, 4])
    refused(state, "end", "ends when its winners are named")
    refused(state, "winners", "There is no seat 5", seats=[5])
    refused(state, "winners", "Everyone cannot win", seats=[0, 1, 2, 3])
    state = act(state, "winners", seats=[2, 0])
    assert GAME.finished(state)
    assert ranks(state) == {"Ana": 1, "Cy": 1, "Ben": 3, "Di": 3}
    assert winners(state) == ["Ana", "Cy"]
    assert GAME.summary({}, state, state) == "Ana and Cy win Hearts"
    assert GAME.round_scores(standings_of(GAME, state)[0]["details"]) is None


def test_a_winner_named_in_a_scored_game_is_refused():
    refused(new(win="high"), "winners", "won on points here: no winner is named",
            field="seats", seats=[0])
    refused(new(win="coop"), "winners", "won together here", seats=[0])


# --- replay -------------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.integers(-50, 50), min_size=3, max_size=3), min_size=1,
                max_size=6))
def test_replay_of_rounds_equals_their_totals(rounds):
    options = GAME.resolve_options({"game": "Skat", "win": "high"}, 3)
    log = [{"seq": seq, "type": "round", "data": {"scores": scores}, "actor": None}
           for seq, scores in enumerate(rounds, start=1)]
    state = replay(GAME, NAMES[:3], options, "s", log)
    assert rules.totals(state) == [sum(column) for column in zip(*rounds, strict=True)]


def test_after_the_end_the_pads_table_marks_the_winner_not_a_leader():
    from games.pad import panel

    state = act(new(), "round", scores=[1, 9, 3, 2])
    playing = {seat["name"]: seat for seat in panel.pad_table(state)["seats"]}
    assert playing["Ben"]["leader"] and not playing["Ben"]["winner"]
    over = {seat["name"]: seat for seat in panel.pad_table(act(state, "end"))["seats"]}
    assert over["Ben"]["winner"] and not over["Ben"]["leader"]


# --- the places and their points (issue 52, point 11) ---------------------------------------------

def test_a_half_entered_round_shows_the_points_the_places_are_decided_by():
    """Two rounds every seat finished, a third half entered: the number beside each name is its
    total of the two, in the order of the places; the caption says which rounds count."""
    state = new(["Ana", "Bea", "Dani", "Eva"])
    state = act(state, "round", scores=[10, 20, 8, 15])
    state = act(state, "round", scores=[2, 10, 10, 10])
    state = act(state, "round", scores=[20, 8, None, 6])
    rows = standings_of(GAME, state)
    assert [(row["rank"], row["name"], row["score"]) for row in rows] == [
        (1, "Bea", 30), (2, "Eva", 25), (3, "Dani", 18), (4, "Ana", 12)]
    assert {row["name"]: row["details"]["total"] for row in rows} == {
        "Ana": 32, "Bea": 38, "Dani": 18, "Eva": 31}  # the pad's own totals, round 3 in them
    assert "count the 2 rounds every seat has finished" in \
        GAME.rank_rule(state).say(lambda text: text, lambda one, many, n: one if n == 1 else many,
                                  str)


@given(st.lists(st.lists(st.integers(-50, 50), min_size=3, max_size=3), min_size=1, max_size=5),
       st.integers(0, 2))
@settings(max_examples=60, deadline=None)
def test_places_and_points_never_contradict_each_other(rounds, entered):
    """Whatever was entered, a better place never shows fewer points (highest wins)."""
    state = new(["Ana", "Ben", "Cy"])
    for points in rounds:
        state = act(state, "round", scores=points)
    if entered:
        state = act(state, "round", scores=[5] * entered + [None] * (3 - entered))
    rows = standings_of(GAME, state)
    for better, worse in zip(rows, rows[1:], strict=False):
        assert better["rank"] <= worse["rank"]
        assert (better["score"] >= worse["score"]) and \
            (better["rank"] < worse["rank"]) == (better["score"] > worse["score"])
