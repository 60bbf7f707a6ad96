"""What every game's rule and text tests share (tests/rules/test_<game>.py and _texts.py): a
translator that marks each message, and a fixture that watches a game's tests as they run,
checking that every refusal they meet and every log line and "now" line of every move they play
is a Text that keeps its values wherever a translation puts them."""

from __future__ import annotations

import pytest

from companion.engine import Refused, RuleViolation, Text

# Marks no value holds (the rule tests feed random text to the moves).
START, END = "\x00«", "»\x00"


def marked(msgid):
    return f"{START}{msgid}{END}"


def marked_plural(singular, plural, count):
    return marked(singular if count == 1 else plural)


def check_said(text):
    """`text` said through a translator that marks each message: every placeholder filled from
    the Text's own values (unmarked, it reads as the English), nested Texts translated too."""
    assert isinstance(text, Text), repr(text)
    said = text.say(marked, marked_plural)
    assert START in said, f"not translatable: {text!r}"
    assert said.replace(START, "").replace(END, "") == str(text)


def watching(game):
    """An autouse fixture for a game's rule and text tests: every refusal made and every move
    of `game` played during a test are checked once it ends (the move's log line, and the
    "now" line after it)."""

    @pytest.fixture(autouse=True)
    def watched(monkeypatch):
        refusals = []
        made = Refused.__init__

        def refusal(self, message, **kwargs):
            refusals.append(message)
            made(self, message, **kwargs)

        monkeypatch.setattr(RuleViolation, "__init__", refusal)
        lines = []
        for move_type, move in list(game.moves.items()):
            def watch(state, data, actor, rng, move=move, move_type=move_type):
                after = move(state, data, actor, rng)
                lines.append(game.summary({"type": move_type, "data": data}, state, after))
                if game.now(after) is not None:
                    lines.append(game.now(after))
                return after
            monkeypatch.setitem(game.moves, move_type, watch)
        yield
        for text in refusals + lines:
            check_said(text)

    return watched


def check_game_words(game, *texts):
    """The game's own words are Texts: what its score counts, how places are decided (where it
    is one sentence), every set-up option's label, help and choices, and `texts`."""
    rank_rule = () if callable(game.rank_rule) else (game.rank_rule,)
    for text in (game.score_label, *rank_rule, *texts):
        check_said(text)
    for option in game.option_fields:
        check_said(option.label)
        if option.help:
            check_said(option.help)
        for _value, label in option.choices:
            check_said(label)


def translator(table):
    """(gettext, ngettext) of a small made-up catalogue: {msgid: translation} and, for a
    sentence with a number, {singular: (one, many)}."""

    def gettext(msgid):
        found = table.get(msgid, msgid)
        return found if isinstance(found, str) else found[1]

    def ngettext(singular, plural, count):
        one, many = table.get(singular, (singular, plural))
        return one if count == 1 else many

    return gettext, ngettext
