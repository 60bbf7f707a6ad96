"""Don Quixote's sentences are Texts (no database, no Django): every refusal the rule tests meet,
every log line and "now" line of every move they play, the options, the score label and the
rank rule, the solitaire ratings; and each one, said through a translator, keeps its values
wherever the translation puts them.

The rule tests of tests/rules/test_quixote.py are watched the same way (tests/rules/texts.py), so
a sentence added to the rules later is checked without a new test."""

from __future__ import annotations

import pytest

from companion.engine import RuleViolation, Text
from games.quixote import panel, rules
from games.quixote.rules import GAME
from tests.rules import test_quixote as rule_tests
from tests.rules.texts import check_said, translator, watching

watched = watching(GAME)


def test_a_game_played_says_its_lines_and_refusals_as_texts():
    table = rule_tests.Table(("Peter", "Ana"), deck="table")
    assert isinstance(GAME.now(table.state), Text)
    line = table.play("castles", {"castle6": "F1", "castle4": "C2"})
    assert line == "Castles: 6 at F1, 4 at C2" and isinstance(line, Text)
    refusal = table.refused("turn", {"field": "F1"}).message
    assert refusal == "F1 holds the 6-castle." and isinstance(refusal, Text)
    line = table.play("turn", {"field": "G3"})
    assert line == "Round 1 · card 1 of 9: G3" and isinstance(line, Text)
    assert GAME.now(table.state) == "Round 1: turn card 2 of 9"
    refusal = table.refused("score", rule_tests.plain(0, 1)).message
    assert isinstance(refusal, Text)
    assert refusal == "Round 1 cannot be scored yet: 8 of its 9 cards are still to be turned."


def test_the_options_the_label_the_rank_rule_and_the_ratings_are_texts():
    for option in GAME.option_fields:
        check_said(option.label)
        check_said(option.help)
        for _value, label in option.choices:
            check_said(label)
    check_said(GAME.score_label)
    check_said(GAME.rank_rule)
    for _above, words in rules.RATINGS:
        check_said(words)
    for _key, label in panel.BREAKDOWN_ROWS:
        check_said(label)
    with pytest.raises(RuleViolation) as refused:
        panel.form_score({**panel.defaults_for(1), "round": "x"})
    check_said(refused.value.message)


SPANISH = {
    "{name} scored round {round}: {points} ({breakdown}); total {total}":
        "{name} puntuó la ronda {round}: {points} ({breakdown}); total {total}",
    "castles {six}+{four}, churches {churches}, windmills {windmills}, defense {defense}":
        "castillos {six}+{four}, iglesias {churches}, molinos {windmills}, defensa {defense}",
    "everyone has scored round {round}": "todos han puntuado la ronda {round}",
    "Round {round} is over: the next card is turned once {names} has scored round {round}.":
        ("La ronda {round} ha terminado: la siguiente carta se gira cuando {names} haya "
         "puntuado la ronda {round}.",
         "La ronda {round} ha terminado: la siguiente carta se gira cuando {names} hayan "
         "puntuado la ronda {round}."),
    "{names} and {last}": "{names} y {last}",
    "The {castle}-castle cannot have {n} knights connected: after round {round} the {tiles} "
    "tiles hold at most {most} knights (one on each tile half).":
        "Tras la ronda {round} las {tiles} losetas tienen como mucho {most} caballeros: el "
        "castillo de {castle} no puede tener {n} conectados.",
    "{what} is at least {low}, not {value}.": "{what} es como mínimo {low}, no {value}.",
    "The size of a windmill group": "El tamaño de un grupo de molinos",
}


spanish, spanish_plural = translator(SPANISH)


def test_a_translation_puts_the_values_in_its_own_order():
    table = rule_tests.Table(("Peter", "Ana", "Luis"))
    table.play("castles")
    rule_tests.turn_round(table)
    line = table.play("score", rule_tests.plain(1, 1, c6=1, churches=[2]))
    assert line == ("Ana scored round 1: 8 (castles 6+0, churches 2, windmills 0, defense 0); "
                    "total 8")
    assert line.say(spanish, spanish_plural) == (
        "Ana puntuó la ronda 1: 8 (castillos 6+0, iglesias 2, molinos 0, defensa 0); total 8")
    refusal = table.refused("turn").message
    assert refusal.say(spanish, spanish_plural) == (
        "La ronda 1 ha terminado: la siguiente carta se gira cuando Peter y Luis hayan puntuado "
        "la ronda 1.")
    table.play("score", rule_tests.plain(0, 1))
    refusal = table.refused("turn").message
    assert refusal == "Round 1 is over: the next card is turned once Luis has scored round 1."
    assert refusal.say(spanish, spanish_plural).endswith("cuando Luis haya puntuado la ronda 1.")
    line = table.play("score", rule_tests.plain(2, 1))
    assert line.say(spanish, spanish_plural).endswith("; todos han puntuado la ronda 1")
    error = rule_tests.refusal_of(1, rule_tests.plain(0, 1, c6=19))
    assert error.message.say(spanish, spanish_plural) == (
        "Tras la ronda 1 las 9 losetas tienen como mucho 18 caballeros: el castillo de 6 no "
        "puede tener 19 conectados.")
    with pytest.raises(RuleViolation) as refused:
        rules.written_group_sizes("2 0", "windmill")
    assert refused.value.message.say(spanish, spanish_plural) == (
        "El tamaño de un grupo de molinos es como mínimo 1, no 0.")


def test_a_stored_line_reads_back_the_same_and_says_itself_again():
    table = rule_tests.Table(("Peter",))
    table.play("castles")
    rule_tests.turn_round(table)
    line = table.play("score", rule_tests.plain(0, 1, c6=1))
    again = Text.from_data(line.as_data())
    assert again == line
    assert again.say(spanish, spanish_plural) == line.say(spanish, spanish_plural)
