"""Lenino's Jack Rabbits through the API in Spanish: the rules' refusals, the fields' refusals
and the log lines in the language of Accept-Language, in English without it."""

import pytest

from tests.api.moves import play
from tests.factories import session_for

pytestmark = pytest.mark.django_db


def post(client, session, language=None, **move):
    extra = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    return client.post(f"/api/sessions/{session.pk}/moves/", move, format="json", **extra)


def test_a_rules_refusal_in_spanish(as_alice, alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    answer = post(as_alice, session, "es", type="roll", seat=1)
    assert answer.status_code == 400
    assert answer.json()["detail"] == "Es el turno de Ana: Ana tira primero."
    assert post(as_alice, session, type="roll", seat=1).json()["detail"] == \
        "It is Ana's turn: Ana rolls first."


def test_a_card_the_fields_refuse_in_spanish(as_alice, alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    play(as_alice, session, "roll", seat=0, dice=[3, 4])
    answer = post(as_alice, session, "es", type="pay", seat=0, cards=["ZZ"], suits=["H"])
    assert answer.status_code == 400
    assert answer.json()["fields"]["cards"] == [
        "'ZZ' no es una carta: escribe el valor (A, 2-10, J, Q, K) y luego el palo (S, H, D, C), "
        "como en AS, 10D o QH."]
    answer = post(as_alice, session, "es", type="pay", seat=0, cards=["7H"], suits=["X"])
    assert answer.json()["fields"]["suits"] == ["'X' no es un palo: los palos son S, H, D y C."]


def test_a_log_line_in_spanish_and_in_english(as_alice, alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    play(as_alice, session, "roll", seat=0, dice=[3, 4])
    url = f"/api/sessions/{session.pk}/moves/"
    spanish = as_alice.get(url, HTTP_ACCEPT_LANGUAGE="es").json()
    assert [move["summary"] for move in spanish] == ["Ana ha sacado 3+4: el precio es 7"]
    english = as_alice.get(url).json()
    assert [move["summary"] for move in english] == ["Ana rolled 3+4: the price is 7"]


def test_what_a_rabbit_lacks_has_one_colon_in_spanish():
    from django.utils import translation

    from companion.language import say
    from games.rabbits.rules import ending_missing

    with translation.override("es"):
        assert say(ending_missing([], "monarchy", sheet=True)) == \
            "Necesita una Jota, una Reina y un Rey; sus reales: ninguno."
        assert say(ending_missing(["JH"], "monarchy")) == \
            "Necesitas una Reina y un Rey; tus reales: J♥."


def test_cards_in_a_spanish_sentence_carry_their_suits_symbol(as_alice, alice):
    """In Spanish a suit's letter names another suit (C: corazones, hearts; here clubs): a
    Spanish line writes each card with its suit's symbol, an English one as players type it."""
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    play(as_alice, session, "roll", seat=0, dice=[3, 4])
    answer = post(as_alice, session, "es", type="pay", seat=0, cards=["5C"], suits=["H"])
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("5♣ es de tréboles")
    play(as_alice, session, "pay", seat=0, cards=["5H", "2H"], suits=["H"])
    url = f"/api/sessions/{session.pk}/moves/"
    spanish = as_alice.get(url, HTTP_ACCEPT_LANGUAGE="es").json()
    assert spanish[-1]["summary"] == "Ana ha pagado 5♥+2♥=7 (precio 7)"
    english = as_alice.get(url).json()
    assert english[-1]["summary"] == "Ana paid 5H+2H=7 (price 7)"
