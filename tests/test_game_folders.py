"""A game is one folder: everything of a game lives in games/<slug>/, and the rest of the project
names it once, in games/__init__.py. Its tests live in tests/, and the data migrations written
before games kept their own stay in companion/migrations."""

import subprocess
from pathlib import Path

import pytest

from games import INSTALLED_APPS

ROOT = Path(__file__).resolve().parent.parent
SLUGS = [app.rpartition(".")[2] for app in INSTALLED_APPS]
# What may name a game outside its folder: its tests, screenshots, the bench's tables, and the
# data migrations that came before games kept their own (0013, 0014, 0016, 0018).
ELSEWHERE = ("tests/", "docs/screens/", "bench/", "companion/migrations/")


def tracked_files():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,  # noqa: S607
                            check=True).stdout.split()
    return [path for path in listed if (ROOT / path).exists()]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_file_of_a_game_is_in_its_folder(slug):
    files = tracked_files()
    own = [path for path in files if path.startswith(f"games/{slug}/")]
    assert {f"games/{slug}/rules.py", f"games/{slug}/game.py", f"games/{slug}/apps.py"} <= set(own)
    assert any(path.startswith(f"games/{slug}/templates/games/{slug}/") for path in own)
    elsewhere = [path for path in files
                 if slug in Path(path).parts and not path.startswith(f"games/{slug}/")
                 and not path.startswith(ELSEWHERE)]
    assert elsewhere == []


@pytest.mark.parametrize("slug", SLUGS)
def test_the_project_names_a_game_once(slug):
    listed = (ROOT / "games" / "__init__.py").read_text()
    assert listed.count(f'"games.{slug}"') == 1
