"""What the API's schema costs (/api/schema/, kept by cache_page in companion/api/urls.py): the
time of an answer generated afresh against one the cache keeps, in process, per language.

    .venv/bin/python bench/schema.py [--runs 5]

Prints a markdown table (median of --runs each); bench/RESULTS.md holds the current one.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    rows = []
    for language in ("en", "es"):
        fresh, kept = [], []
        for _ in range(args.runs):
            cache.clear()
            started = time.perf_counter()
            assert client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE=language).status_code == 200
            fresh.append(time.perf_counter() - started)
            started = time.perf_counter()
            assert client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE=language).status_code == 200
            kept.append(time.perf_counter() - started)
        rows.append((language, statistics.median(fresh) * 1000, statistics.median(kept) * 1000))
    print("| language | generated (ms) | kept (ms) |\n|---|---:|---:|")
    for language, fresh, kept in rows:
        print(f"| {language} | {fresh:.0f} | {kept:.1f} |")


if __name__ == "__main__":
    main()
