"""Don Quixote's panel through Django's test client: host and guest, forms with and without htmx,
refusals next to their forms, and the live preview."""

import re

import pytest
from django.test import Client

from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

pytestmark = pytest.mark.django_db


def open_game(owner, deck="app", players=("Vanessa", "Peter")):
    return session_for(owner, game="quixote", players=players, options={"deck": deck},
                       seed="panel")


@pytest.fixture
def qx(alice):
    return open_game(alice)


@pytest.fixture
def host_client(alice):
    return browser_for(alice)


def guest_client(session, seat):
    return guest_browser(session, seat=seat)


def move(client, session, htmx=False, **fields):
    extra = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"} if htmx else {}
    return client.post(f"/s/{session.pk}/move/", fields, **extra)


def html(response):
    return response.content.decode()


def to_scoring(client, session):
    move(client, session, type="castles", form="castles", expected_version=0)
    session.refresh_from_db()
    for _ in range(9):
        move(client, session, type="turn", form="turn", expected_version=session.version)
        session.refresh_from_db()
    assert session.state["phase"] == "scoring"


def typical_round(seat, round_=1, **extra):
    return {"type": "score", "form": f"score-{seat}", "seat": str(seat), "round": str(round_),
            "castle6_knights": str(round_), "castle4_knights": str(round_),
            "church_groups": "2 3", "windmill_groups": "2",
            "defense_shields": str(4 * round_), **extra}


def test_the_panel_renders_for_host_and_guest(qx, host_client):
    page = html(host_client.get(f"/s/{qx.pk}/"))
    assert "Place the castles" in page and "Turn the castle cards" in page
    assert 'id="qx-grid"' in page and page.count('class="qx-cell') == 24
    assert 'id="qx-table"' in page and "On the track: space 0" in page
    assert "games/quixote/panel.js" in page
    guest = guest_client(qx, 1)
    page = html(guest.get(f"/s/{qx.pk}/"))
    assert "Turn the castle cards" in page and "(you)" in page


def test_castles_and_a_card_through_the_form_without_javascript(qx, host_client):
    response = move(host_client, qx, type="castles", form="castles", expected_version="0")
    assert response.status_code == 302
    qx.refresh_from_db()
    six, four = qx.state["castles"]["6"], qx.state["castles"]["4"]
    page = html(host_client.get(f"/s/{qx.pk}/"))
    assert f"♜6 at {six} · ♜4 at {four}" in page
    assert "Turn card 1 of 9" in page
    response = move(host_client, qx, type="turn", form="turn", expected_version="1")
    assert response.status_code == 302
    qx.refresh_from_db()
    page = html(host_client.get(f"/s/{qx.pk}/"))
    current = qx.state["current"]
    assert f"Round 1 · card 1 of 9 · {current}" in page
    assert re.search(rf'id="qx-current"[^>]*>{current}<', page)
    # Named for a screen reader in words it reads (a paragraph's aria-label is not read).
    assert f'<span class="sr-only">Field to fill: </span><span id="qx-current">{current}<' in page
    assert f'qx-cell qx-current" data-field="{current}"' in page


def test_a_stale_turn_is_refused_next_to_its_form(qx, host_client):
    move(host_client, qx, type="castles", form="castles", expected_version="0")
    move(host_client, qx, type="turn", form="turn", expected_version="1")
    response = move(host_client, qx, htmx=True, type="turn", form="turn", expected_version="1")
    assert response.status_code == 412
    assert "Someone at the table changed this" in html(response)
    qx.refresh_from_db()
    assert len(qx.state["turned"]) == 1


