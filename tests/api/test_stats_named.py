"""Acceptance 3 of issue 13: each named game (kept on the score pad, "Carcassonne") is a game of
its own in statistics, against a plain recount from the Result rows: the game's page and API,
the player's page and API, alongside the other games; queries stay constant."""

import csv
from collections import defaultdict

import pytest
from django.core.cache import cache

from companion import services, stats
from companion.models import Player, Result
from tests.factories import played
from tests.views.helpers import browser_for


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def pad_played(owner, title, names, rounds, win="high"):
    """A score pad played live: each round's scores for every seat, then the end."""
    session = services.session_create(owner=owner, game="pad", players=list(names),
                                      options={"game": title, "win": win})
    actor = services.Actor(user=owner)
    for scores in rounds:
        services.move_play(session=session, type="round", data={"scores": list(scores)},
                           actor=actor)
    services.move_play(session=session, type="end", data={}, actor=actor)
    return session


def logged(owner, title, scores, winners=(), win="high"):
    players = [{"name": name, "score": score, "winner": name in winners}
               for name, score in scores.items()]
    return services.play_log(owner=owner, title=title, players=players, win=win, minutes=30)


@pytest.fixture
def league(alice, charlie):
    pad_played(alice, "Carcassonne", ["Ana", "Ben", "Cid"], [(10, 12, 8), (15, 9, 20)])
    pad_played(alice, "Carcassonne", ["Ben", "Dee"], [(30, 30), (5, 1)])
    logged(alice, "Carcassonne", {"Ana": 88, "Ben": 91, "Dee": 91})            # a tie for first
    logged(alice, "Carcassonne", {"Ana": 70, "Cid": 70}, winners=("Cid",))     # a tie broken
    pad_played(alice, "Hearts", ["Ana", "Ben", "Cid"], [(26, 0, 0), (3, 10, 13)], win="low")
    logged(alice, "Hearts", {"Ana": 40, "Dee": 12}, win="low")
    logged(alice, "Codenames", {"Ana": None, "Ben": None}, winners=("Ben",), win="none")
    played(alice, ("Ana", "Ben"), ((0, 10), (1, 3), (0, 10)))                 # a game of ours
    logged(charlie, "Carcassonne", {"Zed": 200, "Yan": 1})                      # another host
    return {player.name: player for player in Player.objects.filter(owner=alice)}


# A game's best score: the highest, the lowest where it is won by the lowest (Hearts), none
# where it has no points (Codenames).
BEST = {"Hearts": min, "Codenames": lambda scores: None}


def best_of(title, scores):
    scores = [score for score in scores if score is not None]  # a result with no score
    return BEST.get(title, max)(scores) if scores else None


def mean(scores):
    """The average of the scores given, as statistics take it (a result with no score is left
    out, where it counted 0); None when no result has one."""
    scores = [score for score in scores if score is not None]
    return round(sum(scores) / len(scores), 2) if scores else None


def recount_game(owner, game, title):
    rows = list(Result.objects.filter(owner=owner, game=game, title=title))
    wins = defaultdict(int)
    for row in rows:
        wins[row.player_id] += row.winner
    winners = [r for r in rows if r.winner]
    return {
        "plays": len({row.session_id for row in rows}), "results": len(rows),
        "best": best_of(title, (row.score for row in rows)),
        "average": mean(row.score for row in rows),
        "winning_average": mean(r.score for r in winners),
        "wins": {player: n for player, n in wins.items() if n},
    }


@pytest.mark.parametrize("title", ["Carcassonne", "Hearts", "Codenames"])
def test_a_named_games_figures_match_a_recount(as_alice, alice, league, title):
    expected = recount_game(alice, "pad", title)
    body = as_alice.get("/api/games/pad/stats/", {"title": title}).json()
    assert (body["game"], body["title"]) == ("pad", title)
    assert body["plays"] == expected["plays"] and body["results"] == expected["results"]
    assert body["average"] == expected["average"]
    assert body["winning_average"] == expected["winning_average"]
    assert [row["score"] for row in body["records"][:1]] == (
        [expected["best"]] if expected["best"] is not None else [])
    assert {row["player"]: row["wins"] for row in body["winners"]} == expected["wins"]
    html = browser_for(alice).get("/history/games/pad/", {"title": title}).content.decode()
    assert f"<h1>{title}</h1>" in html
    assert "A game of its own, kept on the score pad" in html
    assert f"<dt>Plays</dt><dd>{expected['plays']}</dd>" in html
    best = "–" if expected["best"] is None else f"{expected['best']:g}"
    assert f"<dt>Best score</dt><dd>{best}</dd>" in html


def test_carcassonne_known_figures(as_alice, league):
    body = as_alice.get("/api/games/pad/stats/?title=Carcassonne").json()
    # Ana 25 Ben 21 Cid 28 (Cid wins); Ben 35 Dee 31; Ana 88 Ben 91 Dee 91; Ana 70 Cid 70.
    assert body["plays"] == 4 and body["results"] == 10
    assert body["records"][0]["score"] == 91 and body["records"][0]["name"] in ("Ben", "Dee")
    assert [(row["name"], row["wins"]) for row in body["winners"]] == [
        ("Ben", 2), ("Cid", 2), ("Dee", 1)]
    assert body["length"]["average_seconds"] is not None


