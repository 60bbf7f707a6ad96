"""engine.Text: a pure module's sentence is English as a str, and keeps what it was made of so
that the platform says it in another language, now or from what was stored years ago."""

import json
import pickle

from hypothesis import given
from hypothesis import strategies as st

from companion.engine import Text, _, joined, n_

SPANISH = {
    "{name} pays {n} ducats.": "{name} paga {n} ducados.",
    "payment": "pago",
    "{name} -{n} ducats ({reason})": "{name} -{n} ducados ({reason})",
    ("{n} ducat", "{n} ducats"): ("{n} ducado", "{n} ducados"),
    "Broken {name}": "Roto {nombre}",
}


def gettext(msgid):
    return SPANISH.get(msgid, msgid)


def ngettext(singular, plural, count):
    one, many = SPANISH.get((singular, plural), (singular, plural))
    return one if count == 1 else many


def test_a_text_is_its_english_sentence():
    text = _("{name} pays {n} ducats.", name="Íñigo", n=3)
    assert text == "Íñigo pays 3 ducats." and isinstance(text, str)
    assert f"{text}" == "Íñigo pays 3 ducats."
    assert json.dumps(text, ensure_ascii=False) == '"Íñigo pays 3 ducats."'


def test_a_text_is_said_in_another_language_with_its_values_translated_too():
    text = _("{name} -{n} ducats ({reason})", name="Quevedo", n=1, reason=_("payment"))
    assert text == "Quevedo -1 ducats (payment)"
    assert text.say(gettext, ngettext) == "Quevedo -1 ducados (pago)"


def test_plurals_follow_the_count_in_each_language():
    assert n_("{n} ducat", "{n} ducats", 1, n=1) == "1 ducat"
    assert n_("{n} ducat", "{n} ducats", 4, n=4).say(gettext, ngettext) == "4 ducados"
    assert n_("{n} ducat", "{n} ducats", 1, n=1).say(gettext, ngettext) == "1 ducado"


def test_a_joined_sentence_translates_each_part_alone():
    line = joined("; ", [_("payment"), "Íñigo", n_("{n} ducat", "{n} ducats", 2, n=2)])
    assert line == "payment; Íñigo; 2 ducats"
    assert line.say(gettext, ngettext) == "pago; Íñigo; 2 ducados"


def test_a_translation_that_does_not_fit_its_values_falls_back_to_english():
    text = _("Broken {name}", name="Ann")
    assert text.say(gettext, ngettext) == "Broken Ann"


def test_a_page_shows_a_text_escaped_through_the_translator():
    text = _("{name} pays {n} ducats.", name="<b>", n=1)
    installed = Text.translator  # the platform's, when Django has started in this process
    try:
        Text.translator = lambda t: t.say(gettext, ngettext)
        assert text.__html__() == "&lt;b&gt; paga 1 ducados."
        Text.translator = None
        assert text.__html__() == "&lt;b&gt; pays 1 ducats."
    finally:
        Text.translator = installed


values = st.one_of(st.text(max_size=12), st.integers(-1000, 1000), st.none(), st.booleans())


@given(st.dictionaries(st.sampled_from(["name", "n", "what"]), values, min_size=3))
def test_stored_and_read_back_a_text_is_the_same_sentence(found):
    text = _("{name} gives {n} to {what}", **found)
    nested = joined(" · ", [text, _("payment"), n_("{n} ducat", "{n} ducats", 2, n=2)])
    for original in (text, nested):
        stored = json.loads(json.dumps(original.as_data()))
        again = Text.from_data(stored)
        assert again == original and again.as_data() == original.as_data()
        assert again.say(gettext, ngettext) == original.say(gettext, ngettext)
        # A worker hands a Text to another process (the cache) by pickling it.
        assert pickle.loads(pickle.dumps(original)) == original  # noqa: S301 (our own bytes)


def test_a_value_json_cannot_keep_is_kept_as_its_sentence():
    text = _("{what}", what=[1, 2])
    assert text == "[1, 2]" and text.as_data()["values"]["what"] == "[1, 2]"


def test_a_copied_state_is_equal_and_shares_nothing_that_changes():
    """engine.copied, the rules' deep copy: a rule changes the copy, never the state it was given
    (the state read from the database, or a step of a replay)."""
    from companion.engine import copied

    reason = Text("{name} may not", {"name": "Ana"})
    state = {"seats": [{"name": "Ana", "scores": [1, 2]}], "pair": (1, [2]), "why": reason}
    copy = copied(state)
    assert copy == state
    copy["seats"][0]["scores"].append(3)
    copy["pair"][1].append(3)
    assert state["seats"][0]["scores"] == [1, 2] and state["pair"] == (1, [2])
    assert isinstance(copy["why"], Text) and copy["why"].msgid == "{name} may not"
    assert copy["why"].values == {"name": "Ana"}
