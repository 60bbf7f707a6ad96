"""A name typed without a space (a game, a place, a player: 60 letters, the most a field takes)
never makes a page wider than the phone: it wraps where it must."""

import pytest

from companion import services
from companion.models import Player
from tests.e2e.conftest import no_sideways_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG = "Supercalifragilisticexpialidocious" + "x" * 26  # 60 letters, no space


def test_a_long_name_wraps_on_every_page_that_shows_it(host_phone, alice):
    logged = services.play_log(owner=alice, title=LONG, location=LONG,
                               players=[{"name": LONG, "score": 3}, {"name": "Ben", "score": 5}])
    table = services.session_create(owner=alice, game="pad", players=[LONG, "Ben"],
                                    options={"game": LONG, "win": "high"}, location=LONG)
    player = Player.objects.get(owner=alice, name=LONG)
    host = host_phone()
    wide = []
    for path in ("/history/", f"/history/sessions/{logged.pk}/", f"/history/players/{player.pk}/",
                 f"/history/games/pad/?title={LONG}", f"/s/{table.pk}/", "/players/"):
        host.goto(path)
        if not no_sideways_scroll(host):
            wide.append(f"{path}: {host.evaluate('document.documentElement.scrollWidth')} px")
    assert not wide, wide


def cards_scrolled_sideways(page):
    """The cards (each scrolls its own overflow) whose content is wider than they are, with
    every fold open: a table or a button pushed wide by a name that does not wrap."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    return page.evaluate("""() => [...document.querySelectorAll('.card')]
        .filter(card => card.getClientRects().length && card.scrollWidth > card.clientWidth + 1)
        .map(card => `${card.id || card.className}: ${card.scrollWidth} > ${card.clientWidth}`)""")


@pytest.mark.parametrize("slug", ["knights", "quixote", "rabbits", "alatriste", "pad"])
def test_a_long_player_name_keeps_each_games_table_within_its_cards(slug, host_phone, alice):
    """Seen on Knights with a 30-letter name: "Towards victory" 343 px wide in a 310 px card,
    its Worship column cut off, and the name running out of its seat's button."""
    from tests.factories import session_for

    name = LONG[:30]
    table = session_for(alice, game=slug, players=(name, "Ben", "Cy"))
    host = host_phone()
    host.goto(f"/s/{table.pk}/")
    assert cards_scrolled_sideways(host) == []


@pytest.mark.parametrize("slug", ["quixote", "pad", "rabbits"])
def test_text_at_twice_the_size_keeps_every_card_within_the_phone(slug, host_phone, alice):
    """A phone's larger text setting (the root's size doubled): the body was set in px and did
    not grow, and Don Quixote's "+" buttons and the join link ran out of their cards."""
    from tests.factories import session_for

    table = session_for(alice, game=slug, players=("Ana", "Ben", "Cy"))
    host = host_phone()
    host.goto(f"/s/{table.pk}/")
    normal = host.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    host.evaluate("document.documentElement.style.fontSize = '200%'")
    assert host.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 2 * normal
    assert cards_scrolled_sideways(host) == []
    assert no_sideways_scroll(host)
