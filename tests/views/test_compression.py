"""Pages go compressed to a phone that asks for it; the table's event stream never."""

import gzip

import pytest

from tests.views.helpers import browser_for, off_the_loop


def test_a_table_page_is_gzip_compressed_and_still_answers_304(alice, game):
    client = browser_for(alice)
    response = client.get(f"/s/{game.pk}/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    page = gzip.decompress(response.content).decode()
    assert 'id="scoreboard"' in page and len(response.content) < len(page) / 2
    again = client.get(f"/s/{game.pk}/", HTTP_ACCEPT_ENCODING="gzip",
                       HTTP_IF_NONE_MATCH=response["ETag"])
    assert response["ETag"].startswith("W/") and again.status_code == 304


@pytest.mark.django_db(transaction=True)  # the stream reads on threads of its own
def test_the_event_stream_is_never_compressed(alice, game):
    client = browser_for(alice)
    response = off_the_loop(lambda: client.get(f"/s/{game.pk}/stream/",
                                               HTTP_ACCEPT_ENCODING="gzip"))
    assert response["Content-Type"].startswith("text/event-stream")
    assert "Content-Encoding" not in response
    response.close()
