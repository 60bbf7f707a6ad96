"""Every page carries a Content-Security-Policy that allows no inline script or style, and a
Permissions-Policy; the pages themselves hold no inline script or style for it to block."""

import re

import pytest

from companion import plugins
from tests.factories import session_for
from tests.views.helpers import browser_for

INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=\"|\son[a-z]+=\"", re.I)


def pages(alice):
    yield "/"
    yield "/new/"
    yield "/history/"
    for plugin in plugins.all_plugins():
        session = session_for(alice, game=plugin.slug,
                              players=["Ann", "Bo", "Cy"][:max(2, plugin.rules.min_players)])
        yield f"/s/{session.pk}/"
        yield f"/join/{session.code}/"
        yield f"/board/{session.board_key}/"
        yield f"/history/sessions/{session.pk}/"
        # A game serving named games (the score pad) has its figures under each name.
        title = "?title=Carcassonne" if plugin.rules.title is not None else ""
        yield f"/history/games/{plugin.slug}/{title}"


def check(response, path):
    assert response.status_code == 200, path
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, path
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path
    assert "camera=(self)" in response["Permissions-Policy"], path
    inline = INLINE.search(response.content.decode())
    assert inline is None, f"{path}: {inline.group(0)}"


@pytest.mark.django_db
def test_every_page_has_the_policies_and_nothing_inline(alice):
    for path in ("/login/", "/signup/", "/join/"):
        check(browser_for().get(path), path)
    client = browser_for(alice)
    for path in pages(alice):
        check(client.get(path), path)
