"""The `parts` cache (companion/parts_cache.py) keeps a part for every request of the process,
whichever thread or task asks, and stays within its bound."""

import threading

from django.core.cache import caches

from companion.parts_cache import ProcessCache


def test_a_part_kept_in_one_thread_is_found_in_another():
    caches["parts"].set(("kept", "en"), "<p>kept</p>")
    found = []
    reader = threading.Thread(target=lambda: found.append(caches["parts"].get(("kept", "en"))))
    reader.start()
    reader.join()
    assert found == ["<p>kept</p>"]


def test_a_full_cache_lets_its_oldest_go_and_stays_within_its_bound():
    cache = ProcessCache("bounded-for-a-test", {"OPTIONS": {"MAX_ENTRIES": 6}})
    for n in range(20):
        cache.set(n, f"part {n}")
        assert len(cache._cache) <= 6
    assert cache.get(19) == "part 19" and cache.get(18) == "part 18"
    assert cache.get(0) is None and cache.get(10) is None
