"""The score pad's panel through Django's test client: the new-game form with the names used
before, the pad table, the round form for every seat, refusals next to their forms."""

import pytest

from companion.models import Session
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cy", "Di"]


def open_pad(owner, **options):
    options.setdefault("game", "Hearts")
    return session_for(owner, game="pad", players=NAMES, options=options)


def move(client, session, **fields):
    return client.post(f"/s/{session.pk}/move/", fields, HTTP_HX_REQUEST="true",
                       HTTP_HX_TARGET="live")


def html(response):
    return response.content.decode()


def test_the_new_game_form_offers_the_names_used_before(alice):
    open_pad(alice, game="Skat")
    page = html(browser_for(alice).get("/new/?game=pad"))
    assert 'name="opt_game"' in page and 'list="opt_game_list"' in page
    assert '<option value="Skat">' in page
    assert "Lowest score wins" in page and "Cooperative: all win or all lose together" in page


def test_the_new_game_form_refuses_a_target_that_is_not_a_number(alice):
    client = browser_for(alice)
    before = Session.objects.count()
    response = client.post("/new/", {"game": "pad", "name": NAMES, "opt_game": "Hearts",
                                     "opt_win": "low", "opt_target": "lots"})
    assert response.status_code == 400
    assert "lots is not a whole number" in html(response)
    assert Session.objects.count() == before
    response = client.post("/new/", {"game": "pad", "name": NAMES, "opt_game": "",
                                     "opt_win": "low"})
    assert "Name the game you play" in html(response)
    response = client.post("/new/", {"game": "pad", "name": NAMES, "opt_game": "Hearts",
                                     "opt_win": "low", "opt_target": "100", "opt_first": "1"})
    assert response.status_code == 302
    session = Session.objects.get(pk=response.url.strip("/").split("/")[-1])
    assert (session.title, session.options["target"], session.options["first"]) == (
        "Hearts", 100, 1)


def test_the_pad_shows_rounds_totals_leader_and_distance_to_target(alice):
    session = open_pad(alice, win="low", target=100, first=1)
    client = browser_for(alice)
    page = html(client.get(f"/s/{session.pk}/"))
    assert "Ben starts" in page and "No round yet." in page
    assert page.count('name="scores[]"') == 4
    # A routine round of the host's is not asked about: only a move that ends the game is.
    assert 'name="confirmed"' not in page.split('id="pad-round"')[1].split("</form>")[0]
    response = move(client, session, type="round", form="round",
                    **{"scores[]": ["30", "-4", "", "12"]})
    page = html(response)
    assert response.status_code == 200
    # No leader while Cy has not scored the round: at lowest wins, his 0 is not ahead of Di's 12.
    assert "Leading:" not in page and "This round still needs Cy." in page
    assert 'class="pad-done"' in page  # the seats that scored round 1 show their points
    assert page.count('data-signed') >= 2  # points fields: a number or a sum (type text)
    assert '<td class="num" data-seat="0">70</td>' in page  # 100 - 30 to the target
    page = html(move(client, session, type="round", form="round",
                     **{"scores[]": ["", "", "8", ""]}))
    assert "Leading: Ben" in page


def test_a_refused_round_is_a_sentence_beside_its_form_and_keeps_its_values(alice):
    session = open_pad(alice)
    client = browser_for(alice)
    response = move(client, session, type="round", form="round", confirmed="1",
                    **{"scores[]": ["3", "2.5", "", ""]})
    page = html(response)
    assert "no halves" in page
    assert 'value="3"' in page
    session.refresh_from_db()
    assert session.version == 0


def test_a_guest_enters_a_round_and_names_no_winner_in_a_scored_game(alice):
    session = open_pad(alice)
    guest = guest_browser(session, seat=2)
    page = html(guest.get(f"/s/{session.pk}/"))
    # A guest's phone enters its own seat's score, first; no round for every seat.
    assert 'id="pad-own" data-own' in page and 'name="scores[]"' not in page
    assert page.index('id="pad-own"') < page.index('id="pad-table"')
    page = html(move(guest, session, type="round", form="round",
                     **{"scores[]": ["1", "2", "3", "4"]}))
    assert "Only the host may do this" in page
    move(guest, session, type="score", form="score", seat="2", points="-3")
    session.refresh_from_db()
    assert session.version == 1 and session.state["seats"][2]["scores"] == [-3]
    # Naming winners is the host's; in a scored game the rules refuse it too.
    page = html(move(guest, session, type="winners", **{"seats[]": ["0"]}))
    assert "Only the host may do this" in page
    page = html(move(browser_for(alice), session, type="winners", confirmed="1",
                     **{"seats[]": ["0"]}))
    assert "Hearts is won on points here: no winner is named." in page
    session.refresh_from_db()
    assert session.version == 1


