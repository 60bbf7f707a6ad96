"""The board, the screen in the middle of the table: it follows the table to its rematch."""

import pytest

from companion import services
from tests.factories import played

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_board_follows_the_table_to_its_rematch(phone, alice):
    done = played(alice)
    board = phone()
    board.goto(f"/board/{done.board_key}/")
    board.wait_for_selector("#table[data-stream=open]", state="attached")
    new = services.session_rematch(session=done, actor=services.Actor(user=alice))
    board.wait_for_url(f"**/board/{new.board_key}/")
    board.wait_for_selector("#scoreboard")
