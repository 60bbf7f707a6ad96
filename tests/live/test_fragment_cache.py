"""The stream's fragment cache stays bounded however many sessions a process serves."""

from companion.streams import Bounded, FragmentCache
from tests.views.helpers import off_the_loop


def test_bounded_forgets_the_least_recently_used_first():
    kept = Bounded(2)
    kept["a"], kept["b"] = 1, 2
    assert kept.get("a") == 1  # "a" is now the most recent
    kept["c"] = 3
    assert list(kept) == ["a", "c"]
    assert kept.get("b") is None


def test_a_fragment_cache_never_holds_more_than_its_sessions():
    import asyncio

    cache = FragmentCache(sessions=3)

    async def render_panel(pk, viewer, is_host, language):
        return 1, f"panel {pk} {viewer} {language}"

    cache._render_panel = render_panel

    async def phones():
        for pk in range(100):
            cache._shared[(pk, "en")] = (1, {})
            for viewer in range(6):
                await cache.panel(pk, 1, viewer, False, "en")

    # On a thread of its own: a browser test before it on this worker leaves a loop running.
    off_the_loop(lambda: asyncio.run(phones()))
    assert len(cache._shared) == 3
    # The panels are kept per session too: many one-phone sessions do not grow a process.
    assert set(cache._panels) == {(97, "en"), (98, "en"), (99, "en")}
    assert len(cache) == 3 + 3 * 6
    assert set(cache._shared) == {(97, "en"), (98, "en"), (99, "en")}


def test_a_push_carries_only_the_fragments_that_changed_since_the_phones_version():
    from companion.streams import Rendered

    first = Rendered(4, {"scoreboard": "<b>1</b>", "log": "a", "undo": "u"})
    second = Rendered(5, {"scoreboard": "<b>2</b>", "log": "a", "undo": "u"}, before=first)
    assert second.changed == ["scoreboard"]
    # A phone in step (it has version 4 from this process): the scoreboard alone.
    assert second.push(4) == "id: 5\nevent: scoreboard\ndata: <b>2</b>\n\n"
    # A phone this process has pushed nothing yet, or that missed a version: everything.
    for since in (None, 3):
        assert [line for line in second.push(since).splitlines() if line.startswith("event")] \
            == ["event: scoreboard", "event: log", "event: undo"]
    assert "undo" not in second.push(None, leave_out=("undo",))
    # Made once for every phone in step, not once per phone.
    assert second.push(4) is second.push(4)
    assert second.version_event == 'id: 5\nevent: version\ndata: {"version": 5}\n\n'
