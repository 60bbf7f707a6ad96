"""Arbitrary bytes, text and JSON posted to every form the pages have, by the host and by a seated
guest: never a 500 (a 4xx with a sentence, or the page again)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import plugins
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

FIELDS = ["type", "payload", "expected_version", "seat", "form", "name", "username", "password",
          "game", "code", "points", "round", "cards", "opt_deck", "p.honor", "event", "card"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children,
                                                                         max_size=3),
    max_leaves=8)
field_values = st.one_of(
    st.text(),
    st.binary().map(lambda raw: raw.decode("latin-1")),
    json_values.map(json.dumps),
    st.sampled_from(["²", "-1", "1e9", "\x00", "[" * 3000 + "]" * 3000, "a/b", "9" * 40]),
)
forms = st.dictionaries(st.sampled_from(FIELDS), field_values, max_size=5)


def form_paths(session):
    paths = [f"/s/{session.pk}/move/", f"/s/{session.pk}/undo/", f"/s/{session.pk}/seat/",
             f"/join/{session.code}/", "/join/", "/signup/", "/login/", "/players/",
             f"/new/?game={session.game}"]
    plugin = plugins.get(session.game)
    if plugin.urls:
        from django.urls import get_resolver

        namespace = get_resolver().namespace_dict.get(session.game)
        if namespace:
            for pattern in namespace[1].url_patterns:
                paths.append(f"/g/{session.game}/" + str(pattern.pattern).replace(
                    "<int:pk>", str(session.pk)))
    return paths


@pytest.mark.parametrize("game", [plugin.slug for plugin in plugins.all_plugins()])
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_form_answers_500(game, alice, data, settings):
    settings.LIMITS = dict.fromkeys(settings.LIMITS, "100000/h")
    plugin = plugins.get(game)
    names = ["Ann", "Bo", "Cy"][:max(2, plugin.rules.min_players)]
    session = session_for(alice, game=game, players=names)
    clients = {"host": browser_for(alice), "guest": guest_browser(session, seat=1)}
    for path in form_paths(session):
        who = data.draw(st.sampled_from(sorted(clients)), label="who")
        body = data.draw(forms, label=path)
        for method in ("post", "get"):
            response = getattr(clients[who], method)(path, body)
            assert response.status_code < 500, (method, path, body, response.status_code)
