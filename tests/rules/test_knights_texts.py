"""Knights & Damosels' sentences are Texts (no database, no Django): every refusal the rule tests
meet, every log line and "now" line of every move they play, the options, the panel's sentences;
and each one, said through a translator, keeps its values wherever the translation puts them.

The rule tests of tests/rules/test_knights.py are watched the same way (tests/rules/texts.py), so
a sentence added to the rules later is checked without a new test."""

from __future__ import annotations

import random

import pytest

from companion.engine import RuleViolation, Text
from games.knights import panel, rules
from games.knights.rules import GAME
from tests.rules.texts import check_game_words, check_said, translator, watching

NAMES = ["Ann", "Bob", "Cid", "Dee"]

watched = watching(GAME)


def play(state, move, **data):
    return GAME.moves[move](state, data, None, random.Random(0))


def knight_phase(event="Holy Grail", **options):
    state = GAME.setup(NAMES, {**GAME.options, "deck": "table", **options}, random.Random(0))
    return play(state, "reveal_event", event=event)


def test_a_game_played_says_its_lines_and_refusals_as_texts():
    state = GAME.setup(NAMES, dict(GAME.options), random.Random(0))
    after = play(state, "draw_events")
    line = GAME.summary({"type": "draw_events"}, state, after)
    assert line == "Bob (Arthur) drew 3 events" and isinstance(line, Text)
    now = GAME.now(after)
    assert now == "Round 1, event phase: Bob is Arthur, Ann Merlin" and isinstance(now, Text)
    with pytest.raises(RuleViolation) as refused:
        play(after, "grant", seat=1, damosel="Elaine", chivalry="honor")
    assert isinstance(refused.value.message, Text)
    assert refused.value.message == "No grant now: reveal this round's event first."
    state = knight_phase()
    after = play(state, "grant", seat=1, damosel="Elaine", chivalry="honor")
    assert GAME.summary({"type": "grant", "data": {"seat": 1, "chivalry": "honor"}}, state,
                        after) == "Bob's Gawain was granted a card of honor"
    with pytest.raises(RuleViolation) as refused:
        play(after, "grant", seat=2, damosel="Elaine", chivalry="honor")
    assert refused.value.message == "Elaine's honor is not with Elaine: Bob's Gawain holds it."
    assert isinstance(refused.value.message.values["knight"], Text)


# A translator of a few messages, as a Spanish catalogue puts their values in its own order.
SPANISH = {
    "{name}'s {knight}": "{knight} de {name}",
    "{damosel}'s {chivalry}": "{chivalry} de {damosel}",
    "{card} is not with {damosel}: {knight} holds it.": "{card} no está con {damosel}: la tiene "
                                                        "{knight}.",
    "{knight} was granted a card of {chivalry}": "A {knight} se le otorgó una carta de {chivalry}",
    "Round {round}, {phase}: {arthur} is Arthur, {merlin} Merlin; event: {event}":
        "Ronda {round}, {phase}: {arthur} es Arthur y {merlin}, Merlin; evento: {event}",
    "knight phase": "fase de caballeros",
    "{challenger} challenged {holder} for {card} ({pairs}): {winner} gets it, taking {n} "
    "worship from {loser}": "{challenger} desafió a {holder} por {card} ({pairs}): se la "
                            "queda {winner}, que gana {n} de honra a {loser}",
    "the {chivalry} granted to {name}": "la carta de {chivalry} otorgada a {name}",
    "similar": "igual",
    "different": "distinta",
}


def spanish(msgid):
    return SPANISH.get(msgid, msgid)


def spanish_plural(singular, plural, count):
    return spanish(singular if count == 1 else plural)