def test_one_name_in_any_case_is_one_game(as_alice, alice):
    for title in ("Catan", "catan", "CATAN "):
        pad_played(alice, title, ["Ana", "Ben"], [(3, 5)])
    logged(alice, "cAtAn", {"Ana": 9, "Ben": 4})
    assert set(Result.objects.filter(owner=alice).values_list("title", flat=True)) == {"Catan"}
    body = as_alice.get("/api/games/pad/stats/?title=Catan").json()
    assert (body["plays"], body["records"][0]["score"]) == (4, 9)
    ana = as_alice.get(f"/api/players/{Player.objects.get(owner=alice, name='Ana').pk}/stats/")
    assert set(ana.json()["games"]) == {"pad:Catan"}


def test_named_games_do_not_mix(as_alice, alice, league):
    assert as_alice.get("/api/games/pad/stats/").json()["plays"] == 0  # no unnamed pad game
    assert as_alice.get("/api/games/tiny/stats/").json()["plays"] == 1
    other = as_alice.get("/api/games/pad/stats/?title=Azul").json()
    assert other["plays"] == 0 and other["records"] == []


def test_a_players_games_include_each_named_game(as_alice, league):
    for name, player in league.items():
        rows = Result.objects.filter(player=player)
        games = defaultdict(list)
        for row in rows:
            games[stats.game_key(row.game, row.title)].append(row)
        expected = {key: {"plays": len(rs), "wins": sum(r.winner for r in rs),
                          "best": best_of(stats.split_key(key)[1], (r.score for r in rs)),
                          "average": mean(r.score for r in rs)}
                    for key, rs in games.items()}
        body = as_alice.get(f"/api/players/{player.pk}/stats/").json()
        assert body["games"] == expected, name
    ana = as_alice.get(f"/api/players/{league['Ana'].pk}/stats/").json()
    assert set(ana["games"]) == {"pad:Carcassonne", "pad:Hearts", "pad:Codenames", "tiny"}
    assert ana["h_index"] == 2  # Carcassonne 3 plays, Hearts 2, the others 1


def test_the_player_page_links_each_named_game(alice, league):
    html = browser_for(alice).get(f"/history/players/{league['Ana'].pk}/").content.decode()
    assert '/history/games/pad/?title=Carcassonne">Carcassonne</a>' in html
    assert '/history/games/pad/?title=Hearts">Hearts</a>' in html
    assert '/history/games/tiny/">Tiny</a>' in html


def test_the_history_page_lists_named_games(alice, league):
    html = browser_for(alice).get("/history/").content.decode()
    assert '/history/games/pad/?title=Carcassonne"' in html
    assert '<option value="pad:Hearts"' in html
    filtered = browser_for(alice).get("/history/?game=pad:Hearts").content.decode()
    assert filtered.count('<a href="/history/sessions/') == 2


def test_named_game_pages_keep_constant_queries(alice, django_assert_max_num_queries):
    client = browser_for(alice)
    logged(alice, "Azul", {"Ana": 50, "Ben": 60})
    with django_assert_max_num_queries(9):
        assert client.get("/history/games/pad/?title=Azul").status_code == 200
    for number in range(8):
        logged(alice, "Azul", {"Ana": 50 + number, f"P{number}": 40})
    cache.clear()
    with django_assert_max_num_queries(9):
        assert client.get("/history/games/pad/?title=Azul").status_code == 200


def test_a_play_logged_with_its_winner_only_counts_no_score(as_alice, alice):
    logged(alice, "Splendor", {"Ana": 10, "Ben": 20})
    logged(alice, "Splendor", {"Ana": None, "Ben": None}, winners=("Ana",))
    body = as_alice.get("/api/games/pad/stats/?title=Splendor").json()
    assert (body["plays"], body["results"]) == (2, 4)
    assert (body["average"], body["winning_average"]) == (15, 20)
    assert body["distribution"] == [{"score": 10, "count": 1}, {"score": 20, "count": 1}]
    assert [row["score"] for row in body["records"]] == [20, 10]
    ana = as_alice.get(f"/api/players/{Player.objects.get(owner=alice, name='Ana').pk}/stats/")
    assert ana.json()["games"]["pad:Splendor"] == {"plays": 2, "wins": 1, "best": 10,
                                                    "average": 10}
    answer = browser_for(alice).get("/history/results.csv")
    rows = list(csv.DictReader(b"".join(answer.streaming_content).decode().splitlines()))
    assert sorted(row["score"] for row in rows) == ["", "", "10.0", "20.0"]  # blank: none


def test_the_results_kept_of_games_without_points_lose_their_zero(alice):
    from importlib import import_module

    from django.apps import apps

    unscored = import_module("companion.migrations.0015_result_score_none").unscored
    session = services.session_create(owner=alice, game="pad", players=["Ana", "Ben"],
                                      options={"game": "Codenames", "win": "none"})
    services.move_play(session=session, type="winners", data={"seats": [1]},
                       actor=services.Actor(user=alice))
    pad_played(alice, "Golf", ["Ana", "Ben"], [(0, 3)], win="low")
    assert set(Result.objects.filter(title="Codenames").values_list("score", flat=True)) == {None}
    Result.objects.filter(title="Codenames").update(score=0)  # as results were kept before 0015

    unscored(apps, None)

    assert set(Result.objects.filter(title="Codenames").values_list("score", flat=True)) == {None}
    assert sorted(Result.objects.filter(title="Golf").values_list("score", flat=True)) == [0, 3]
