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


def test_a_full_cache_starts_again_and_stays_within_its_bound():
    cache = ProcessCache("bounded-for-a-test", {"OPTIONS": {"MAX_ENTRIES": 3}})
    for n in range(10):
        cache.set(n, f"part {n}")
        assert len(cache._cache) <= 3
    assert cache.get(9) == "part 9"
    assert cache.get(0) is None
