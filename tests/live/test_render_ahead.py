"""A move's fragments rendered ahead by its request and carried in the announcement
(fragments.render_ahead, live.pack) are, once a server process has put the new log line before
the lines it shows (FragmentCache.take_ahead), the fragments a render from the database makes
of the same version: for every game, move after move, to the end of a game."""

import random
import re

import pytest

from companion import engine, fragments, live, plugins, services, streams
from companion.models import Session
from companion.templatetags.parts import split_parts
from tests.factories import session_for


def rendered_from_the_database(pk):
    session = Session.objects.select_related("owner").get(pk=pk)
    html, lines = fragments.render_shared_lines(session)
    return streams.Rendered(session.version, html, lines=lines)


def play_one(session, actor, rng):
    """A move drawn from the game's samples that its rules take; None when none is taken."""
    candidates = plugins.get(session.game).samples(session.state, rng)
    rng.shuffle(candidates)
    for candidate in candidates:
        try:
            return services.move_play(session=session, type=candidate["type"],
                                      data=candidate["data"], actor=actor)
        except engine.Refused:
            continue
    return None


@pytest.mark.parametrize("game", sorted(plugin.slug for plugin in plugins.all_plugins()
                                           if plugin.slug != "tiny"))
def test_carried_fragments_are_those_the_database_gives(alice, game, monkeypatch):
    session = session_for(alice, game=game, players=("Ana", "Ben", "Cy"))
    actor = services.Actor(user=alice, host_seat=None)
    rng = random.Random(f"ahead:{game}")
    cache = streams.FragmentCache()
    key = (session.pk, session.language)
    cache._shared[key] = rendered_from_the_database(session.pk)
    # What the move's own request renders, where it renders it (on PostgreSQL before its one
    # statement writes the move: see services._move_write_at_once), as a watched table's does.
    rendered = []
    monkeypatch.setattr(live, "render_ahead",
                        lambda *args: rendered.append(streams.render_ahead(*args)) or rendered[-1])
    played = slimmed = 0
    for _ in range(40):
        # Read as the API reads a phone's move: played on the session as read.
        session = services.with_last_seq(Session.objects.prefetch_related("seats")).get(
            pk=session.pk)
        if session.is_finished:
            break
        move = play_one(session, actor, rng)
        if move is None:
            break
        played += 1
        assert len(rendered) == played, "the move's request rendered no fragments ahead"
        ahead = rendered[-1]
        # As a NOTIFY's payload carries it: packed, the language readable without unpacking.
        packed = live.pack(ahead)
        assert live.packed_language(packed) == session.language
        shown = cache._shared[key]
        cache.take_ahead(session.pk, move.session.version, packed)
        carried = cache._shared[key]
        assert carried.version == move.session.version, "the carried version was not kept"
        expected = rendered_from_the_database(session.pk)
        assert carried.html == expected.html
        assert carried.lines == expected.lines
        if shown.lines:  # the first move's log replaces "No moves yet.": it goes whole
            assert carried.new_line == carried.lines[0], "the log went whole to a phone in step"
        for name, slim in carried.slim.items():
            assert phone_fills_in(slim, shown.html[name]) == carried.html[name]
        slimmed += bool(carried.slim)
    assert played >= 5
    assert cache.taken == played
    if game in GAMES_WITH_PARTS:
        assert slimmed, "no push left a part to the phones"


GAMES_WITH_PARTS = {"alatriste", "knights", "pad", "quixote", "rabbits"}
KEPT = re.compile(r'<template data-keep="([\w-]+)"></template>')
# A part's marks (companion/templatetags/parts.py), read here as a pattern of their own.
PART = re.compile(r"<!--part:([\w-]+)-->(.*?)<!--/part-->", re.DOTALL)


def phone_fills_in(slim, shown):
    """What table.js makes of a push with parts left out: each placeholder replaced by the part
    the phone shows (its element, by id)."""
    parts = {match[1]: match[0] for match in PART.finditer(shown)}
    return KEPT.sub(lambda match: parts[match[1]], slim)


