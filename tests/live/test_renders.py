"""What a version shows is read once and rendered once per server process for each (session,
version, language, view), kept in one bounded cache, and each phone is pushed only the sections
that changed."""

import asyncio
from types import SimpleNamespace

from companion import streams
from tests.views.helpers import off_the_loop


def fake_renders(monkeypatch, size=3):
    """streams.renders with a read and a render that count their calls and show the version
    asked for."""
    made = []
    versions = {}

    async def read(session_id):
        await asyncio.sleep(0.01)  # other streams ask meanwhile
        return SimpleNamespace(session=SimpleNamespace(pk=session_id,
                                                       version=versions.get(session_id, 1)))

    async def render(shown, language, view, before):
        made.append((shown.session.pk, language, view))
        version = shown.session.version
        await asyncio.sleep(0.01)
        sections = {"scoreboard": f"<b>{version // 2}</b>", "log": f"<ol>{version}</ol>"}
        return {name: (html, streams._digest(html)) for name, html in sections.items()}

    monkeypatch.setattr(streams, "_shown_read", read)
    monkeypatch.setattr(streams, "_rendered", render)
    monkeypatch.setattr(streams, "renders", streams.Renders(size))
    return made, versions


def test_many_streams_of_one_version_cost_one_render(monkeypatch):
    made, _versions = fake_renders(monkeypatch)

    async def phones():
        await asyncio.gather(*(streams.renders.at_least(7, 1, "en", streams.TABLE)
                               for _ in range(6)))
        await streams.renders.at_least(7, 1, "es", streams.TABLE)

    off_the_loop(lambda: asyncio.run(phones()))
    assert made == [(7, "en", streams.TABLE), (7, "es", streams.TABLE)]


def test_the_cache_never_holds_more_than_its_size(monkeypatch):
    made, _versions = fake_renders(monkeypatch, size=3)

    async def tables():
        for pk in range(100):
            await streams.renders.at_least(pk, 1, "en", streams.TABLE)
        await streams.renders.at_least(99, 1, "en", streams.TABLE)  # kept
        await streams.renders.at_least(0, 1, "en", streams.TABLE)  # forgotten: again

    off_the_loop(lambda: asyncio.run(tables()))
    assert len(streams.renders._kept) == 3
    assert len(made) == 101


def event_names(text):
    return [line.removeprefix("event: ") for line in text.splitlines()
            if line.startswith("event: ")]


def test_a_phone_is_pushed_only_the_sections_that_changed(monkeypatch):
    _made, versions = fake_renders(monkeypatch)

    async def phone():
        pusher = streams.Pusher(7, "en", [streams.TABLE])
        await pusher.shown(1)  # the page was drawn at version 1
        pushed = []
        for version in (2, 3, 3):
            versions[7] = version
            pushed.append(event_names(await pusher.push(version)))
        return pushed

    # Version 2 changes the scoreboard (1 // 2 != 2 // 2) and the log; 3 the log alone; a
    # version pushed already is not pushed again.
    assert off_the_loop(lambda: asyncio.run(phone())) == [
        ["scoreboard", "log", "version"], ["log", "version"], []]


def test_a_page_drawn_before_the_newest_render_is_pushed_everything(monkeypatch):
    _made, versions = fake_renders(monkeypatch)
    versions[7] = 4  # moves came between the page and its stream

    async def phone():
        pusher = streams.Pusher(7, "en", [streams.TABLE])
        await pusher.shown(3)
        return event_names(await pusher.push(4))

    assert off_the_loop(lambda: asyncio.run(phone())) == ["scoreboard", "log", "version"]
