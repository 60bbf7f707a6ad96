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


def test_a_finished_tables_board_follows_to_the_rematchs_board(alice):
    """The board has no access to the table's way to the rematch (/s/<id>/next/ is a 404 for
    it): its own goes to the new game's board, or stays where it is until there is one."""
    from companion import services
    from tests.factories import played

    done = played(alice)
    board = browser_for()
    response = board.get(f"/board/{done.board_key}/next/")
    assert response.status_code == 302 and response["Location"] == f"/board/{done.board_key}/"
    new = services.session_rematch(session=done, actor=services.Actor(user=alice))
    response = board.get(f"/board/{done.board_key}/next/")
    assert response.status_code == 302 and response["Location"] == f"/board/{new.board_key}/"
    assert board.get("/board/nope/next/").status_code == 404
