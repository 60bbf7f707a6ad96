"""The table page: alice hosts, bob is a guest with a seat, charlie a stranger."""

from companion.access import guest_cookie_name
from companion.models import Move
from tests.views.helpers import assert_phone_ready, browser_for


def guest_browser(guest):
    client = browser_for()
    client.cookies[guest_cookie_name(guest.session_id)] = guest.token
    return client


def test_the_host_sees_scoreboard_panel_log_and_join_code(alice, game):
    response = browser_for(alice).get(f"/s/{game.pk}/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    for part in ('id="scoreboard"', 'id="panel"', 'id="log"', 'id="undo"', game.code,
                 f"/s/{game.pk}/qr.svg", "/board/"):
        assert part in html


def test_the_guest_sees_the_table_without_the_board_link(bob, game):
    response = guest_browser(bob).get(f"/s/{game.pk}/")
    assert response.status_code == 200
    assert "(you)" in response.content.decode()
    assert game.board_key not in response.content.decode()


def test_strangers_get_404(charlie, game, db):
    assert browser_for(charlie).get(f"/s/{game.pk}/").status_code == 404
    assert browser_for().get(f"/s/{game.pk}/").status_code == 404
    assert browser_for().post(f"/s/{game.pk}/move/", {"type": "add"}).status_code == 404
    assert browser_for().post(f"/s/{game.pk}/undo/").status_code == 404
    assert browser_for().get(f"/s/{game.pk}/qr.svg").status_code == 404


def test_a_move_through_the_form_without_javascript(alice, game):
    client = browser_for(alice)
    response = client.post(f"/s/{game.pk}/move/", {"type": "add", "form": "generic",
                                                   "payload": '{"seat": 0, "points": 3}'})
    assert response.status_code == 302
    html = client.get(f"/s/{game.pk}/").content.decode()
    assert "Vanessa +3" in html
    assert "Undo: Vanessa +3" in html


def test_a_move_through_htmx_answers_the_live_partial(bob, game):
    response = guest_browser(bob).post(
        f"/s/{game.pk}/move/", {"type": "add", "seat": "1", "points": "4", "form": "generic"},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"') and "Peter +4" in html
    assert "<html" not in html


def test_a_refusal_is_shown_next_to_its_form_and_changes_nothing(alice, game):
    response = browser_for(alice).post(
        f"/s/{game.pk}/move/", {"type": "add", "form": "generic",
                                "payload": '{"seat": 0, "points": 7}'}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    html = response.content.decode()
    assert '<p class="error" role="alert">Seven is unlucky: the rules refuse it.</p>' in html
    assert not Move.objects.exists()


def test_a_shape_refusal_names_the_field(alice, game):
    response = browser_for(alice).post(f"/s/{game.pk}/move/",
                                       {"type": "add", "form": "generic", "seat": "x"})
    assert response.status_code == 400
    assert "seat:" in response.content.decode()


def test_undo_button_names_what_it_undoes_and_refuses_when_stale(alice, game):
    client = browser_for(alice)
    client.post(f"/s/{game.pk}/move/", {"type": "add", "payload": '{"seat": 1, "points": 2}'})
    stale = client.post(f"/s/{game.pk}/undo/", {"expected_version": "0"})
    assert stale.status_code == 412
    assert "Someone at the table changed this: here is the latest." in stale.content.decode()
    assert client.post(f"/s/{game.pk}/undo/", {"expected_version": "1"}).status_code == 302
    assert Move.objects.get().undone


def test_a_seatless_guest_claims_a_seat(game):
    from companion import services

    guest = services.guest_join(code=game.code)
    client = guest_browser(guest)
    assert "Which seat is yours?" in client.get(f"/s/{game.pk}/").content.decode()
    client.post(f"/s/{game.pk}/seat/", {"seat": "0"})
    guest.refresh_from_db()
    assert guest.seat == 0


def test_the_join_qr_is_an_svg_of_the_join_link(alice, game):
    response = browser_for(alice).get(f"/s/{game.pk}/qr.svg")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")


def test_the_table_page_keeps_a_constant_number_of_queries(alice, game,
                                                           django_assert_max_num_queries):
    client = browser_for(alice)
    for points in range(1, 6):
        client.post(f"/s/{game.pk}/move/", {"type": "add",
                                            "payload": f'{{"seat": 0, "points": {points}}}'})
    with django_assert_max_num_queries(12):
        client.get(f"/s/{game.pk}/")


def test_polling_with_etag_answers_304_until_the_table_changes(alice, game):
    client = browser_for(alice)
    live = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}
    first = client.get(f"/s/{game.pk}/", **live)
    assert first.status_code == 200 and first["ETag"] == '"0-en-host-live"'
    assert client.get(f"/s/{game.pk}/", HTTP_IF_NONE_MATCH='"0-en-host-live"',
                      **live).status_code == 304
    # The page's script polls with the part's validator, which the page carries.
    page = client.get(f"/s/{game.pk}/")
    assert page["ETag"] == '"0-en-host"' and 'data-etag="0-en-host-live"' in page.content.decode()
    assert client.get(f"/s/{game.pk}/", HTTP_IF_NONE_MATCH='"0-en-host"').status_code == 304
    # The part's validator never answers a request for the whole page (a browser that kept the
    # part would show it for a reload), nor the other way round.
    whole = client.get(f"/s/{game.pk}/", HTTP_IF_NONE_MATCH='"0-en-host-live"')
    assert whole.status_code == 200 and "<html" in whole.content.decode()
    assert client.get(f"/s/{game.pk}/", HTTP_IF_NONE_MATCH='"0-en-host"',
                      **live).status_code == 200
    # The same version in another language is another page.
    assert client.get(f"/s/{game.pk}/", HTTP_IF_NONE_MATCH='"0-en-host-live"',
                      HTTP_ACCEPT_LANGUAGE="es", **live).status_code == 200
    client.post(f"/s/{game.pk}/move/", {"type": "add", "payload": '{"seat": 0, "points": 1}'})
    again = client.get(f"/s/{game.pk}/", HTTP_IF_NONE_MATCH='"0-en-host-live"', **live)
    assert again.status_code == 200 and again["ETag"] == '"1-en-host-live"'
    assert 'data-version="1"' in again.content.decode()


def test_a_form_sent_twice_with_its_key_records_one_move(alice, game):
    client = browser_for(alice)
    body = {"type": "add", "seat": "0", "points": "3", "idempotency_key": "form-1"}
    assert client.post(f"/s/{game.pk}/move/", body).status_code == 302
    assert client.post(f"/s/{game.pk}/move/", body).status_code == 302
    assert Move.objects.filter(session=game).count() == 1
    body["idempotency_key"] = "k" * 101
    assert client.post(f"/s/{game.pk}/move/", body).status_code == 400
    assert Move.objects.filter(session=game).count() == 1