def test_a_guests_phone_corrects_its_own_seat_and_leaves_the_end_to_the_host(alice):
    session = open_pad(alice, game="Codenames", win="none")
    guest = guest_browser(session, seat=2)
    assert "Who won?" not in html(guest.get(f"/s/{session.pk}/"))
    scored = open_pad(alice)
    guest = guest_browser(scored, seat=2)
    move(guest, scored, type="score", form="score", seat="2", points="5")
    page = html(guest.get(f"/s/{scored.pk}/"))
    assert 'id="pad-end"' not in page
    correct = page[page.index('id="pad-correct-seat"'):page.index("</select>",
                                                                   page.index('id="pad-correct-seat"'))]
    assert '<option value="2" selected>Cy</option>' in correct and "Ana" not in correct
    host_page = html(browser_for(alice).get(f"/s/{scored.pk}/"))
    assert 'id="pad-end"' in host_page and ">Ana</option>" in host_page


def test_a_game_without_points_shows_the_winners_form(alice):
    session = open_pad(alice, game="Codenames", win="none")
    client = browser_for(alice)
    page = html(client.get(f"/s/{session.pk}/"))
    assert "Who won?" in page and 'name="scores[]"' not in page
    # None ticked: the refusal names what the form asks, not the field ("seats: ...").
    refused = html(move(client, session, type="winners", form="winners", confirmed="1"))
    assert "The winners: This field is required." in refused and "seats:" not in refused
    asked = html(move(client, session, type="winners", form="winners",
                      **{"seats[]": ["0", "3"]}))
    assert "This ends the game for everyone at the table. Go ahead?" in asked
    page = html(move(client, session, type="winners", form="winners", confirmed="1",
                     **{"seats[]": ["0", "3"]}))
    assert "Ana and Di win Codenames" in page
    assert page.count(">winner<") == 2
    # The game-over card names them in the reader's language, as the log does (it wrote "&").
    assert "<strong>Ana and Di</strong> win." in page
    spanish = html(client.get(f"/s/{session.pk}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert "<strong>Ana y Di</strong> ganan." in spanish


def test_a_score_with_a_fraction_is_written_as_entered_with_the_readers_mark(alice):
    from django.utils import translation

    from companion import fragments, services

    session = services.play_log(owner=alice, title="Catan", players=[
        {"name": "Ana", "score": 7.5}, {"name": "Ben", "score": 2}])
    client = browser_for(alice)
    english = html(client.get(f"/history/sessions/{session.pk}/"))
    assert '<td class="num">7.5</td>' in english and "7.50" not in english
    spanish = html(client.get(f"/history/sessions/{session.pk}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert '<td class="num">7,5</td>' in spanish
    # The text a phone shares: the Spanish mark too (it wrote 7.5 inside a Spanish sentence).
    with translation.override("es"):
        context = fragments.fragment_context(session, None, panel=False)
    assert "(Ana 7,5, Ben 2)" in context["share_text"]


def test_a_cooperative_game_ends_won_or_lost(alice):
    session = open_pad(alice, game="Pandemic", win="coop")
    client = browser_for(alice)
    page = html(client.get(f"/s/{session.pk}/"))
    assert "The table won" in page and "The table lost" in page
    page = html(move(client, session, type="end", form="end", outcome="lost", confirmed="1"))
    assert "The end: the table loses" in page
    assert ">winner<" not in page


def test_the_table_of_rounds_is_the_live_part_and_a_phones_forms_change_only_with_its_turn(
        alice):
    from games.pad import panel, rules

    def cys_forms(state):  # what Cy's phone's panel is drawn from (streams push it on change)
        return panel.panel_model(state, viewer=2, is_host=False, data=None, posted=None,
                                 refusal=None)

    state = rules.GAME.setup(["Ana", "Ben", "Cy"], {**rules.GAME.options, "game": "Hearts"},
                             None)
    begun = rules.GAME.moves["score"](state, {"seat": 0, "points": 5}, 0, None)
    scored = rules.GAME.moves["score"](begun, {"seat": 1, "points": 2}, 1, None)
    # Another seat's score in the same round leaves Cy's forms as they were: nothing pushed.
    assert cys_forms(scored) == cys_forms(begun)
    assert panel.live_model(scored)["table"]["rounds"][0]["cells"] == [5, 2, None]
    whole = rules.GAME.moves["score"](scored, {"seat": 2, "points": 3}, 2, None)
    assert cys_forms(whole) != cys_forms(scored)  # the round is complete: Cy's next one


def test_a_round_not_open_yet_is_said_not_offered(alice):
    session = open_pad(alice)
    cy = guest_browser(session, seat=2)
    move(cy, session, type="score", form="score", seat="2", points="5")
    page = html(cy.get(f"/s/{session.pk}/"))
    own = page[page.index('id="pad-own"'):page.index('id="panel_live"')]
    # Round 2 waits for the others' round 1: said, and no field whose Save could only be refused.
    assert "Your points, Cy: round 2" in own
    assert "Round 2 opens once every seat has scored the round before." in own
    assert 'name="points"' not in own and "<button" not in own
    move(browser_for(alice), session, type="round", form="round", confirmed="1",
         **{"scores[]": ["1", "2", "", "4"]})
    own = html(cy.get(f"/s/{session.pk}/"))
    own = own[own.index('id="pad-own"'):own.index('id="panel_live"')]
    assert "Your points, Cy: round 2" in own and 'name="points"' in own and "opens once" not in own
