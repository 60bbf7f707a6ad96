"""El Capitán Alatriste's sentences are Texts (no database, no Django): every refusal the rule
tests meet, every log line and "now" line of every move they play, the score label and the rank
rule, the panel's badges, card notes and results; and each one, said through a translator,
keeps its values wherever the translation puts them. Names (players', cards', characters') are
values, never translated.

The rule tests of tests/rules/test_alatriste.py are watched the same way (tests/rules/texts.py), so
a sentence added to the rules later is checked without a new test."""

from __future__ import annotations

import random

import pytest

from companion.engine import RuleViolation, Text
from games.alatriste import panel, rules
from games.alatriste.rules import GAME
from tests.rules.test_alatriste import BOCANEGRA, QUEVEDO, SWORD, play, ready, with_seat
from tests.rules.texts import check_said, translator, watching

watched = watching(GAME)


def test_a_game_played_says_its_lines_and_refusals_as_texts():
    state = GAME.setup(["Íñigo", "Quevedo"], {}, random.Random(0))
    assert GAME.now(state) == "Whoever rolls highest takes the first turn"
    state = play(state, "setup", {"seat": 0, "fencing": 4, "ducats": 6})
    line = GAME.summary({"type": "setup"}, None, state)
    assert line == "Íñigo set up: Fencing 4, 6 ducats" and isinstance(line, Text)
    with pytest.raises(RuleViolation) as refused:
        play(state, "setup", {"seat": 1, "fencing": 5, "ducats": 4})
    assert isinstance(refused.value.message, Text)
    assert refused.value.message == "Fencing and ducats share 10 chips: 5 + 4 is 9."
    state = play(state, "setup", {"seat": 1, "fencing": 5, "ducats": 5})
    state = play(state, "turn", {"seat": 1})
    assert GAME.now(state) == "Next: Íñigo's turn" and isinstance(GAME.now(state), Text)
    with pytest.raises(RuleViolation) as refused:
        play(state, "turn", {"seat": 1})
    assert refused.value.message.values == {"next": "Íñigo", "name": "Quevedo"}


def test_the_fight_line_is_made_again_from_the_sides_in_the_readers_language():
    state = with_seat(ready(), 0, cards=[QUEVEDO])
    after = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": True,
                                 "rolls": {"challenger": [6, 3], "challenged": [1, 4],
                                           "challenged_extra": 3}})
    # The state keeps the line as its English words (JSON): the log line is made from the sides.
    stored = dict(after["last"]["fight"], line=str(after["last"]["fight"]["line"]))
    after["last"]["fight"] = stored
    line = GAME.summary({"type": "duel"}, state, after)
    assert line == ("Íñigo challenged Quevedo: Íñigo 4 + 1 + (6+3) = 14 [+1 Fencing] vs "
                    "Quevedo 4 + 0 + (1+4) = 9 [extra die 3: -3 Vigour]; Íñigo wins")
    check_said(line)
    assert line.say(spanish, spanish_plural) == (
        "Íñigo retó a Quevedo: Íñigo 4 + 1 + (6+3) = 14 [+1 Esgrima] contra "
        "Quevedo 4 + 0 + (1+4) = 9 [dado extra 3: -3 Brío]; gana Íñigo")


SPANISH = {
    "{one} challenged {two}": "{one} retó a {two}",
    "{head}: {line}": "{head}: {line}",
    "{left} vs {right}": "{left} contra {right}",
    "+1 Fencing": "+1 Esgrima",
    "extra die {extra}: -{lost} Vigour": "dado extra {extra}: -{lost} Brío",
    "{name} wins": "gana {name}",
    "{name}'s turn: +{n} ducat": ("Turno de {name}: +{n} ducado", "Turno de {name}: +{n} ducados"),
    "a lost turn ({n} left)": ("un turno perdido (queda {n})", "un turno perdido (quedan {n})"),
    "wanted {n} more turn": ("perseguido {n} turno más", "perseguido {n} turnos más"),
    "Next it is {next}'s turn, not {name}'s: turns go round the table in seat order.":
        "Ahora le toca a {next}, no a {name}: los turnos dan la vuelta a la mesa por orden de "
        "asiento.",
    "{name} is {where}: {why}": "{name} está {where}: {why}",
    "in the town jail": "en la Cárcel de la Villa",
    "the game of dice is played on the board.": "la partida de dados se juega en el tablero.",
    "{name} {delta} {stat} ({reason})": "{name} {delta} {stat} ({reason})",
    "fame": "fama",
    "payment": "pago",
    "{title}: {name} wins with Emilio Bocanegra (+{prize} Fame)":
        "{title}: gana {name} con Emilio Bocanegra (+{prize} Fama)",
    "Act of Faith": "Auto de Fe",
}