def test_a_score_through_htmx_and_the_round_ends(qx, host_client):
    to_scoring(host_client, qx)
    page = html(host_client.get(f"/s/{qx.pk}/"))
    assert "Round 1 is over: score it." in page and "Waiting for: Vanessa and Peter." in page
    # Said in Spanish with the verb in its number: "Faltan: Vanessa y Peter" (one name: Falta).
    spanish = html(host_client.get(f"/s/{qx.pk}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert "Faltan: Vanessa y Peter." in spanish
    # the host's first form (Vanessa) is open, with the defaults that score castles and defense
    assert '<details class="qx-score card" id="qx-score-0" open>' in page
    assert '<details class="qx-score card" id="qx-score-1" >' in page
    assert "15</b> points in round 1" in page
    response = move(host_client, qx, htmx=True, **typical_round(0))
    assert response.status_code == 200
    body = html(response)
    assert body.lstrip().startswith('<div id="live"')
    assert "Waiting for: Peter." in body
    qx.refresh_from_db()
    assert qx.state["seats"][0]["total"] == 25
    # the guest scores its own seat through the plain form
    guest = guest_client(qx, 1)
    page = html(guest.get(f"/s/{qx.pk}/"))
    assert '<details class="qx-score card" id="qx-score-1" open>' in page
    response = move(guest, qx, **typical_round(1, church_groups="", windmill_groups="3"))
    assert response.status_code == 302
    qx.refresh_from_db()
    assert qx.state["seats"][1]["rounds"][0]["windmills"] == 6
    assert qx.state["phase"] == "placing" and qx.state["round"] == 2
    page = html(host_client.get(f"/s/{qx.pk}/"))
    assert "Round 2 · no card turned yet (0 of 7)" in page and "Turn card 1 of 7" in page
    assert "Correct a score of Vanessa" in page


def test_the_steppers_offer_no_more_than_the_tiles_hold(qx, host_client):
    to_scoring(host_client, qx)
    page = html(host_client.get(f"/s/{qx.pk}/"))
    form = page[page.index('id="qx-score-0"'):]
    form = form[:form.index("</details>")]
    # after round 1's nine tiles: 18 knights (two halves a tile), 54 shields on the edge
    for name, most in (("castle6_knights", 18), ("castle4_knights", 18),
                       ("defense_shields", 54)):
        assert re.search(rf'name="{name}" value="\d+" min="0" max="{most}"', form), name
    # Each stepper's buttons say which number they change (three "one more" said nothing).
    for label in ("6-castle: knights", "4-castle: knights", "Defense: shields"):
        assert f'aria-label="one more ({label})"' in form
        assert f'aria-label="one fewer ({label})"' in form
    response = move(host_client, qx, **typical_round(0, castle6_knights="19"))
    assert response.status_code == 400
    assert "at most 18 knights" in html(response)
    qx.refresh_from_db()
    assert qx.state["seats"][0]["rounds"] == []


def test_a_refused_score_is_shown_next_to_its_form_with_its_values(qx, host_client):
    to_scoring(host_client, qx)
    response = move(host_client, qx, **typical_round(1, church_groups="2 0"))
    assert response.status_code == 400
    page = html(response)
    form = page[page.index('id="qx-score-1"'):]
    form = form[:form.index("</details>")]
    assert "The size of a church group is at least 1, not 0." in form
    assert 'value="2 0"' in form and " open>" in page[page.index('id="qx-score-1"') - 40:][:80]
    response = move(host_client, qx, htmx=True,
                    **typical_round(0, round="1", knight_groups="2 3"))
    assert response.status_code == 400
    assert "Knight groups score only in round 3" in html(response)
    qx.refresh_from_db()
    assert qx.state["seats"][0]["rounds"] == []


def test_the_table_picker_and_castle_selects(alice, host_client):
    session = open_game(alice, deck="table")
    page = html(host_client.get(f"/s/{session.pk}/"))
    assert 'name="castle6"' in page and 'name="castle4"' in page
    response = move(host_client, session, type="castles", form="castles", castle6="F1",
                    castle4="G2", expected_version="0")
    assert response.status_code == 400
    assert "The castles may not touch, not even diagonally: F1 and G2" in html(response)
    # the refused form keeps its choices
    assert "<option selected>F1</option>" in html(response)
    assert "<option selected>G2</option>" in html(response)
    move(host_client, session, type="castles", form="castles", castle6="F1", castle4="C2",
         expected_version="0")
    page = html(host_client.get(f"/s/{session.pk}/"))
    assert "Which card was turned? (card 1 of 9)" in page
    assert page.count('name="field"') == 22 and 'value="F1"' not in page
    move(host_client, session, htmx=True, type="turn", form="turn", field="G3",
         expected_version="1")
    session.refresh_from_db()
    assert session.state["current"] == "G3"


def test_scores_only_and_the_final_standings(alice, host_client):
    session = open_game(alice, deck="none", players=("Peter",))
    page = html(host_client.get(f"/s/{session.pk}/"))
    assert "Scores only" in page and 'id="qx-grid"' not in page
    for round_ in (1, 2, 3):
        response = move(host_client, session, **typical_round(0, round_))
        assert response.status_code == 302, html(response)
    page = html(host_client.get(f"/s/{session.pk}/"))
    assert "Final standings" in page and 'id="qx-final"' in page
    assert "absolutely incredible" not in page and "very good" in page  # 25 + 25 + 25 = 75
    assert "qx-score" not in page


def test_the_live_preview(qx, host_client, charlie):
    to_scoring(host_client, qx)
    url = f"/g/quixote/s/{qx.pk}/preview/"
    response = host_client.post(url, typical_round(0), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "25</b> points in round 1 · total 25" in html(response)
    # The box it is swapped into is the status region, there before any preview is said.
    assert "role=" not in html(response)
    page = html(host_client.get(f"/s/{qx.pk}/"))
    assert 'id="qx-preview-0" role="status"' in page
    response = host_client.post(url, typical_round(0, castle6_knights="0"))
    assert "19</b> points in round 1" in html(response)
    response = host_client.post(url, typical_round(0, windmill_groups="2 x"))
    # Named as the form labels the field ("windmill_groups" said nothing to a player).
    assert "Windmills: The size of a windmill group" in html(response)
    assert "qx-preview-error" in html(response) and "windmill_groups" not in html(response)
    response = host_client.post(url, typical_round(0, knight_groups="3 3"))
    assert "Knight groups score only in round 3" in html(response)
    guest = guest_client(qx, 1)
    assert guest.post(url, typical_round(1)).status_code == 200
    stranger = Client()
    stranger.force_login(charlie)
    assert stranger.post(url, typical_round(0)).status_code == 404
    assert Client().post(url, typical_round(0)).status_code == 404
    assert host_client.get(url).status_code == 405
    qx.refresh_from_db()
    assert qx.state["seats"][0]["rounds"] == []  # the preview never writes