def test_a_translation_puts_the_values_in_its_own_order():
    state = knight_phase()
    assert GAME.now(state).say(spanish, spanish_plural) == \
        "Ronda 1, fase de caballeros: Bob es Arthur y Ann, Merlin; evento: Holy Grail"
    after = play(state, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    line = GAME.summary({"type": "grant", "data": {"seat": 0, "chivalry": "honor"}}, state,
                        after)
    assert line.say(spanish, spanish_plural) == "A Bors de Ann se le otorgó una carta de honor"
    with pytest.raises(RuleViolation) as refused:
        play(after, "grant", seat=2, damosel="Guinevere", chivalry="honor")
    assert refused.value.message.say(spanish, spanish_plural) == \
        "honor de Guinevere no está con Guinevere: la tiene Bors de Ann."
    jousted = play(after, "joust", holder=0, challenger=2, chivalry="honor",
                   cards=["similar", "different"])
    line = GAME.summary({"type": "joust"}, after, jousted)
    assert line == ("Cid challenged Ann for the honor granted to Ann (similar, different): "
                    "Cid gets it, taking 1 worship from Ann")
    assert line.say(spanish, spanish_plural) == (
        "Cid desafió a Ann por la carta de honor otorgada a Ann (igual, distinta): se la queda "
        "Cid, que gana 1 de honra a Ann")


# A translator of the reveal's and the offer's sentences, and of the names in them.
NAMES_IN_SPANISH = translator({
    "{name} (Merlin) revealed {event}": "{name} (Merlin) reveló {event}",
    "{event} ({kind}: {chivalries})": "{event} ({kind}: {chivalries})",
    "{event} does not list {chivalry} (it lists {listed}).":
        "{event} no incluye {chivalry} (incluye {listed}).",
    "Quest": "Búsqueda", "Holy Grail": "Santo Grial", "armor": "armadura", "honor": "honor",
    "loyalty": "lealtad", "valor": "valor", "farmer": "labranza", "fisher": "pesca",
    "forester": "bosque",
})


def test_every_chivalry_and_event_is_named_by_its_own_message():
    """The state keeps the English names; each is also the message id that names it, so the
    English lines read as before and a reader's catalogue names it."""
    for names, kept in ((rules.CHIVALRY_NAMES, rules.CHIVALRIES), (rules.EVENT_NAMES,
                                                                   list(rules.EVENTS))):
        assert list(names) == kept
        for name, text in names.items():
            assert isinstance(text, Text) and text.msgid == text == name
            check_said(text)


def test_a_line_or_a_refusal_names_the_event_and_chivalries_in_the_readers_language():
    state = GAME.setup(NAMES, {**GAME.options, "deck": "table"}, random.Random(0))
    after = play(state, "reveal_event", event="Holy Grail")
    line = GAME.summary({"type": "reveal_event", "data": {"event": "Holy Grail"}}, state, after)
    assert line == ("Ann (Merlin) revealed Holy Grail (Quest: honor, loyalty, valor, farmer, "
                    "fisher, forester)")
    spanish_line = ("Ann (Merlin) reveló Santo Grial (Búsqueda: honor, lealtad, valor, labranza, "
                    "pesca, bosque)")
    assert line.say(*NAMES_IN_SPANISH) == spanish_line
    # As the log keeps it: the stored line is said in the language of whoever reads it later.
    assert Text.from_data(line.as_data()).say(*NAMES_IN_SPANISH) == spanish_line
    with pytest.raises(RuleViolation) as refused:
        play(after, "offer", seat=0, chivalry="armor")
    assert refused.value.message.say(*NAMES_IN_SPANISH) == (
        "Santo Grial no incluye armadura (incluye honor, lealtad, valor, labranza, pesca, "
        "bosque).")


def test_worship_lines_and_the_end_of_a_round_are_texts():
    state = knight_phase("Excalibur")
    state = play(state, "grant", seat=0, damosel="Guinevere", chivalry="fisher")
    state = play(state, "offer", seat=0, chivalry="fisher")
    after = play(state, "worship", placements={})
    line = GAME.summary({"type": "worship"}, state, after)
    assert line == "Worship for Excalibur: Ann +2 (fisher 2)"
    check_said(line)
    ended = play(after, "end_round")
    line = GAME.summary({"type": "end_round"}, after, ended)
    assert line == "Round 1 ended; Cid is Arthur, Bob is Merlin"
    check_said(line)


def test_the_game_s_words_are_texts():
    check_game_words(GAME, *rules.KIND_NAMES.values(), *rules.VICTORY_NAMES.values(),
                     *rules.PHASE_NAMES.values(), *rules.JOUST_CARD_NAMES.values(),
                     *panel.PHASE_WORDS.values())


def test_the_panel_s_sentences_are_texts():
    state = GAME.setup(NAMES, dict(GAME.options), random.Random(0))
    check_said(panel.ask(state))
    state = knight_phase("The Adultery")
    state = play(state, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    live = panel.live_model(state)
    check_said(live["ask"])
    check_said(live["phase_name"])
    check_said(live["event"]["kind"])
    for row in live["grid"]:
        for cell in row["cells"]:
            check_said(cell["where"])
    model = panel.panel_model(state, viewer=None, is_host=True, data=[], posted=None,
                              refusal=None)
    reasons = [why for row in model["grid"] for cell in row["cells"]
               for why in cell["why"].values()]
    assert reasons
    for reason in reasons:
        check_said(reason)
    for _value, label in model["joust"]:
        check_said(label)
    preview = panel.preview(state, {"0": {"honor": "down"}})
    for row in preview["rows"]:
        for card in row["cards"]:
            check_said(card)
    check_said(panel.preview(state, {})["error"])
