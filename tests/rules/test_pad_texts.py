"""The score pad's sentences are Texts (no database, no Django): every refusal the rule tests
meet, every log line and "now" line of every move they play, the options, the scoreboard's rule,
the panel's verdict; and each one, said through a translator, keeps its values wherever the
translation puts them. The name a host gives the game ("Hearts") is a value, never translated.

The rule tests of tests/rules/test_pad.py are watched the same way (tests/rules/texts.py), so a
sentence added to the rules later is checked without a new test."""

from __future__ import annotations

import random

import pytest

from companion.engine import RuleViolation, Text
from games.pad import panel, rules
from games.pad.rules import GAME
from tests.rules import test_pad as rule_tests
from tests.rules.texts import check_game_words, check_said, translator, watching

NAMES = rule_tests.NAMES

watched = watching(GAME)


def new(**options):
    options.setdefault("game", "Hearts")
    return GAME.setup(list(NAMES), GAME.resolve_options(options, len(NAMES)), random.Random(0))


def play(state, move_type, **data):
    return GAME.moves[move_type](state, data, None, random.Random(0))


def refusal(state, move_type, **data):
    with pytest.raises(RuleViolation) as refused:
        GAME.moves[move_type](state, data, None, random.Random(0))
    return refused.value.message


def test_a_game_played_says_its_lines_and_refusals_as_texts():
    state = play(new(win="low", rounds=3, target=100), "score", seat=1, points=5)
    line = GAME.summary({"type": "score"}, None, state)
    assert line == "Ben scores +5 in round 1 (total 5)" and isinstance(line, Text)
    assert GAME.now(state) == "Round 1 of 3 · target 100" and isinstance(GAME.now(state), Text)
    message = refusal(state, "score", seat=1, points=2)
    assert isinstance(message, Text)
    assert message == ("Ben has scored round 1: round 2 opens once Ana, Cy and Di have scored "
                       "round 1.")
    # The game's name is the host's: kept as it is, a value of the sentence.
    message = refusal(new(win="none"), "round", scores=[1, 2, 3, 4])
    assert message.values["game"] == "Hearts" and not isinstance(message.values["game"], Text)


def test_every_way_a_game_ends_reads_as_a_text():
    ended = [
        play(play(new(win="low"), "round", scores=[1, 2, 3, 4]), "end"),
        play(new(win="low", rounds=1), "round", scores=[1, 2, 1, 4]),
        play(new(win="high", target=5), "round", scores=[1, 6, 2, 4]),
        play(new(win="coop", target=5), "round", scores=[1, 6, 2, 4]),
        play(new(win="coop", target=50, rounds=1), "round", scores=[1, 6, 2, 4]),
        play(play(new(win="coop"), "round", scores=[1, 2, 3, 4]), "end", outcome="won"),
        play(new(win="none"), "winners", seats=[3]),
    ]
    lines = [GAME.summary({}, state, state) for state in ended]
    assert lines == [
        "The end after 1 round: Ana wins",
        "Round 1: Ana +1, Ben +2, Cy +1, Di +4; the last round is played: Ana and Cy win",
        "Round 1: Ana +1, Ben +6, Cy +2, Di +4; the target is reached: Ben wins",
        "Round 1: Ana +1, Ben +6, Cy +2, Di +4; the target is reached: the table wins",
        "Round 1: Ana +1, Ben +6, Cy +2, Di +4; the last round is played: the table loses",
        "The end: the table wins",
        "Di wins Hearts",
    ]
    for line in lines:
        check_said(line)


SPANISH = {
    "{names} and {last}": "{names} y {last}",
    "The end after {n} round": ("Fin tras {n} ronda", "Fin tras {n} rondas"),
    "{names} wins": ("gana {names}", "ganan {names}"),
    "{name} has scored round {last}: round {round} opens once {names} has scored round {last}.":
        ("La ronda {round} se abre cuando {names} haya anotado la {last}: {name} ya la ha "
         "anotado.",
         "La ronda {round} se abre cuando {names} hayan anotado la {last}: {name} ya la ha "
         "anotado."),
    "{name}'s round {round} corrected from {was} to {points} (total {total})":
        "Ronda {round} de {name} corregida de {was} a {points} (total {total})",
    "Round {round} of {rounds}": "Ronda {round} de {rounds}",
    "target {target}": "objetivo {target}",
}


spanish, spanish_plural = translator(SPANISH)


def test_a_translation_puts_the_values_in_its_own_order():
    state = play(new(rounds=4, target=80), "round", scores=[1, 9, 9, 2])
    state = play(state, "round", scores=[3, 1, 1, 0])
    assert GAME.now(state).say(spanish, spanish_plural) == "Ronda 3 de 4 · objetivo 80"
    corrected = play(state, "correct", seat=2, round=1, points=-3)
    assert GAME.summary({}, state, corrected).say(spanish, spanish_plural) == \
        "Ronda 1 de Cy corregida de 9 a -3 (total -2)"
    ended = play(state, "end")
    line = GAME.summary({}, state, ended)
    assert line == "The end after 2 rounds: Ben and Cy win"
    assert line.say(spanish, spanish_plural) == "Fin tras 2 rondas: ganan Ben y Cy"
    waiting = play(state, "score", seat=0, points=4)
    message = refusal(waiting, "score", seat=0, points=4)
    assert message.say(spanish, spanish_plural) == \
        "La ronda 4 se abre cuando Ben, Cy y Di hayan anotado la 3: Ana ya la ha anotado."


def test_lists_say_their_and_in_the_readers_language():
    assert rules.listing([]) == "" and isinstance(rules.listing([]), Text)
    assert rules.listing(["Ana"]) == "Ana"
    three = rules.listing(["Ana", "Ben", "Cy"])
    assert three == "Ana, Ben and Cy"
    assert three.say(spanish, spanish_plural) == "Ana, Ben y Cy"


def test_the_game_s_words_are_texts():
    check_said(GAME.name)
    check_game_words(GAME, *rules.WIN_WORDS.values(), *rules.RANK_RULES.values())
    for win in rules.WINS:
        rule = GAME.rank_rule(new(win=win))
        check_said(rule)
        assert rule == rules.WIN_WORDS[win] + "."


def test_the_live_parts_sentences_are_texts():
    state = play(new(win="high"), "round", scores=[5, 5, 1, 2])
    model = panel.live_model(state)
    check_said(model["win_words"])
    assert model["leaders"] == "Ana and Ben"
    check_said(model["leaders"])
    model = panel.live_model(play(state, "end"))
    assert model["verdict"] == "Ana and Ben win!"
    check_said(model["verdict"])
    model = panel.live_model(play(new(win="none"), "winners", seats=[1]))
    assert model["verdict"] == "Ben wins!"
    check_said(model["verdict"])
    for outcome, verdict in (("won", "The table wins!"), ("lost", "The table loses.")):
        model = panel.live_model(play(new(win="coop"), "end", outcome=outcome))
        assert model["verdict"] == verdict
        check_said(model["verdict"])