@pytest.mark.parametrize("game", sorted(GAMES_WITH_PARTS))
def test_each_marked_part_is_one_element_with_the_parts_id(alice, game):
    session = session_for(alice, game=game, players=("Ana", "Ben", "Cy"))
    html = fragments.render_shared(Session.objects.get(pk=session.pk))["panel_live"]
    parts = PART.findall(html)
    assert parts
    ids = [part_id for part_id, _ in parts]
    assert len(ids) == len(set(ids))
    for part_id, inner in parts:
        opening = re.match(r"<(\w+)[^>]*\bid=\"([\w-]+)\"", inner)
        assert opening and opening[2] == part_id, f"part {part_id} does not open with its element"
        assert inner.rstrip().endswith(f"</{opening[1]}>")


@pytest.mark.parametrize("game", sorted(GAMES_WITH_PARTS))
def test_the_parts_split_out_are_those_the_marks_pattern_finds(alice, game):
    session = session_for(alice, game=game, players=("Ana", "Ben", "Cy"))
    html = fragments.render_shared(Session.objects.get(pk=session.pk))["panel_live"]
    parts = split_parts(html)
    assert [(part_id, inner) for _start, _end, part_id, inner in parts] == PART.findall(html)
    assert [html[start:end] for start, end, *_ in parts] == [m[0] for m in PART.finditer(html)]
    assert split_parts("<p>no part</p>") == []


def test_a_version_not_following_the_one_shown_is_left_to_the_streams(alice):
    session = session_for(alice)
    cache = streams.FragmentCache()
    key = (session.pk, session.language)
    cache._shared[key] = rendered_from_the_database(session.pk)
    actor = services.Actor(user=alice)
    first = services.move_play(session=session, type="add", data={"seat": 0, "points": 1},
                               actor=actor)
    second = services.move_play(session=first.session, type="add",
                                data={"seat": 1, "points": 1}, actor=actor)
    # The first move's announcement never came to this process: its second is not enough.
    cache.take_ahead(session.pk, second.session.version,
                     live.pack(streams.render_ahead(second.session, second)))
    assert cache._shared[key].version == 0 and cache.taken == 0


def test_the_log_joined_from_its_lines_is_the_log_rendered_whole(alice):
    session = session_for(alice)
    actor = services.Actor(user=alice)
    for points in range(1, 4):
        services.move_play(session=session, type="add", data={"seat": 0, "points": points},
                           actor=actor)
    html, lines = fragments.render_shared_lines(Session.objects.get(pk=session.pk))
    assert len(lines) == 3
    assert fragments.render_log(lines) == html["log"]


def test_a_table_no_phone_watches_renders_nothing_ahead(alice):
    session = session_for(alice)
    move = services.move_play(session=session, type="add", data={"seat": 0, "points": 1},
                              actor=services.Actor(user=alice))
    assert not live.watched(session.pk)
    assert streams.render_ahead_for_phones(move.session, move) is None
    live.heard(f"w:{session.pk}")  # a stream of the table opened, here or in another process
    assert live.watched(session.pk)
    ahead = streams.render_ahead_for_phones(move.session, move)
    assert ahead["language"] == session.language and "scoreboard" in ahead["html"]


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("game", sorted(plugin.slug for plugin in plugins.all_plugins()
                                           if plugin.slug != "tiny"))
def test_a_part_rendered_once_per_key_is_the_part_rendered_afresh(alice, game, language):
    """Parts are rendered once per what they show ({% cache %} on the `parts` cache: the
    scoreboard's table, a game's parts in its live template, keyed by their model, or Knights'
    card grid by `grid_key`): move after move, in both languages, the fragments rendered with
    the parts kept equal those rendered with none kept, so no key leaves out anything its part
    shows."""
    from django.core.cache import caches
    from django.utils import translation

    session = session_for(alice, game=game, players=("Ana", "Ben", "Cy"))
    actor = services.Actor(user=alice, host_seat=None)
    rng = random.Random(f"parts:{game}")
    seen = set()
    for _ in range(60):
        session = Session.objects.select_related("owner").get(pk=session.pk)
        with translation.override(language):
            kept = fragments.render_shared(session)
            assert caches["parts"]._cache, "no part was kept"
            caches["parts"].clear()
            afresh = fragments.render_shared(session)
        assert kept == afresh
        seen.add(afresh["panel_live"])
        if session.is_finished or play_one(session, actor, rng) is None:
            break
    assert len(seen) > 5, "the moves played changed too little for the test to see"
