"""El Capitán Alatriste's table read in Spanish (Accept-Language: es) once the game has moved on:
the sheets with their badges and cards, the last duel's sums and changes, a game of dice and a
bullfight, the log, and a refusal. No English word is left (tests/views/test_spanish_pages.py's
check), the edition's words are there, and the characters keep their printed names."""

import pytest

from tests.factories import session_for
from tests.views.helpers import browser_for
from tests.views.test_spanish_pages import NAMES as PAGE_NAMES
from tests.views.test_spanish_pages import english_words, spanish

pytestmark = pytest.mark.django_db

NAMES = ("Íñigo", "Quevedo", "Malatesta")
# What the test puts on the table besides its players: printed card names, Spanish already.
CARDS = ("Pistolas de silla",)


@pytest.fixture
def table(alice):
    return session_for(alice, game="alatriste", players=NAMES, seed="spanish")


@pytest.fixture
def host(alice):
    return browser_for(alice)


def move(client, table, **fields):
    return client.post(f"/s/{table.pk}/move/", fields, HTTP_ACCEPT_LANGUAGE="es",
                       HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live")


def played(client, table, **fields):
    response = move(client, table, **fields)
    page = response.content.decode()
    assert response.status_code == 200, page[page.find('class="error"'):][:300]
    return response


def set_up(client, table):
    for seat in range(3):
        played(client, table, type="setup", form=f"setup-{seat}", seat=seat, fencing=4, ducats=6)


def no_english(client, table):
    page = spanish(client, f"/s/{table.pk}/")
    found = english_words(page, names=(*PAGE_NAMES, *NAMES, *CARDS))
    assert not found, "English on the table:\n" + "\n".join(
        f"  {word!r} in {line!r}" for word, line in sorted(found.items()))
    return page


def test_a_duel_and_the_sheets_read_in_spanish(host, table):
    set_up(host, table)
    played(host, table, type="turn", form="turn-1", seat=1)
    played(host, table, type="adjust", form="adjust-1", seat=1, step="ducats:-", amount=1,
           reason="payment")
    played(host, table, type="card", form="card-add-0", seat=0, action="add",
           card="Pistolas de silla")
    played(host, table, type="status", form="status-2", seat=2, status="jail", lost_turns=2)
    played(host, table, type="attack", form="attack-0", **{"from": 0}, to=1, action="play")
    played(host, table, type="duel", form="duel", challenger=0, challenged=1, accepted="true",
           dice="given", die_challenger_1=6, die_challenger_2=4, die_challenged_1=1,
           die_challenged_2=2, die_challenged_x=3)
    page = no_english(host, table)
    for words in ("Último duelo", "Esgrima", "Brío", "Fama", "Ducados",
                  "en la Cárcel de la Villa", "2 turnos perdidos", "1 carta de ataque pendiente",
                  "posesión · Fama -1 · Esgrima +1 · pistolas",
                  "<strong>Íñigo</strong>: Fama +2, Esgrima +1",
                  "<strong>Quevedo</strong>: Brío -3",
                  # Pistols count in combats only.
                  "Íñigo retó a Quevedo: Íñigo 4 + 0 + (6+4) = 14 [+1 Esgrima] contra "
                  "Quevedo 4 + 0 + (1+2) = 7 [dado extra 3: -3 Brío]; gana Íñigo",
                  "Quevedo -1 ducado (pago)", "Turno de Quevedo: +1 ducado",
                  "Malatesta está en la Cárcel de la Villa, 2 turnos perdidos"):
        assert words in page, words


def test_the_plaza_and_the_game_of_dice_read_in_spanish(host, table):
    set_up(host, table)
    played(host, table, type="dice_game", form="dice", seat=0, bet=5, dice="given",
           die_player_1=1, die_player_2=1, die_bank_1=6, die_bank_2=6)
    page = no_english(host, table)
    assert "Última partida de dados" in page and "la banca" in page
    assert "la banca se lleva el bote de 10" in page
    played(host, table, type="bullfight", form="plaza", dice="given", die_0_1=6, die_0_2=6,
           die_1_1=1, die_1_2=1, die_2_1=2, die_2_2=2)
    page = no_english(host, table)
    assert "Último Juego de Toros" in page
    assert "Juego de Toros: Íñigo 4+6+6=16, Quevedo 4+1+1=6, Malatesta 4+2+2=8; gana Íñigo, " \
        "+3 Fama" in page


def test_a_refusal_reads_in_spanish(host, table):
    set_up(host, table)
    played(host, table, type="turn", form="turn-0", seat=0)
    response = move(host, table, type="turn", form="turn-0", seat=0)
    page = response.content.decode()
    assert "Ahora le toca a Quevedo, no a Íñigo" in page, page[:3000]
    assert "Next it is" not in page
