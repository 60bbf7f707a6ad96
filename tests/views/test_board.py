from tests.views.helpers import assert_phone_ready, browser_for


def test_the_board_link_shows_the_scoreboard_only(game):
    response = browser_for().get(f"/board/{game.board_key}/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    assert 'id="scoreboard"' in html and 'id="log"' in html
    assert "/move/" not in html and "/undo/" not in html


def test_an_unknown_board_is_404(db):
    assert browser_for().get("/board/nope/").status_code == 404


def test_the_board_shows_the_now_line_and_the_join_code_while_seats_are_free(alice):
    from companion import services

    table = services.session_create(owner=alice, game="quixote", players=["Ann", "Ben"],
                                    host_seat=0)
    page = browser_for().get(f"/board/{table.board_key}/").content.decode()
    assert 'id="now"' in page and "Round 1: place the castles" in page
    assert table.code in page and f"/board/{table.board_key}/qr.svg" in page
    assert browser_for().get(f"/board/{table.board_key}/qr.svg").status_code == 200
    services.guest_join(code=table.code, seat=1)
    page = browser_for().get(f"/board/{table.board_key}/").content.decode()
    assert 'id="invite"' not in page
    assert browser_for().get(f"/board/{table.board_key}/qr.svg").status_code == 404


def test_the_board_shows_the_games_live_part(alice):
    from tests.factories import session_for

    table = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo"))
    page = browser_for().get(f"/board/{table.board_key}/").content.decode()
    assert 'id="panel_live"' in page and 'id="al-sheet-0"' in page
    assert "<form" not in page.split('id="table"')[1]
