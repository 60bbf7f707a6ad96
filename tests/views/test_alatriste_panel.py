"""El Capitán Alatriste's panel through Django's test client: forms with and without htmx."""

import re

import pytest
from django.template.loader import render_to_string

from companion import fragments
from companion.models import Session
from games.alatriste.panel import live_model
from games.alatriste.rules import GAME
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

pytestmark = pytest.mark.django_db

NAMES = ("Íñigo", "Quevedo", "Malatesta")


@pytest.fixture
def table(alice):
    session = session_for(alice, game="alatriste", players=NAMES, seed="panel")
    return session


@pytest.fixture
def host(alice):
    return browser_for(alice)


@pytest.fixture
def guest(table):
    return guest_browser(table, seat=1)


def move(client, table, htmx=False, **fields):
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"} if htmx else {}
    return client.post(f"/s/{table.pk}/move/", fields, **headers)


def state(table):
    return Session.objects.get(pk=table.pk).state


def set_up(client, table):
    for seat in range(3):
        response = move(client, table, type="setup", form=f"setup-{seat}", seat=seat, fencing=4,
                        ducats=6)
        assert response.status_code == 302


def test_the_panel_renders_for_the_host_and_a_guest(host, guest, table):
    page = host.get(f"/s/{table.pk}/").content.decode()
    assert "Fencing 2 · 8 ducats" in page
    assert page.count('name="form" value="setup-0"') == 7
    set_up(host, table)
    for client in (host, guest):
        page = client.get(f"/s/{table.pk}/").content.decode()
        assert "Start turn: take the income" in page
        assert 'name="die_challenger_1"' in page and "Roll for us" in page
        assert '<option value="Quevedo">' in page  # the catalogue's search list
    assert "End the game now" in host.get(f"/s/{table.pk}/").content.decode()
    assert "(you)" in guest.get(f"/s/{table.pk}/").content.decode()


def panel_of(client, table):
    page = client.get(f"/s/{table.pk}/").content.decode()
    return page[page.index('<div class="al-panel'):page.index('<section id="undo"')]


def test_the_guest_s_phone_carries_its_own_seat_first_and_no_other_seat_s_controls(guest, table,
                                                                                     host):
    set_up(host, table)
    panel = panel_of(guest, table)
    assert 'id="al-seat-1" data-seat="1" data-own' in panel
    assert 'id="al-seat-0"' not in panel and 'id="al-seat-2"' not in panel
    assert 'id="al-others"' not in panel
    # Ending is the host's: a guest's phone has no button for it.
    assert "End the game now" not in panel
    assert panel.index("data-own") < panel.index('id="al-table"') < panel.index('id="al-duel"')
    # The table's forms are folded and name this phone's seat first.
    assert '<details class="al-fold" id="al-duel">' in panel
    duel = panel[panel.index('id="al-duel"'):panel.index('id="al-combat"')]
    assert '<option value="1" selected>Quevedo</option>' in duel
    assert '<option value="2" selected>Malatesta</option>' in duel


def test_the_host_s_phone_folds_the_other_seats_away(host, table):
    Session.objects.filter(pk=table.pk).update(host_seat=0)
    set_up(host, table)
    panel = panel_of(host, table)
    assert 'id="al-seat-0" data-seat="0" data-own' in panel
    assert '<details class="al-others" id="al-others">' in panel
    assert "Play for another seat" in panel
    fold = panel[panel.index('id="al-others"'):]
    assert 'id="al-seat-1"' in fold and 'id="al-seat-2"' in fold and 'id="al-seat-0"' not in fold
    assert panel.index('id="al-seat-0"') < panel.index('id="al-table"') < panel.index(
        'id="al-others"')


def test_a_host_without_a_seat_sees_the_table_s_forms_first(host, table):
    assert table.host_seat is None
    set_up(host, table)
    panel = panel_of(host, table)
    assert 'id="al-table" aria-labelledby="al-table-title" data-own' in panel
    assert panel.count("data-own") == 1
    fold = panel[panel.index('id="al-others"'):]
    assert all(f'id="al-seat-{seat}"' in fold for seat in range(3))
    assert "Play for a seat" in fold


def test_a_finished_game_s_panel_has_no_controls(host, table):
    set_up(host, table)
    version = Session.objects.get(pk=table.pk).version
    move(host, table, type="end", form="end", expected_version=str(version), confirmed="1")
    panel = panel_of(host, table)
    assert "<form" not in panel and "data-own" not in panel
    assert 'id="al-sheet-0"' in panel