spanish, spanish_plural = translator(SPANISH)


def test_a_translation_puts_the_values_in_its_own_order():
    state = with_seat(ready(), 0, lost_turns=2, wanted_turns=2, fame=15)
    after = play(state, "turn", {"seat": 0})
    line = GAME.summary({"type": "turn"}, state, after)
    assert line == "Íñigo's turn: +2 ducats, a lost turn (1 left), wanted 1 more turn"
    assert line.say(spanish, spanish_plural) == (
        "Turno de Íñigo: +2 ducados, un turno perdido (queda 1), perseguido 1 turno más")
    with pytest.raises(RuleViolation) as refused:
        play(after, "turn", {"seat": 0})
    assert refused.value.message.say(spanish, spanish_plural) == (
        "Ahora le toca a Quevedo, no a Íñigo: los turnos dan la vuelta a la mesa por orden de "
        "asiento.")
    jailed = with_seat(ready(), 0, status="jail")
    with pytest.raises(RuleViolation) as refused:
        play(jailed, "dice_game", {"seat": 0, "bet": 5})
    assert refused.value.message.say(spanish, spanish_plural) == (
        "Íñigo está en la Cárcel de la Villa: la partida de dados se juega en el tablero.")


def test_the_words_of_the_panels_buttons_are_said_in_the_log_too():
    state = ready()
    after = play(state, "adjust", {"seat": 0, "stat": "fame", "delta": 2, "reason": "payment"})
    line = GAME.summary({"type": "adjust"}, state, after)
    assert line == "Íñigo +2 fame (payment)"
    assert line.say(spanish, spanish_plural) == "Íñigo +2 fama (pago)"
    # A reason typed through the API is the player's own words, kept as given.
    typed = play(state, "adjust", {"seat": 0, "stat": "fame", "delta": 2, "reason": "taberna"})
    assert GAME.summary({"type": "adjust"}, state, typed).say(spanish, spanish_plural) == (
        "Íñigo +2 fama (taberna)")


def test_characters_keep_their_printed_names():
    state = with_seat(ready(), 2, cards=[BOCANEGRA])
    after = play(state, "act_of_faith", {})
    line = GAME.summary({"type": "act_of_faith"}, state, after)
    assert line.say(spanish, spanish_plural) == (
        "Auto de Fe: gana Malatesta con Emilio Bocanegra (+4 Fama)")


def test_the_game_s_words_are_texts():
    for text in (GAME.score_label, GAME.rank_rule, *rules.STATUS_WORDS.values(),
                 *rules.STAT_WORDS.values(), *rules.REASON_WORDS.values(),
                 *rules.ROLE_WORDS.values(), *rules.FLAG_WORDS.values()):
        check_said(text)


def test_the_panel_s_sentences_are_texts():
    state = with_seat(ready(), 0, cards=[QUEVEDO, SWORD], lost_turns=2, wanted_turns=1,
                      attacks=1, recovering=True)
    state = with_seat(state, 1, status="court_jail")
    state = play(state, "turn", {"seat": 2})
    live = panel.live_model(state)
    for seat in live["seats"]:
        for _key, badge in seat["badges"]:
            check_said(badge)
        for _name, text in seat["cards"]:
            check_said(text)
    model = panel.panel_model(state, viewer=0)
    for _key, label in model["stats"] + model["statuses"]:
        check_said(label)


def test_the_last_results_are_texts():
    state = ready()
    state = with_seat(state, 1, cards=[QUEVEDO])
    duel = play(state, "duel", {"challenger": 0, "challenged": 1, "accepted": True,
                                "rolls": {"challenger": [6, 6], "challenged": [1, 2],
                                          "challenged_extra": 2},
                                "take": {"card": "Quevedo", "keep": True}})
    last = panel.live_model(duel)["last"]
    assert [change["what"] for change in last["changes"]] == [
        "Fame +2, Fencing +1, keeps Quevedo", "Fame +1, Vigour -2"]
    for change in last["changes"]:
        check_said(change["what"])
    dice = play(state, "dice_game", {"seat": 0, "bet": 5,
                                     "rolls": {"player": [1, 1], "bank": [6, 6]}})
    last = panel.live_model(dice)["last"]
    check_said(last["title"])
    assert [row["name"] for row in last["rows"]] == ["Íñigo", "the bank"]
    check_said(last["rows"][1]["name"])
