"""Who starts (engine.Game.first): a seat the table names starts the game in each game that has
a first player; a draw is the seed's, the same on every replay, and told by the set-up's line."""

import importlib

import pytest

import games
from companion import engine
from companion.engine import DRAW, RuleViolation

NAMES = ["Ana", "Ben", "Cy"]
RULES = [importlib.import_module(f"{app}.rules").GAME for app in games.INSTALLED_APPS]
FIRSTS = [game for game in RULES if game.first is not None]
# The pad names its game before anything else.
NEEDED = {"pad": {"game": "Skat"}}


def options_of(game, **given):
    return game.resolve_options({**NEEDED.get(game.slug, {}), **given}, len(NAMES))


def set_up(game, first, seed="who-starts"):
    options = options_of(game, **{game.first: first})
    return engine.initial_state(game, NAMES, options, seed), options


def test_the_games_with_a_first_player_say_which_option_names_it():
    assert {game.slug: game.first for game in RULES} == {
        "quixote": None, "alatriste": "first", "knights": "merlin", "rabbits": "first",
        "pad": "first"}


def test_rabbits_named_first_seat_rolls_first_and_no_other():
    rabbits = next(game for game in FIRSTS if game.slug == "rabbits")
    state, _options = set_up(rabbits, 2)
    assert state["turn"]["seat"] == 2
    assert rabbits.now(state) == "Cy's turn"
    with pytest.raises(RuleViolation, match="It is Cy's turn: Cy rolls first."):
        engine.apply(rabbits, state, "roll", {"seat": 0, "dice": [3, 4]}, 0, "s", 1)
    rolled = engine.apply(rabbits, state, "roll", {"seat": 2, "dice": [3, 4]}, 2, "s", 1)
    assert rolled["turn"]["seat"] == 2 and rolled["turn"]["price"] == 7


def test_alatriste_named_first_seat_takes_the_first_turn():
    alatriste = next(game for game in FIRSTS if game.slug == "alatriste")
    state, _options = set_up(alatriste, 1)
    assert alatriste.now(state) == "Ben takes the first turn"
    for seat in range(len(NAMES)):
        state = engine.apply(alatriste, state, "setup",
                             {"seat": seat, "fencing": 5, "ducats": 5}, seat, "s", seat + 1)
    assert alatriste.now(state) == "Next: Ben's turn"
    with pytest.raises(RuleViolation, match="Next it is Ben's turn, not Ana's"):
        engine.apply(alatriste, state, "turn", {"seat": 0}, 0, "s", 4)
    state = engine.apply(alatriste, state, "turn", {"seat": 1}, 1, "s", 4)
    assert alatriste.now(state) == "Next: Cy's turn"


def test_alatriste_left_to_the_table_starts_with_whoever_rolled_highest():
    alatriste = next(game for game in FIRSTS if game.slug == "alatriste")
    state, _options = set_up(alatriste, None)
    assert alatriste.now(state) == "Whoever rolls highest takes the first turn"
    for seat in range(len(NAMES)):
        state = engine.apply(alatriste, state, "setup",
                             {"seat": seat, "fencing": 5, "ducats": 5}, seat, "s", seat + 1)
    state = engine.apply(alatriste, state, "turn", {"seat": 2}, 2, "s", 4)
    assert state["turn"] == 2


def test_knights_named_first_seat_is_merlin_and_the_next_arthur():
    knights = next(game for game in FIRSTS if game.slug == "knights")
    state, _options = set_up(knights, 2)
    assert (state["merlin"], state["arthur"]) == (2, 0)


def test_the_pads_named_first_seat_is_its_starting_player():
    pad = next(game for game in FIRSTS if game.slug == "pad")
    assert set_up(pad, 1)[0]["first"] == 1
    assert set_up(pad, None)[0]["first"] is None  # nobody named: the table decides


@pytest.mark.parametrize("game", FIRSTS, ids=lambda game: game.slug)
def test_a_draw_is_the_seeds_the_same_on_every_replay_and_logged(game):
    drawn = {}
    for number in range(30):
        seed = f"draw{number}"
        state, options = set_up(game, DRAW, seed)
        # The options keep the draw (a session's, an export's); the set-up is handed its seat.
        assert options[game.first] == DRAW
        seat = engine.first_seat(game, options, len(NAMES), seed)
        assert state == engine.initial_state(game, NAMES, options, seed)
        assert state == engine.replay(game, NAMES, options, seed, [])
        # As if the table had named the seat drawn: the draw leaves the set-up's dice alone.
        assert state == set_up(game, seat, seed)[0]
        line = engine.setup_line(game, NAMES, options, seed)
        assert line == f"The draw: {NAMES[seat]} starts"
        assert line.msgid == "The draw: {name} starts"
        drawn[seat] = drawn.get(seat, 0) + 1
    assert set(drawn) == {0, 1, 2}, drawn  # a draw, not a seat fixed by the rules


@pytest.mark.parametrize("game", FIRSTS, ids=lambda game: game.slug)
def test_a_named_seat_is_not_a_draw_and_says_nothing_of_one(game):
    state, options = set_up(game, 1)
    assert engine.first_seat(game, options, len(NAMES), "who-starts") == 1
    assert engine.setup_line(game, NAMES, options, "who-starts") is None


@pytest.mark.parametrize("game", FIRSTS, ids=lambda game: game.slug)
@pytest.mark.parametrize("given", [3, -1, "drew", True, "1", [0]])
def test_who_starts_is_a_seat_or_the_draw(game, given):
    with pytest.raises(RuleViolation) as refused:
        options_of(game, **{game.first: given})
    assert refused.value.field in (game.first, "options")


@pytest.mark.parametrize("game", FIRSTS, ids=lambda game: game.slug)
def test_nobody_named_is_for_the_games_that_leave_it_to_the_table(game):
    if game.first_option.optional:
        assert options_of(game, **{game.first: None})[game.first] is None
    else:
        with pytest.raises(RuleViolation):
            options_of(game, **{game.first: None})


def test_a_game_without_a_first_player_has_no_draw():
    quixote = next(game for game in RULES if game.slug == "quixote")
    with pytest.raises(RuleViolation, match="no option first"):
        quixote.resolve_options({"first": DRAW}, 2)
    options = quixote.resolve_options({}, 2)
    assert engine.first_seat(quixote, options, 2, "s") is None
    assert engine.setup_line(quixote, NAMES[:2], options, "s") is None


def test_options_kept_before_a_game_asked_who_starts_start_at_its_default():
    rabbits = next(game for game in FIRSTS if game.slug == "rabbits")
    kept = {"ending": "simple", "values": "classic", "advanced_citadel": False}
    assert engine.first_seat(rabbits, kept, 3, "s") == 0
    assert engine.initial_state(rabbits, NAMES, kept, "s")["turn"]["seat"] == 0
