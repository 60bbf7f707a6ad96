"""The `parts` cache: HTML a server process rendered, kept in a dict of its own.

Django's local-memory cache pickles each value on the way in and out, takes a lock and checks
each key's expiry; a pushed fragment looks up several parts on every move (a score pad's every
round, Knights' four parts, the scoreboard's table), and the HTML kept here is a str that
nobody changes, never expires, and is read and written under the GIL. So: a dict, bounded by
MAX_ENTRIES: when full, the oldest third goes (a part missed is rendered again).
"""

from itertools import islice

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

# Django makes a cache's backend object once per request context (caches["parts"] is a context
# local), so what is kept lives here, one dict per cache name, as LocMemCache's does.
_kept = {}


class ProcessCache(BaseCache):
    def __init__(self, name, params):
        super().__init__(params)
        self._cache = _kept.setdefault(name, {})

    def get(self, key, default=None, version=None):
        return self._cache.get(key, default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        kept = self._cache
        if key not in kept and len(kept) >= self._max_entries:
            # The keys listed in one C call (no other thread runs meanwhile), then dropped.
            for old in list(islice(kept, max(1, self._max_entries // self._cull_frequency))):
                kept.pop(old, None)
        kept[key] = value

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        if key in self._cache:
            return False
        self.set(key, value)
        return True

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return key in self._cache

    def delete(self, key, version=None):
        return self._cache.pop(key, None) is not None

    def has_key(self, key, version=None):
        return key in self._cache

    def clear(self):
        self._cache.clear()
