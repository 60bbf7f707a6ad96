"""A stream's events: each one framed as the event stream's rules read it, and the versions a
stream waits for, with a keepalive on a beat and the newest of several moves at once."""

import asyncio
import contextlib

from hypothesis import given
from hypothesis import strategies as st

from companion import live, streams
from tests.views.helpers import off_the_loop


def read_event(text):
    """An event as a browser's EventSource reads it: (id, name, data)."""
    assert text.endswith("\n\n")
    fields = {"id": None, "event": None}
    data = []
    for line in text[:-2].replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        else:
            fields[name] = value
    return fields["id"], fields["event"], "\n".join(data)


def test_each_line_of_a_fragment_is_a_data_line():
    assert streams.event("log", "<ol>\n<li>1</li>\n</ol>", 7) == (
        "id: 7\nevent: log\ndata: <ol>\ndata: <li>1</li>\ndata: </ol>\n\n")
    assert streams.event("version", "{}") == "event: version\ndata: {}\n\n"
    assert streams.event("now", "") == "event: now\ndata: \n\n"


def test_carriage_returns_end_lines_too_and_a_last_line_ending_adds_no_line():
    assert streams.event("now", "a\r\nb\rc\n") == "event: now\ndata: a\ndata: b\ndata: c\n\n"


@given(st.text(alphabet=st.sampled_from("ab <>\n\r\u2028é"), max_size=40))
def test_a_phone_reads_back_the_fragment_sent(html):
    sent = html.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n")
    assert read_event(streams.event("panel", html, 3)) == ("3", "panel", sent)


def versions_seen(monkeypatch, play):
    """Run `play(stream, broker)` against a stream of session 1 known at version 2, on an event
    loop of its own, with a keepalive every 50 ms and a broker of this process alone."""
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.05)
    broker = live.LocalBroker()
    monkeypatch.setattr(live, "broker", lambda: broker)

    async def current_version(pk):
        return 2

    monkeypatch.setattr(streams, "_current_version", current_version)

    async def run():
        with streams._subscription(1) as queue:
            stream = streams._changes(1, 2, queue)
            try:
                return await play(stream, broker)
            finally:
                await stream.aclose()

    return off_the_loop(lambda: asyncio.run(run()))


def test_a_quiet_stream_is_kept_alive_on_a_beat(monkeypatch):
    async def play(stream, broker):
        return [await asyncio.wait_for(anext(stream), 1) for _ in range(2)]

    assert versions_seen(monkeypatch, play) == [None, None]


def test_a_stream_yields_the_newest_of_the_moves_it_heard_at_once(monkeypatch):
    async def play(stream, broker):
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0)  # subscribed
        for version in (3, 5, 4):
            broker.publish(1, version)
        first = await asyncio.wait_for(waiting, 1)
        broker.publish(1, 5)  # heard already: not again, only the beat
        second = await asyncio.wait_for(anext(stream), 1)
        return [first, second]

    assert versions_seen(monkeypatch, play) == [5, None]


def test_a_closed_stream_leaves_no_subscription(monkeypatch):
    seen = []

    async def play(stream, broker):
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0)
        seen.append(broker.stats())
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting  # the phone went away
        return broker

    broker = versions_seen(monkeypatch, play)
    assert seen == [{"streams": 1, "sessions": 1}]
    assert broker.stats() == {"streams": 0, "sessions": 0}


def test_a_seat_taken_comes_after_the_version_it_came_with(monkeypatch):
    """A phone taking a seat is no version: a stream hears of it after any version heard at the
    same time."""

    async def play(stream, broker):
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0)  # subscribed
        broker.publish(1, 2, seats=True)  # a seat taken: the version as it was
        broker.publish(1, 3)
        await asyncio.sleep(0.01)  # both on the queue before it is read
        return [await asyncio.wait_for(waiting, 1), await asyncio.wait_for(anext(stream), 1)]

    assert versions_seen(monkeypatch, play) == [3, live.SEATS]
