"""Every page that needs no script, read in Spanish (Accept-Language: es): its visible text holds
no English. The check looks for common English words, whole words, in what a person reads (text
and the labels a screen reader says), leaving out the names the test gave its players and games;
it is shown to find them on the same page read in English."""

import html
import re

import pytest
from django.utils import translation

from companion import services
from companion.models import Session
from tests.factories import UserFactory, finished_session, session_for
from tests.views.helpers import browser_for

pytestmark = pytest.mark.django_db

# Words that a Spanish page never has and nearly every English sentence does. Not "a", "no",
# "me", "con", "solo" or "final", which Spanish has too.
WORDS = """
    the and of with your you yours turn turns points point round rounds game games play plays
    played player players score scores wins win won undo redo join new history move moves seat
    seats host table yet is are was were this that these what who which here there nothing
    none all by for at it its to from into after before next back more add sign password name
    names share over results result date where best average statistics phone phones code
    offline rematch log logged every each only just open opened choose tap keep kept
"""
ENGLISH = frozenset(WORDS.split())
# What a person reads besides the text: the names a screen reader says and the hints shown.
SAID = re.compile(r"""\b(?:aria-label|title|placeholder|alt)\s*=\s*"([^"]*)\"""")
HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1\s*>|<!--.*?-->", re.S | re.I)
# A word stands alone: not the letters of a join code or a number ("W2BY66" holds no "by").
WORD = re.compile(r"\b[^\W\d_]+(?:['’][^\W\d_]+)*\b")

NAMES = ("Ana", "Ben", "Cy", "Vanessa", "Peter", "Hearts", "alice")


def visible_text(page):
    """The text of a page as a person reads it: no scripts, styles or comments; each label a
    screen reader says (aria-label, title, placeholder, alt) kept beside the text."""
    page = HIDDEN.sub(" ", page)
    said = " ".join(SAID.findall(page))
    text = re.sub(r"<[^>]+>", " ", page)
    # An address shown to copy (the join link) is not a sentence.
    return re.sub(r"https?://\S+", " ", html.unescape(f"{text} {said}"))


def english_words(page, names=NAMES):
    """The English words of a page's visible text, with the sentence each is in."""
    text = visible_text(page)
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}\b", " ", text)
    found = {}
    for line in re.split(r"\s{2,}|\n", text):
        for word in WORD.findall(line):
            if word.lower() in ENGLISH:
                found.setdefault(word.lower(), line.strip()[:120])
    return found


def spanish(client, url):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Language"] == "es"
    return response.content.decode()


# Each page: how to reach it, from alice's account (or as nobody), with what it shows made first.

def _home(alice):
    session_for(alice, game="pad", players=["Ana", "Ben"], options={"game": "Hearts"})
    return browser_for(alice), "/"


def _home_signed_out(alice):
    return browser_for(), "/"


def _new(alice):
    return browser_for(alice), "/new/"


def _new_pad(alice):
    return browser_for(alice), "/new/?game=pad"


def _join(alice):
    return browser_for(), "/join/"


def _join_seat(alice):
    session = session_for(alice, game="pad", players=["Ana", "Ben"], options={"game": "Hearts"})
    return browser_for(), f"/join/{session.code}/"


def _login(alice):
    return browser_for(), "/login/"


def _signup(alice):
    return browser_for(), "/signup/"


def _players(alice):
    session_for(alice, game="pad", players=["Ana", "Ben"], options={"game": "Hearts"})
    return browser_for(alice), "/players/"


def _history(alice):
    finished_session(alice, game="pad")
    _logged(alice)
    return browser_for(alice), "/history/"


def _history_session(alice):
    session = finished_session(alice, game="pad")
    return browser_for(alice), f"/history/sessions/{session.pk}/"


def _logged(alice):
    return services.play_log(owner=alice, game="", title="Hearts", win="high", minutes=40,
                             players=[{"name": "Ana", "score": 12, "winner": True},
                                      {"name": "Ben", "score": 9, "winner": False}])


def _history_logged(alice):
    return browser_for(alice), f"/history/sessions/{_logged(alice).pk}/"


