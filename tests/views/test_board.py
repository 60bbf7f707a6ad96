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
