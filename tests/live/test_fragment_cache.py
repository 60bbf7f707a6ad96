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


def events_of(text):
    """[(event name, data)] of a push's text."""
    out = []
    for block in filter(None, text.split("\n\n")):
        fields = [line.split(": ", 1) for line in block.splitlines()]
        out.append((next(v for k, v in fields if k == "event"),
                    "\n".join(v for k, v in fields if k == "data")))
    return out


def test_a_phone_in_step_is_pushed_the_logs_new_line_alone():
    from companion.fragments import LOG_LENGTH
    from companion.streams import Rendered

    lines = [f"<li>{seq}</li>" for seq in range(LOG_LENGTH, 0, -1)]
    first = Rendered(30, {"log": "".join(lines)}, lines=lines)
    newer = ["<li>31</li>", *lines[:LOG_LENGTH - 1]]
    second = Rendered(31, {"log": "".join(newer)}, before=first, lines=newer)
    assert events_of(second.push(30)) == [("log_line", "<li>31</li>")]
    # A phone not in step gets the whole log.
    assert events_of(second.push(None)) == [("log", "".join(newer))]
    assert events_of(second.push(29)) == [("log", "".join(newer))]


def test_a_log_that_is_not_the_last_one_with_a_line_on_top_goes_whole():
    from companion.streams import Rendered

    lines = ["<li>2</li>", "<li>1</li>"]
    first = Rendered(2, {"log": "".join(lines)}, lines=lines)
    # An undo: the newest line is marked undone, no line is added.
    undone = ['<li class="undone">2</li>', "<li>1</li>"]
    second = Rendered(3, {"log": "".join(undone)}, before=first, lines=undone)
    assert events_of(second.push(2)) == [("log", "".join(undone))]
    # A line on top, but two versions on from the one this process had: the log goes whole.
    later = ["<li>4</li>", *lines]
    third = Rendered(4, {"log": "".join(later)}, before=first, lines=later)
    assert events_of(third.push(2)) == [("log", "".join(later))]
    # No lines known (rendered without them): whole.
    fourth = Rendered(3, {"log": "x"}, before=first)
    assert events_of(fourth.push(2)) == [("log", "x")]


def test_a_marked_part_that_did_not_change_is_left_to_the_phone_in_step():
    from companion.streams import Rendered

    def live(round_, grid):
        return (f"<h2>Round {round_}</h2><!--part:grid--><section id=\"grid\">{grid}</section>"
                "<!--/part--><p>end</p>")

    first = Rendered(1, {"panel_live": live(1, "A")})
    second = Rendered(2, {"panel_live": live(2, "A")}, before=first)
    assert events_of(second.push(1)) == [(
        "panel_live", '<h2>Round 2</h2><template data-keep="grid"></template><p>end</p>')]
    # Not in step: the whole fragment, its part with it.
    assert events_of(second.push(None)) == [("panel_live", live(2, "A"))]
    # The part changed: it goes whole.
    third = Rendered(3, {"panel_live": live(2, "B")}, before=second)
    assert events_of(third.push(2)) == [("panel_live", live(2, "B"))]