def test_chips_move_with_the_big_buttons_without_javascript(host, table):
    set_up(host, table)
    response = move(host, table, type="adjust", form="adjust-0", seat=0, step="fame:+",
                    amount="1", reason="box")
    assert response.status_code == 302
    response = move(host, table, type="adjust", form="adjust-0", seat=0, step="ducats:-",
                    amount="2", reason="payment")
    assert response.status_code == 302
    seat = state(table)["seats"][0]
    assert (seat["fame"], seat["ducats"]) == (1, 4)


def test_a_duel_with_die_face_buttons_through_htmx(host, table):
    set_up(host, table)
    response = move(host, table, htmx=True, type="duel", form="duel", challenger=0,
                    challenged=1, accepted="true", patrol_distance="", take_card="",
                    die_challenger_1="6", die_challenger_2="4", die_challenged_1="3",
                    die_challenged_2="4", dice="given")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="live"' in page and "<html" not in page
    assert "Íñigo 4 + 0 + (6+4) = 14 [+1 Fencing] vs Quevedo 4 + 0 + (3+4) = 11" in page
    assert "Last duel" in page


def test_a_joiner_s_dice_rolled_at_the_table_are_entered_on_the_page(host, table):
    set_up(host, table)
    page = panel_of(host, table)
    dice_game = page[page.index('id="al-dice-game"'):page.index('id="al-plaza"')]
    assert "Joiners' dice, when they roll at the table" in dice_game
    assert 'name="die_2_1"' in dice_game and 'name="die_2_2"' in dice_game
    response = move(host, table, htmx=True, type="dice_game", form="dice", seat=0, bet=5,
                    joiners=["2"], die_player_1="1", die_player_2="2", die_bank_1="1",
                    die_bank_2="1", die_2_1="6", die_2_2="5", dice="given")
    assert response.status_code == 200
    last = state(table)["last"]
    assert last["dice"] == {"player": [1, 2], "bank": [1, 1], "2": [6, 5]}
    assert last["winner"] == 2
    # Dice filled in for a player who was not ticked as joining: refused, by name, at the form.
    response = move(host, table, htmx=True, type="dice_game", form="dice", seat=2, bet=5,
                    die_1_1="6", die_1_2="5", dice="given")
    assert response.status_code == 400
    page = response.content.decode()
    message = "Quevedo does not join this game of dice"
    assert page.index('value="dice"') < page.index(message) < page.index('id="al-plaza"')
    # One die of a joiner's two: refused with a sentence that names no seat number.
    response = move(host, table, htmx=True, type="dice_game", form="dice", seat=2, bet=5,
                    joiners=["1"], die_1_1="6", dice="given")
    assert response.status_code == 400
    assert "One die of a pair was given alone: give both dice, or none." in (
        response.content.decode())


def test_roll_for_us_ignores_the_dice_and_patrol_fields_fold(host, table):
    set_up(host, table)
    move(host, table, type="duel", form="duel", challenger=0, challenged=1, accepted="true",
         die_challenger_1="6", dice="server")
    last = Session.objects.get(pk=table.pk).moves.order_by("-seq").first()
    assert "rolls" not in last.data and " = " in last.summary
    move(host, table, type="combat", form="combat", attacker=1, defender=2,
         patrol_distance="2", patrol_roll="5", dice="given")
    assert state(table)["seats"][1]["status"] == "jail"


def test_a_one_off_card_and_a_catalogue_card_by_name(host, table):
    set_up(host, table)
    move(host, table, type="card", form="card-oneoff-0", seat=0, action="add",
         oneoff_name="Espada toledana", oneoff_kind="possession", oneoff_fame="0",
         oneoff_vigour="0", oneoff_fencing="2", oneoff_enemies="")
    move(host, table, type="card", form="card-add-0", seat=0, action="add", card="carroza")
    cards = state(table)["seats"][0]["cards"]
    assert [card["name"] for card in cards] == ["Espada toledana", "Carroza"]
    assert cards[1]["vehicle"] is True
    page = host.get(f"/s/{table.pk}/").content.decode()
    assert "Espada toledana" in page


