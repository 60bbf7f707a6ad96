"""Lenino's Jack Rabbits' sentences are Texts (no database, no Django): every refusal the rule
tests meet, every log line and "now" line of every move they play, the options, what is missing
for the Citadel; and each one, said through a translator, keeps its values wherever the
translation puts them.

The rule tests of tests/rules/test_rabbits.py are watched the same way (tests/rules/texts.py), so
a sentence added to the rules later is checked without a new test."""

from __future__ import annotations

import random

import pytest

from companion.engine import RuleViolation, Text, _
from games.rabbits import panel, rules
from games.rabbits.rules import GAME
from tests.rules import test_rabbits as rule_tests
from tests.rules.texts import check_game_words, check_said, translator, watching

watched = watching(GAME)


def test_a_game_played_says_its_lines_and_refusals_as_texts():
    state = GAME.setup(["Ana", "Ben"], dict(rules.OPTIONS), random.Random(0))
    state = GAME.moves["roll"](state, {"seat": 0, "dice": [3, 4]}, None, random.Random(1))
    line = GAME.summary({"type": "roll"}, None, state)
    assert line == "Ana rolled 3+4: the price is 7" and isinstance(line, Text)
    assert GAME.now(state) == "Ana's turn: the price is 7" and isinstance(GAME.now(state), Text)
    with pytest.raises(RuleViolation) as refused:
        GAME.moves["pay"](state, {"seat": 0, "cards": ["2S"], "suits": ["S"]}, None, None)
    assert isinstance(refused.value.message, Text)
    assert refused.value.message == "2S adds up to 2: the price is 7."
    state = GAME.moves["audience"](state, {"seat": 0, "royal": "QH", "cards": ["10H"]}, None, None)
    # The audience ended Ana's turn: the table's "now" line says whose roll it is.
    assert GAME.now(state) == ("Ana's turn has ended (after the audience with QH): it is Ben's "
                               "turn to roll.")
    with pytest.raises(RuleViolation) as refused:
        GAME.moves["pay"](state, {"seat": 0, "cards": ["9H"], "suits": ["H"]}, None, None)
    # How the turn ended is stored in the state as words: they come back as a Text.
    assert isinstance(refused.value.message.values["how"], Text)
    assert rules.ended_text(state["turn"]) == "after the audience with QH"


SPANISH = {
    "{name}'s turn: the price is {price}": "Precio {price}: turno de {name}",
    "{name} won an audience with {royal} ({paid})": "Audiencia con {royal} para {name} ({paid})",
    "{royals} back to the line": ("{royals} vuelve a la fila", "{royals} vuelven a la fila"),
    "{items} and {last}": "{items} y {last}",
    "{name}'s turn has ended ({how}): it is {next}'s turn to roll.":
        "Le toca tirar a {next}: el turno de {name} ha terminado ({how}).",
    "after the audience with {royal}": "tras la audiencia con {royal}",
}


spanish, spanish_plural = translator(SPANISH)


def test_a_translation_puts_the_values_in_its_own_order():
    state = GAME.setup(["Ana", "Ben"], dict(rules.OPTIONS), random.Random(0))
    state = GAME.moves["roll"](state, {"seat": 0, "dice": [6, 6]}, None, None)
    assert GAME.now(state).say(spanish, spanish_plural) == "Precio 12: turno de Ana"
    state = rule_tests.give(state, 0, "JH", "JS")
    after = GAME.moves["audience"](state, {"seat": 0, "royal": "QH", "cards": ["JH", "2H"]},
                                   None, None)
    line = GAME.summary({"type": "audience"}, state, after)
    assert line == "Ana won an audience with QH (JH+2H=12); JH back to the line"
    assert line.say(spanish, spanish_plural) == \
        "Audiencia con QH para Ana (JH+2H=12); JH vuelve a la fila"
    with pytest.raises(RuleViolation) as refused:
        GAME.moves["pay"](after, {"seat": 0, "cards": ["9H"], "suits": ["H"]}, None, None)
    assert refused.value.message.say(spanish, spanish_plural) == \
        "Le toca tirar a Ben: el turno de Ana ha terminado (tras la audiencia con QH)."


def test_lists_say_their_and_in_the_readers_language():
    assert rules.cards_listed([]) == "none" and isinstance(rules.cards_listed([]), Text)
    assert rules.cards_listed(["JH"]) == "JH"
    three = rules.cards_listed(["JH", "QS", "KD"])
    assert three == "JH, QS and KD"
    assert three.say(spanish, spanish_plural) == "JH, QS y KD"


@pytest.mark.parametrize("ending", rules.ENDINGS)
@pytest.mark.parametrize("royals", [[], ["QH"], ["QH", "QS"], ["JH", "QH"], ["JH", "QS", "KS"]])
def test_what_is_missing_for_the_citadel_is_a_text(ending, royals):
    missing = rules.ending_missing(royals, ending)
    if missing is not None:
        check_said(missing)


def test_the_game_s_words_are_texts():
    check_game_words(GAME, *rules.ENDING_WORDS.values(), *rules.PLACE_NAMES.values(),
                     *rules.SUIT_NAMES.values())


def test_the_panel_s_sentences_are_texts():
    state = GAME.setup(["Ana", "Ben"], dict(rules.OPTIONS), random.Random(0))
    state = GAME.moves["roll"](state, {"seat": 0, "dice": [3, 4]}, None, None)
    live = panel.live_model(state)
    for seat in live["seats"]:
        check_said(seat["place_name"])
        check_said(seat["missing"])
    check_said(live["ending_text"])
    preview = panel.selection_preview(state, "pay", 0, "7D QH ZZ 7D", suits=["S", "H"])
    assert len(preview["problems"]) == 4
    for problem in preview["problems"]:
        check_said(problem)
    check_said(preview["suit_names"])
    assert panel.selection_preview(state, "audience", 0, "", royal="")["problems"] == [
        _("Choose the royal.")]
