"""A page address that finds nothing (a table this phone has no way into, a mistyped address)
answers a page of ours in the phone's language, with the way back to a table: not Django's bare
English "Not Found"; a failure on our side, a page of ours too."""

import pytest
from django.test import Client, RequestFactory

from companion import views
from tests.factories import session_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words", [
    ("en", ["Nothing here", "There is no such page, or it is not yours.", "Join a game"]),
    ("es", ["No hay nada aquí", "No existe esa página, o no es tuya.", "Unirse a una partida"]),
])
def test_a_table_this_phone_cannot_open_is_a_page_of_ours(alice, language, words):
    table = session_for(alice)
    phone = Client()
    phone.cookies["django_language"] = language
    for address in (f"/s/{table.pk}/", "/no/such/page/"):
        response = phone.get(address)
        page = response.content.decode()
        assert response.status_code == 404
        assert f'<html lang="{language}">' in page and 'href="/join/"' in page
        for word in words:
            assert word in page, (address, word)


def test_a_failure_on_our_side_is_a_page_of_ours():
    response = views.server_error(RequestFactory().get("/history/"))
    assert response.status_code == 500
    assert "Something went wrong on our side: try again in a moment." in response.content.decode()


@pytest.mark.parametrize("language, words", [
    ("en", "go back, reload the page and send it again."),
    ("es", "vuelve atrás, recarga la página y envíalo de nuevo."),
])
def test_a_form_sent_with_an_old_token_is_a_page_of_ours(alice, language, words):
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(alice)
    phone.cookies["django_language"] = language
    response = phone.post("/plays/new/", {"title": "Azul"})
    page = response.content.decode()
    assert response.status_code == 403
    assert f'<html lang="{language}">' in page and words in page
    assert "DEBUG" not in page