def test_a_refusal_is_shown_next_to_its_form(host, table):
    set_up(host, table)
    move(host, table, type="card", form="card-add-0", seat=0, action="add", card="Quevedo")
    for htmx in (False, True):
        response = move(host, table, htmx=htmx, type="card", form="card-add-0", seat=0,
                        action="add", card="Pacheco")
        assert response.status_code == 400
        page = response.content.decode()
        message = "Pacheco and Quevedo are enemies: Íñigo can&#x27;t have both."
        assert page.count(message) == 1
        form_at = page.index('name="form" value="card-add-0"')
        assert form_at < page.index(message) < page.index('name="form" value="card-oneoff-0"')
    response = move(host, table, htmx=True, type="duel", form="duel", challenger=0,
                    challenged=1, accepted="true", die_challenger_1="3", die_challenger_2="3",
                    die_challenged_1="3", die_challenged_2="3", dice="given")
    page = response.content.decode()
    assert response.status_code == 400
    assert page.index('value="duel"') < page.index("Equal: roll again") < page.index(
        'id="al-combat"')


def test_a_turn_out_of_order_is_refused_at_its_button_and_the_next_seat_is_shown(host, table):
    set_up(host, table)
    assert move(host, table, type="turn", form="turn-1", seat=1).status_code == 302
    live = fragments.render_shared(fragments.shown_read(table.pk))["panel_live"]
    at = live.index('id="al-sheet-2"')
    assert "next turn" in live[at:live.find("</article>", at)]
    assert live.count("next turn") == 1
    before = state(table)
    for htmx in (False, True):
        response = move(host, table, htmx=htmx, type="turn", form="turn-1", seat=1)
        assert response.status_code == 400
        page = response.content.decode()
        message = "Next it is Malatesta&#x27;s turn, not Quevedo&#x27;s"
        assert page.count(message) == 1
        assert page.index('name="form" value="turn-1"') < page.index(message) < page.index(
            'name="form" value="turn-2"')
        # Seat 1's controls are in the host's fold of the other seats: it opens on the refusal.
        assert '<details class="al-others" id="al-others" open>' in page
    assert state(table) == before


def test_the_early_end_from_the_panel(host, table):
    set_up(host, table)
    version = Session.objects.get(pk=table.pk).version
    # The host is asked first: ending is for everyone at the table.
    asked = move(host, table, type="end", form="end", expected_version=str(version))
    assert asked.status_code == 200
    assert "This ends the game for everyone at the table. Go ahead?" in asked.content.decode()
    assert 'name="confirmed" value="1"' in asked.content.decode()
    assert not Session.objects.get(pk=table.pk).is_finished
    response = move(host, table, type="end", form="end", expected_version=str(version),
                    confirmed="1")
    assert response.status_code == 302
    assert Session.objects.get(pk=table.pk).is_finished


def test_the_end_asked_from_controls_drawn_before_other_moves_ends_at_the_first_yes(host,
                                                                                      table):
    set_up(host, table)
    drawn = Session.objects.get(pk=table.pk).version  # the host's controls, not pushed
    move(host, table, type="turn", form="turn-0", seat=0)  # another phone's move meanwhile
    asked = move(host, table, htmx=True, type="end", form="end", expected_version=str(drawn))
    now = Session.objects.get(pk=table.pk).version
    page = asked.content.decode()
    assert "This ends the game for everyone at the table. Go ahead?" in page
    # The question shows the table as it is now, and "Yes" answers for that version.
    question = page[page.index('id="confirm"'):page.index("No, keep playing")]
    answered = re.search(r'name="expected_version" value="(\d+)"', question).group(1)
    assert answered == str(now) != str(drawn)
    response = move(host, table, type="end", form="end", expected_version=answered,
                    confirmed="1")
    assert response.status_code == 302
    assert Session.objects.get(pk=table.pk).is_finished


