"""The catalogues against the code: every message the code has is in its catalogue with its
Spanish (not fuzzy, the same placeholders), and the compiled catalogue is the one Django reads;
the Spanish fits whoever is at the table, and names Knights & Damosels' events and chivalries."""

import re

import pytest
from babel.messages.pofile import read_po
from django.utils import translation

from companion import catalogues
from games.knights import rules as knights

# A sentence of the platform's and its Spanish, as locale/es/LC_MESSAGES/django.po has them.
KNOWN = ("Keep score at the table", "Lleva la puntuación en la mesa")


def _name(area):
    return area or "platform"


# Words that make the people at the table men: the host (anfitrión) and a player (jugador). The
# Spanish says "quien organiza", "participante", "persona" or "la mesa", which fit anyone.
NOT_FOR_ANYONE = re.compile(r"\b(anfitri[oó]n|anfitriones|jugador|jugadores)\b", re.IGNORECASE)


def _said(message):
    """Every Spanish form of a message (both of a plural)."""
    return [said for said in (message.string if isinstance(message.string, tuple)
                              else (message.string,)) if said]


@pytest.mark.parametrize("area", catalogues.areas(), ids=_name)
def test_every_message_has_its_spanish(area):
    problems = catalogues.problems(only=area)
    assert not problems, (
        f"{len(problems)} messages of {_name(area)} lack their Spanish (run: .venv/bin/python "
        f"manage.py messages --area {_name(area)}, then translate):\n"
        + "\n".join(f"  {where}: {what}: {msgid!r}" for where, msgid, what in problems))


def test_the_compiled_catalogue_is_the_one_read():
    with translation.override("es"):
        assert translation.gettext(KNOWN[0]) == KNOWN[1]
        assert translation.ngettext("%(counter)s game", "%(counter)s games", 3) \
            == "%(counter)s partidas"
    with translation.override("en"):
        assert translation.gettext(KNOWN[0]) == KNOWN[0]


def test_every_platform_translation_reads_through_django():
    """Each translated message of the platform's .po is what Django says in Spanish: the .mo
    is compiled from this .po (a stale or missing .mo fails here)."""
    with catalogues.po_path("", "es").open("rb") as file:
        catalog = read_po(file, locale="es")
    stale = []
    with translation.override("es"):
        for message in catalog:
            if not message.id or message.fuzzy or message.context:
                continue
            if isinstance(message.id, tuple):
                said = translation.ngettext(message.id[0], message.id[1], 1)
                wanted = message.string[0]
            else:
                said, wanted = translation.gettext(message.id), message.string
            if wanted and said != wanted:
                stale.append((message.id, said, wanted))
    assert not stale, stale


def _read_changed(change):
    """catalogues.read, with `change(catalog)` applied to the platform's Spanish catalogue."""
    read = catalogues.read

    def changed(area, language):
        catalog = read(area, language)
        if area == "":
            change(catalog)
        return catalog

    return changed


def test_a_message_missing_from_the_catalogue_is_reported(monkeypatch):
    monkeypatch.setattr(catalogues, "read",
                        _read_changed(lambda catalog: catalog.delete(KNOWN[0])))
    problems = catalogues.problems(only="")
    assert [(msgid, what) for _where, msgid, what in problems] == [
        (KNOWN[0], "not in the catalogue (run: make messages)")]
    assert problems[0][0].startswith("templates/companion/home.html:")


def test_an_untranslated_fuzzy_or_misplaced_message_is_reported(monkeypatch):
    def change(catalog):
        catalog[KNOWN[0]].string = ""
        catalog["Game over"].flags.add("fuzzy")
        catalog["Page %(number)s of %(pages)s"].string = "Página %(number)s de %(total)s"

    monkeypatch.setattr(catalogues, "read", _read_changed(change))
    found = {msgid: what for _where, msgid, what in catalogues.problems(only="")}
    assert found[KNOWN[0]] == "not translated"
    assert found["Game over"] == "fuzzy"
    assert found["Page %(number)s of %(pages)s"].startswith("placeholders")
    assert len(found) == 3


@pytest.mark.parametrize("area", catalogues.areas(), ids=_name)
def test_every_message_of_a_catalogue_is_found_in_its_sources(area):
    """A catalogue keeps no message that the extraction no longer finds: one found nowhere is a
    folder the extraction stopped reading (a game's templates moved), and `make messages` would
    drop its translation."""
    kept = {(message.context, message.id if isinstance(message.id, str) else message.id[0])
            for message in catalogues.read(area, "es") if message.id}
    found = {(context, msgid) for (where, context, msgid) in catalogues.extracted()
             if where == area}
    assert kept - found == set()


def test_no_spanish_sentence_makes_the_people_at_the_table_men():
    found = [(_name(area), message.id, said) for area in catalogues.areas()
             for message in catalogues.read(area, "es") if message.id
             for said in _said(message) if NOT_FOR_ANYONE.search(said)]
    assert not found, f"{len(found)} Spanish sentences name the host or a player as a man:\n" + (
        "\n".join(f"  {area}: {msgid!r}: {said!r}" for area, msgid, said in found))


def test_the_check_finds_the_words_whole_and_whatever_their_case():
    assert NOT_FOR_ANYONE.search("Solo el anfitrión puede deshacer.")
    assert NOT_FOR_ANYONE.search("Jugadores, en orden")
    assert not NOT_FOR_ANYONE.search("Tu jugada; quien organiza; participantes")


def test_every_knights_event_and_chivalry_is_said_in_spanish_by_the_games_catalogue():
    """Each name the state keeps is its own message (games.knights.rules): translated in the
    game's catalogue, and said so by Django, which reads every catalogue as one (a platform's
    message with the same id would win)."""
    catalog = catalogues.read("games/knights", "es")
    with translation.override("es"):
        for name in (*knights.CHIVALRIES, *knights.EVENTS):
            message = catalog.get(name)
            assert message is not None and message.string and not message.fuzzy, name
            assert translation.gettext(name) == message.string, name
