"""docs/adding-a-game.md followed to the letter: Coins (tests/coins/) is a game of its own folder,
declared once, registered by its app, and played through the API and the pages like any other."""

from pathlib import Path

from django.test import Client

from companion import plugins
from tests.conftest import api_client

FOLDER = Path(__file__).resolve().parent / "coins"
WALKED = ["__init__.py", "apps.py", "game.py", "moves.py", "panel.py", "rules.py",
          "templates/games/coins/panel.html"]


def test_the_walk_through_made_these_files_and_no_others():
    made = sorted(str(path.relative_to(FOLDER)) for path in FOLDER.rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts)
    assert made == sorted(WALKED)


def test_its_app_registered_its_one_declaration():
    from tests.coins import game

    assert plugins.get("coins") is game.GAME
    assert "Coins" in [rules.name for rules in plugins.all_rules()]


def test_a_table_plays_it_through_the_api_and_the_page(alice):
    host = api_client(user=alice)
    made = host.post("/api/sessions/", {"game": "coins", "players": ["Ana", "Ben"],
                                        "options": {"pile": 4}}, format="json")
    assert made.status_code == 201, made.content
    table = made.json()["id"]
    url = f"/api/sessions/{table}/moves/"
    refused = host.post(url, {"type": "take", "seat": 1, "coins": 1}, format="json")
    assert refused.status_code == 400 and refused.json()["detail"] == "It is Ana's turn."
    spoilt = host.post(url, {"type": "take", "seat": 0, "coins": "lots"}, format="json")
    assert spoilt.status_code == 400  # the serializer's refusal: the rules never see it
    assert host.post(url, {"type": "take", "seat": 0, "coins": 3}, format="json").status_code == 201

    page = Client()
    page.force_login(alice)
    shown = page.get(f"/s/{table}/").content.decode()
    assert "1 coins left." in shown and "Ben takes 1" in shown
    asked = page.post(f"/s/{table}/move/", {"type": "take", "seat": "1", "coins": "1"})
    assert asked.status_code == 302
    session = host.get(f"/api/sessions/{table}/").json()
    assert session["status"] == "finished"
    assert [row["name"] for row in session["standings"] if row["winner"]] == ["Ben"]
