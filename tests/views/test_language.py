"""Each phone in its own language: the browser's Accept-Language, the header's switch (kept in a
cookie), the table's language that the host sets and the board speaks, log lines said in the
reader's language."""

from companion import services
from companion.models import Move, Session
from tests.views.helpers import browser_for, guest_browser

# A sentence of Django's own catalogue: known in Spanish whatever our catalogues hold.
REQUIRED = {"id": "This field is required.", "values": {}}


def test_a_page_speaks_the_browsers_language(alice):
    client = browser_for(alice)
    assert '<html lang="en">' in client.get("/").content.decode()
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    assert '<html lang="es">' in page.content.decode()
    assert page["Content-Language"] == "es"


def test_the_switch_in_the_header_is_remembered_by_the_phone(alice):
    client = browser_for(alice)
    home = client.get("/").content.decode()
    assert 'name="language" value="es"' in home  # the other language, one tap away
    answer = client.post("/i18n/setlang/", {"language": "es", "next": "/history/"})
    assert answer.status_code == 302 and answer["Location"] == "/history/"
    cookie = answer.cookies["django_language"]
    assert cookie.value == "es" and int(cookie["max-age"]) >= 365 * 24 * 3600
    # The cookie wins over the browser's own language.
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="es">' in page and 'name="language" value="en"' in page


def test_a_log_line_reads_in_each_readers_language(alice, game):
    Move.objects.create(session=game, seq=1, type="add", data={}, summary="English line",
                        message=REQUIRED)
    Session.objects.filter(pk=game.pk).update(last_seq=1)  # as a move the services play
    english = browser_for(alice).get(f"/s/{game.pk}/").content.decode()
    spanish = browser_for(alice).get(f"/s/{game.pk}/",
                                     HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "This field is required." in english
    assert "Este campo es obligatorio." in spanish and "This field is required." not in spanish


def test_a_line_kept_before_lines_were_messages_reads_as_it_was(alice, game):
    Move.objects.create(session=game, seq=1, type="add", data={}, summary="Vanessa +3")
    Session.objects.filter(pk=game.pk).update(last_seq=1)  # as a move the services play
    assert "Vanessa +3" in browser_for(alice).get(f"/s/{game.pk}/",
                                                  HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_the_new_game_takes_the_tables_language(alice):
    client = browser_for(alice)
    form = client.get("/new/?game=tiny", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<option value="es" lang="es" selected>' in form
    client.post("/new/", {"game": "tiny", "name": ["Vanessa", "Peter"], "language": "es",
                          "host_seat": "0"})
    assert Session.objects.get().language == "es"
    client.post("/new/", {"game": "tiny", "name": ["Vanessa", "Peter"], "host_seat": "0"})
    assert Session.objects.order_by("-pk").first().language == "en"  # the host's, by default


def test_only_the_host_sets_the_tables_language_and_the_board_speaks_it(alice, game, bob):
    board = f"/board/{game.board_key}/"
    assert '<html lang="en">' in browser_for().get(board).content.decode()

    guest = guest_browser(game, seat=None)
    refused = guest.post(f"/s/{game.pk}/language/", {"language": "es"})
    assert refused.status_code == 403
    assert "Only the host sets the table&#x27;s language." in refused.content.decode()
    assert Session.objects.get(pk=game.pk).language == "en"

    bad = browser_for(alice).post(f"/s/{game.pk}/language/", {"language": "xx"})
    assert bad.status_code == 400 and "The language is one of en, es, not xx." in \
        bad.content.decode()

    assert browser_for(alice).post(f"/s/{game.pk}/language/", {"language": "es"}).status_code \
        == 302
    shown = browser_for().get(board, HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="es">' in shown.content.decode() and shown["Content-Language"] == "es"
    # Each phone still reads its own.
    assert '<html lang="en">' in browser_for(alice).get(f"/s/{game.pk}/").content.decode()


def test_the_service_refuses_a_guest_as_the_page_does(game, bob):
    from companion.actors import Actor
    from companion.errors import Forbidden

    try:
        services.session_language_set(session=game, actor=Actor(guest=bob), language="es")
    except Forbidden as refusal:
        assert refusal.message == "Only the host sets the table's language."
    else:
        raise AssertionError("a guest set the table's language")


def test_after_a_refused_form_the_switch_leads_back_to_the_table(alice, game):
    client = browser_for(alice)
    refused = client.post(f"/s/{game.pk}/move/", {"type": "add", "seat": "0", "points": "7"})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert f'name="next" value="/s/{game.pk}/"' in page
    assert f'name="next" value="/s/{game.pk}/move/"' not in page


def test_who_undid_is_said_in_each_readers_language_whatever_the_undoers(alice, game):
    """The host undoes from a Spanish phone: an English phone reads "The host undid", not the
    Spanish word the undoing phone had for the host, and a sentence opens with a capital."""
    host = browser_for(alice)
    host.post(f"/s/{game.pk}/move/", {"type": "add", "form": "generic", "seat": "0",
                                      "points": "2"})
    assert host.post(f"/s/{game.pk}/undo/", HTTP_ACCEPT_LANGUAGE="es").status_code == 302
    english = guest_browser(game, seat=1).get(f"/s/{game.pk}/").content.decode()
    spanish = guest_browser(game).get(f"/s/{game.pk}/",
                                      HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "The host undid: Vanessa +2" in english and "(undone by the host)" in english
    assert "organiza" not in english
    assert "Quien organiza deshizo:" in spanish and "(deshecha por quien organiza)" in spanish


def test_each_language_is_named_in_its_own_words(alice):
    """The switch and the table's language say "English" and "Español", each in the voice of
    its lang: a Spanish page named English "Inglés" inside lang="en"."""
    from tests.views.helpers import browser_for

    client = browser_for(alice)
    page = client.get("/new/?game=tiny", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<span class="sr-only">English</span>' in page
    assert 'lang="en">English</option>' in page and 'lang="es" selected>Español</option>' in page
