"""The bench's instrument for what a move costs without its render (bench/live.py,
COMPANION_BENCH_RENDER_ONCE): each table's fragments rendered ahead once, then handed back."""

from types import SimpleNamespace

from django.db.backends import utils

from bench import live as bench
from companion import fragments, live


def counting_renders():
    renders = []

    def render_ahead(session, move):
        renders.append((session.pk, move))
        return {"html": {"now": f"<p>{move}</p>"}, "line": f"<li>{move}</li>"}

    return render_ahead, renders


def test_each_tables_fragments_are_rendered_once_then_handed_back():
    render_ahead, renders = counting_renders()
    once = bench.rendered_once(render_ahead)
    first, other = SimpleNamespace(pk=1), SimpleNamespace(pk=2)
    assert once(first, "move 1") == once(first, "move 2") == {
        "html": {"now": "<p>move 1</p>"}, "line": "<li>move 1</li>"}
    assert once(other, "move 3")["line"] == "<li>move 3</li>"
    assert renders == [(1, "move 1"), (2, "move 3")]


def installed(monkeypatch, environment):
    # _install_counters patches these for the server process: put back after the test.
    for owner, name in ((fragments, "render_ahead"), (fragments, "render_shared_lines"),
                        (fragments, "render_panel"), (live, "announce"),
                        (live, "deliver_here"), (utils.CursorWrapper, "_execute_with_wrappers")):
        monkeypatch.setattr(owner, name, getattr(owner, name))
    render_ahead, renders = counting_renders()
    monkeypatch.setattr(fragments, "render_ahead", render_ahead)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    bench._install_counters()
    table = SimpleNamespace(pk=7)
    fragments.render_ahead(table, "move 1")
    fragments.render_ahead(table, "move 2")
    return renders


def test_the_servers_render_once_only_when_the_bench_says_so(monkeypatch):
    monkeypatch.delenv(bench.RENDER_ONCE_ENV, raising=False)
    assert len(installed(monkeypatch, {})) == 2
    assert len(installed(monkeypatch, {bench.RENDER_ONCE_ENV: "1"})) == 1