def test_the_pushed_live_part_holds_the_sheets_and_the_last_sums_and_no_form(host, table):
    set_up(host, table)
    move(host, table, type="card", form="card-add-2", seat=2, action="add", card="carroza")
    move(host, table, type="status", form="status-1", seat=1, status="jail", lost_turns="2")
    move(host, table, type="duel", form="duel", challenger=0, challenged=2, accepted="true",
         die_challenger_1="6", die_challenger_2="4", die_challenged_1="3",
         die_challenged_2="4", dice="given")
    session = Session.objects.select_related("owner").get(pk=table.pk)
    live = fragments.render_shared(fragments.Shown.of(session))["panel_live"]
    assert "<form" not in live and "csrfmiddlewaretoken" not in live
    for seat, sheet in enumerate(session.state["seats"]):
        at = live.index(f'id="al-sheet-{seat}" data-seat="{seat}"')
        part = live[at:live.find("</article>", at)]
        assert sheet["name"] in part and '<span class="muted you">' in part
        for stat in ("vigour", "fame", "fencing", "ducats"):
            assert f'data-stat="{stat}">{sheet[stat]}<' in part
        assert f'data-stat="income">{sheet["income"]}<' in part
    assert 'data-stat="fencing">5<' in live  # Íñigo rolled a 6
    assert "Last duel" in live
    assert "Fencing 4 + cards 0 + dice (6+4) = <strong class=\"al-total\">14</strong>" in live
    assert "Íñigo</strong>: Fame +2, Fencing +1" in live
    assert "in the town jail" in live and "2 lost turns" in live
    assert "Carroza" in live and "vehicle" in live
    # The page holds the same part once, inside the element the stream swaps.
    page = host.get(f"/s/{table.pk}/").content.decode()
    assert page.count('<div id="panel_live">') == 1
    assert page.count('id="al-sheet-0"') == 1 and page.count('id="al-seat-0"') == 1
    assert page.index('<div id="panel_live">') < page.index('id="al-sheet-2"') < page.index(
        'name="form" value="adjust-0"')


def test_the_live_part_shows_a_bullfight_and_the_end(host, table):
    set_up(host, table)
    response = move(host, table, type="bullfight", form="plaza", die_0_1="6", die_0_2="6",
                    die_1_1="1", die_1_2="2", die_2_1="3", die_2_2="3", dice="given")
    assert response.status_code == 302
    session = Session.objects.select_related("owner").get(pk=table.pk)
    live = fragments.render_shared(fragments.Shown.of(session))["panel_live"]
    assert "Last bullfight" in live and "Íñigo gains 3 Fame." in live
    assert '4 + (6+6) = <strong class="al-total">16</strong>' in live
    version = session.version
    move(host, table, type="end", form="end", expected_version=str(version), confirmed="1")
    live = fragments.render_shared(fragments.shown_read(table.pk))["panel_live"]
    assert "Game over" in live and "Winner: Íñigo" in live


def test_a_name_in_the_plaza_dice_legend_is_escaped_once(alice):
    table = session_for(alice, game="alatriste", players=("O'Brien", "Quevedo <3"), seed="x")
    client = browser_for(alice)
    set_up_two = [move(client, table, type="setup", form=f"setup-{seat}", seat=seat, fencing=4,
                       ducats=6) for seat in range(2)]
    assert all(response.status_code == 302 for response in set_up_two)
    page = client.get(f"/s/{table.pk}/").content.decode()
    assert "<legend>O&#x27;Brien, die 1</legend>" in page
    assert "<legend>Quevedo &lt;3, die 2</legend>" in page
    assert "&amp;#x27;" not in page and "&amp;lt;" not in page


def test_the_live_part_renders_without_a_query(host, table, django_assert_num_queries):
    set_up(host, table)
    move(host, table, type="bullfight", form="plaza", die_0_1="6", die_0_2="6",
         die_1_1="1", die_1_2="2", die_2_1="3", die_2_2="3", dice="given")
    session = Session.objects.get(pk=table.pk)
    standings = GAME.standings(session.state)
    with django_assert_num_queries(0):
        html = render_to_string("games/alatriste/panel_live.html",
                                {"live": live_model(session.state, standings)})
    assert "Last bullfight" in html and 'id="al-sheet-0"' in html


def test_a_guest_s_duel_between_two_others_is_refused_with_a_sentence(host, guest, table):
    set_up(host, table)
    before = state(table)
    response = move(guest, table, htmx=True, type="duel", form="duel", challenger=0,
                    challenged=2, accepted="true", dice="server")
    assert response.status_code == 403
    page = response.content.decode()
    # Either fighter's phone may enter it: the sentence names both.
    message = ("This is a move of Íñigo or Malatesta: it comes from one of their phones or the "
               "host&#x27;s.")
    assert page.count(message) == 1
    # Said in the now line, in view wherever the phone is on the page.
    assert page.index('id="now"') < page.index(message) < page.index('id="panel"')
    assert state(table) == before
