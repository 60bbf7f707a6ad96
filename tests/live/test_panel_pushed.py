"""A phone's panel as its stream pushes it is the panel its page draws: the push draws it from the
version's one read (fragments.Shown) with the live part drawn once for every phone, and reads
nothing more."""

import random
import re

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from companion import fragments, plugins, services
from companion.actors import Actor
from companion.errors import Refused
from tests.factories import session_for

GAMES = ["alatriste", "knights", "pad", "quixote", "rabbits"]
CSRF = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>')


def _page_panel(session, viewer, is_host):
    context = fragments.fragment_context(session, fragments.viewer_actor(session, viewer,
                                                                          is_host))
    return CSRF.sub("", render_to_string("companion/table.html#panel", context))


def _played(session, moves, seed):
    """`moves` moves the game's samples offer, the first the rules take each time."""
    plugin = plugins.get(session.game)
    rng = random.Random(seed)
    for _ in range(moves):
        candidates = plugin.samples(session.state, rng)
        rng.shuffle(candidates)
        for candidate in candidates:
            try:
                session = services.move_play(session=session, type=candidate["type"],
                                             data=candidate["data"],
                                             actor=Actor.host(session)).session
                break
            except Refused:
                continue
    return session


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", ["en", "es"])
def test_a_pushed_panel_is_the_panel_the_page_draws(alice, game, language):
    session = session_for(alice, game=game, players=("Vanessa", "Peter", "Ana"))
    for moves in (0, 6, 6):
        session = _played(session, moves, seed=moves)
        shown = fragments.shown_read(session.pk)
        with translation.override(language):
            live = fragments.render_shared(shown).get("panel_live")
            for viewer, is_host in ((None, True), (0, False), (1, False), (2, False)):
                with CaptureQueriesContext(connection) as queries:
                    pushed, _digest = fragments.panel_view(shown, viewer, is_host, live=live)
                assert len(queries) == 0
                assert CSRF.sub("", pushed) == _page_panel(session, viewer, is_host)


def test_a_version_is_read_once_for_every_view(alice):
    session = _played(session_for(alice, game="knights", players=("Vanessa", "Peter", "Ana")),
                      4, seed=1)
    with CaptureQueriesContext(connection) as queries:
        shown = fragments.shown_read(session.pk)
        live = fragments.render_shared(shown).get("panel_live")
        for viewer in (None, 0, 1, 2):
            fragments.panel_view(shown, viewer, viewer is None, live=live)
    # The session, its seats, its log's moves and the game's panel data (the phones' seats).
    assert len(queries) == 4
