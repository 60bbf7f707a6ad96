"""The stream's fragment cache stays bounded however many sessions a process serves."""

from companion.streams import Bounded, FragmentCache


def test_bounded_forgets_the_least_recently_used_first():
    kept = Bounded(2)
    kept["a"], kept["b"] = 1, 2
    assert kept.get("a") == 1  # "a" is now the most recent
    kept["c"] = 3
    assert list(kept) == ["a", "c"]
    assert kept.get("b") is None


def test_a_fragment_cache_never_holds_more_than_its_sessions():
    cache = FragmentCache(sessions=3)
    for pk in range(100):
        cache._shared[pk] = (1, {})
        for viewer in range(6):
            cache._panels[(pk, viewer, False)] = (1, "")
    assert len(cache._shared) == 3
    assert len(cache._panels) == 24
    assert set(cache._shared) == {97, 98, 99}
