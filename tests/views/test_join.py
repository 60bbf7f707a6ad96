from companion.access import guest_cookie_name
from companion.models import Guest
from tests.views.helpers import assert_phone_ready, browser_for


def test_typing_a_code_leads_to_the_seats(game):
    client = browser_for()
    assert_phone_ready(client.get("/join/"))
    response = client.get("/join/", {"code": game.code.lower()})
    assert response.status_code == 302 and response.url == f"/join/{game.code}/"
    seats = client.get(response.url)
    assert_phone_ready(seats)
    assert "Vanessa" in seats.content.decode() and "Peter" in seats.content.decode()


def test_a_code_typed_as_it_is_read_out_finds_its_game(game):
    """"u69 ytt": people type a code with the space they hear in it; the field took six
    characters, so the last one was cut off, and the page said no game had the rest."""
    client = browser_for()
    home = client.get("/").content.decode()
    assert 'name="code"' in home and 'maxlength="6"' not in home
    spoken = f"{game.code[:3].lower()} {game.code[3:].lower()}"
    response = client.get("/join/", {"code": spoken})
    assert response.status_code == 302 and response.url == f"/join/{game.code}/"
    assert client.get(f"/join/{game.code[:3]}-{game.code[3:]}/").status_code == 200


def test_a_code_with_a_space_joins_through_the_api_too(game):
    from rest_framework.test import APIClient

    response = APIClient().post("/api/join/", {"code": f" {game.code[:3]} {game.code[3:]} "},
                                format="json")
    assert response.status_code == 201


def test_taking_a_seat_sets_the_guest_cookie_and_opens_the_table(game):
    client = browser_for()
    response = client.post(f"/join/{game.code}/", {"seat": "1"})
    assert response.status_code == 302 and response.url == f"/s/{game.pk}/"
    guest = Guest.objects.get()
    assert guest.seat == 1
    assert client.cookies[guest_cookie_name(game.pk)].value == guest.token
    assert client.get(f"/s/{game.pk}/").status_code == 200


def test_a_taken_seat_is_refused_in_words(game, bob):
    response = browser_for().post(f"/join/{game.code}/", {"seat": "1"})
    assert response.status_code == 409
    assert "already claimed" in response.content.decode()


def test_an_unknown_code_says_so(db):
    response = browser_for().get("/join/ABCDEF/")
    assert response.status_code == 404
    assert "No game is open with the code ABCDEF" in response.content.decode()


def test_the_refused_code_field_says_so_to_a_screen_reader(db):
    """The sentence was an alert alone: the field neither was marked invalid nor pointed at it,
    and the focus was on the page's body."""
    html = browser_for().get("/join/ABCDEF/").content.decode()
    assert 'id="code-error"' in html
    field = html[html.index('<input id="code"'):].split(">", 1)[0]
    assert 'aria-invalid="true"' in field and 'aria-describedby="code-error"' in field
    assert "autofocus" in field
    fresh = browser_for().get("/join/").content.decode()
    assert "aria-invalid" not in fresh and "autofocus" not in fresh


def test_a_finished_games_code_leads_to_its_rematchs_seats(alice, game):
    from companion import services

    actor = services.Actor(user=alice)
    for _ in range(2):
        services.move_play(session=game, type="add", data={"seat": 0, "points": 10}, actor=actor)
    new = services.session_rematch(session=game, actor=actor)
    response = browser_for().get(f"/join/{game.code}/")
    assert response.status_code == 302 and response.url == f"/join/{new.code}/"


def test_a_phone_that_tapped_the_wrong_seat_moves_to_its_own(alice):
    """Cy's phone tapped Ben: nothing on its page let it change, and going back to the join
    page made a second phone while Ben's seat stayed held."""
    from companion import services
    from tests.views.helpers import guest_browser

    table = services.session_create(owner=alice, game="tiny",
                                    players=["Ann", "Ben", "Cy", "Dee"], host_seat=0)
    dee = guest_browser(table, seat=3)
    cy = guest_browser(table, seat=1)
    page = cy.get(f"/s/{table.pk}/").content.decode()
    start = page.index('id="seat-move"')
    move = page[start:page.index("</form>", start)]
    assert "Tapped the wrong seat? Move to yours" in move
    assert ">Cy</option>" in move and ">Dee</option>" not in move and ">Ann</option>" not in move
    moved = cy.post(f"/s/{table.pk}/seat/", {"seat": "2"})
    # Back at the table's top, where Cy's own controls are, not at the foot where the form was.
    assert moved.status_code == 302 and moved["Location"] == f"/s/{table.pk}/#table"
    assert sorted(Guest.objects.filter(session=table).exclude(seat=None)
                  .values_list("seat", flat=True)) == [2, 3]
    # Dee's seat is her phone's: refused beside the form, in words.
    refused = cy.post(f"/s/{table.pk}/seat/", {"seat": "3"})
    assert refused.status_code == 409
    assert "That seat is already claimed by another phone." in refused.content.decode()
    assert 'id="seat-move"' in dee.get(f"/s/{table.pk}/").content.decode()