def _history_game(alice):
    session = finished_session(alice, game="pad")
    return browser_for(alice), f"/history/games/pad/?title={session.title}"


def _history_player(alice):
    session = finished_session(alice, game="pad")
    player = session.seats.order_by("index").first().player
    return browser_for(alice), f"/history/players/{player.pk}/"


def _play_log(alice):
    return browser_for(alice), "/plays/new/"


def _bgstats(alice):
    return browser_for(alice), "/bgstats/import/"


def _table(game):
    def page(alice):
        session = session_for(alice, game=game, players=["Ana", "Ben", "Cy"])
        return browser_for(alice), f"/s/{session.pk}/"
    return page


def _board(alice):
    # The board speaks its table's language: the one its host's phone read when opening it.
    with translation.override("es"):
        session = session_for(alice, game="pad", players=["Ana", "Ben"],
                              options={"game": "Hearts"})
    return browser_for(), f"/board/{session.board_key}/"


PAGES = [
    pytest.param(_home, id="home"),
    pytest.param(_home_signed_out, id="home-signed-out"),
    pytest.param(_new, id="new"),
    pytest.param(_new_pad, id="new-pad"),
    pytest.param(_join, id="join"),
    pytest.param(_join_seat, id="join-seat"),
    pytest.param(_login, id="login"),
    pytest.param(_signup, id="signup"),
    pytest.param(_players, id="players"),
    pytest.param(_history, id="history"),
    pytest.param(_history_session, id="history-session"),
    pytest.param(_history_logged, id="history-logged"),
    pytest.param(_history_game, id="history-game"),
    pytest.param(_history_player, id="history-player"),
    pytest.param(_play_log, id="play-log"),
    pytest.param(_bgstats, id="bgstats-import"),
    pytest.param(_table("alatriste"), id="table-alatriste"),
    pytest.param(_table("knights"), id="table-knights"),
    pytest.param(_table("pad"), id="table-pad"),
    pytest.param(_table("quixote"), id="table-quixote"),
    pytest.param(_table("rabbits"), id="table-rabbits"),
    pytest.param(_board, id="board"),
]


@pytest.mark.parametrize("page", PAGES)
def test_the_page_reads_in_spanish(page):
    client, url = page(UserFactory(username="alice"))
    # A table's join code is random letters and digits: "7ALL3X" holds no English sentence.
    codes = tuple(Session.objects.values_list("code", flat=True))
    found = english_words(spanish(client, url), names=NAMES + codes)
    assert not found, "English on " + url + ":\n" + "\n".join(
        f"  {word!r} in {line!r}" for word, line in sorted(found.items()))


def test_the_tables_own_parts_read_in_spanish():
    """While the games' panels still owe Spanish (above), the platform's part of a table page
    is checked by its sentences."""
    client, url = _table("pad")(UserFactory(username="alice"))
    page = spanish(client, url)
    for sentence in ("Marcador", "Invita a la mesa", "Aún no hay nada que deshacer."):
        assert sentence in page
    for sentence in ("Scoreboard", "Invite the table", "Nothing to undo yet."):
        assert sentence not in page


def test_the_check_finds_english_on_an_english_page():
    client, url = _history_player(UserFactory(username="alice"))
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert {"the", "game", "wins", "history"} <= set(english_words(page))


def test_the_check_leaves_out_scripts_styles_and_the_players_names():
    page = ('<p>Ronda 2 de Peter</p><script>var the = "game";</script><style>.the{}</style>'
            '<!-- the game --><button aria-label="Deshacer">↶</button>')
    assert english_words(page) == {}
    assert english_words('<button aria-label="Undo the move">↶</button>') == {
        "undo": "Undo the move", "the": "Undo the move", "move": "Undo the move"}


def test_a_winner_is_marked_with_a_word_for_anyone():
    # "ganador" on Ana's row read as a man's word; "ganó" is anyone's.
    alice = UserFactory(username="alice")
    session = finished_session(alice, game="pad")
    page = spanish(browser_for(alice), f"/s/{session.pk}/")
    assert '<span class="badge">ganó</span>' in page and "ganador<" not in page
