"""Statistics against a plain recount from the Result rows: several players and games, ties, an
undone finish; constant query counts; other hosts' data is 404; the CSV export."""

import csv
import dataclasses
import io
from collections import defaultdict

import pytest
from django.core.cache import cache

from companion import plugins, services, stats
from companion.models import Player, Result
from games.quixote import stats as quixote_stats
from tests.factories import UserFactory
from tests.tinygame import SERIALIZERS, TINY

# A second game: it ends when the seats' points add up to the target, so first places can tie.
TALLY = dataclasses.replace(TINY, slug="tally", name="Tally",
                            finished=lambda state: sum(state["scores"]) >= state["target"])


@pytest.fixture(autouse=True)
def tally_game():
    cache.clear()  # game figures are cached per version of the results; start each test afresh
    plugins.register(plugins.Plugin(rules=TALLY, serializers=SERIALIZERS))
    yield
    plugins.unregister("tally")


def finish(owner, game, players, points, *, undo_finish=False):
    """A session of `players`, the moves (seat, points) in order; the last one finishes it."""
    session = services.session_create(owner=owner, game=game, players=list(players))
    actor = services.Actor(user=owner)
    for seat, value in points:
        services.move_play(session=session, type="add", data={"seat": seat, "points": value},
                           actor=actor)
    if undo_finish:
        services.move_undo(session=session, actor=actor)
    return session


@pytest.fixture
def league(alice):
    """Alice's results in two games, ties for first and for second, one undone finish."""
    finish(alice, "tiny", ["Ana", "Ben", "Cid"], [(0, 10), (1, 5), (2, 5), (0, 10)])
    finish(alice, "tiny", ["Ben", "Ana"], [(0, 10), (1, 9), (0, 10)])
    finish(alice, "tiny", ["Cid", "Ana", "Ben"], [(0, 6), (1, 10), (1, 10)])
    finish(alice, "tally", ["Ana", "Ben"], [(0, 10), (1, 10)])          # a tie for first
    finish(alice, "tally", ["Ben", "Cid", "Dee"], [(0, 8), (1, 6), (2, 6)])
    finish(alice, "tally", ["Ana", "Dee"], [(0, 10), (1, 3), (1, 9)])
    finish(alice, "tiny", ["Ana", "Dee"], [(1, 10), (1, 10)], undo_finish=True)
    finish(alice, "tiny", ["Ana", "Cid"], [(0, 10), (0, 10)])
    finish(alice, "tally", ["Ana", "Ben", "Cid"], [(0, 3), (1, 9), (2, 9)])  # Ben & Cid tie
    return {p.name: p for p in Player.objects.filter(owner=alice)}


def recount(player):
    """Everything from the Result rows, the plain way."""
    rows = sorted(Result.objects.filter(player=player), key=lambda r: (r.finished_at, r.session_id))
    games = defaultdict(list)
    for row in rows:
        games[row.game].append(row)
    per_game = {game: {"plays": len(rs), "wins": sum(r.winner for r in rs),
                       "best": max(r.score for r in rs),
                       "average": round(sum(r.score for r in rs) / len(rs), 2)}
                for game, rs in games.items()}
    h2h = defaultdict(lambda: {"plays": 0, "wins": 0, "opponent_wins": 0, "ahead": 0,
                               "behind": 0})
    for mine in rows:
        for other in Result.objects.filter(session=mine.session_id).exclude(pk=mine.pk):
            entry = h2h[other.player_id]
            entry["plays"] += 1
            entry["wins"] += mine.winner
            entry["opponent_wins"] += other.winner
            entry["ahead"] += mine.rank < other.rank
            entry["behind"] += other.rank < mine.rank
    run = longest = 0
    for row in rows:
        run = run + 1 if row.winner else 0
        longest = max(longest, run)
    counts = sorted((g["plays"] for g in per_game.values()), reverse=True)
    h = max([i for i in range(1, len(counts) + 1) if counts[i - 1] >= i], default=0)
    return {"plays": len(rows), "wins": sum(r.winner for r in rows), "games": per_game,
            "h2h": dict(h2h), "current": run, "longest": longest, "h_index": h}


def test_player_stats_match_a_recount(as_alice, league):
    assert Result.objects.filter(game="tiny").values("session").distinct().count() == 3 + 1
    for name, player in league.items():
        body = as_alice.get(f"/api/players/{player.pk}/stats/").json()
        expected = recount(player)
        assert (body["plays"], body["wins"]) == (expected["plays"], expected["wins"]), name
        assert body["win_rate"] == round(expected["wins"] / expected["plays"], 4)
        assert body["games"] == expected["games"], name
        assert body["h_index"] == expected["h_index"]
        assert body["streaks"] == {"current": expected["current"],
                                   "longest": expected["longest"]}
        got = {row["player"]: {k: row[k] for k in ("plays", "wins", "opponent_wins", "ahead",
                                                   "behind")}
               for row in body["head_to_head"]}
        assert got == expected["h2h"], name
        if any(row["behind"] for row in expected["h2h"].values()):
            top = max(row["behind"] for row in expected["h2h"].values())
            assert body["nemesis"]["behind"] == top
        else:
            assert body["nemesis"] is None


def test_known_figures(as_alice, league):
    ana = as_alice.get(f"/api/players/{league['Ana'].pk}/stats/").json()
    # Ana in order: won, lost, won (tiny), tied first (tally: a win), lost (tally), the undone
    # finish does not count, won (tiny), lost (tally: Ben and Cid tie for first).
    assert ana["games"]["tiny"]["plays"] == 4 and ana["games"]["tiny"]["wins"] == 3
    assert ana["games"]["tally"] == {"plays": 3, "wins": 1, "best": 10.0, "average": 7.67}
    assert ana["h_index"] == 2
    assert ana["streaks"] == {"current": 0, "longest": 2}
    ben = {row["name"]: row for row in ana["head_to_head"]}["Ben"]
    assert ben["plays"] == 5


def test_game_stats_match_a_recount(as_alice, league):
    for game in ("tiny", "tally"):
        rows = list(Result.objects.filter(game=game))
        body = as_alice.get(f"/api/games/{game}/stats/").json()
        assert body["plays"] == len({r.session_id for r in rows})
        assert body["results"] == len(rows)
        assert body["average"] == round(sum(r.score for r in rows) / len(rows), 2)
        winners = [r.score for r in rows if r.winner]
        assert body["winning_average"] == round(sum(winners) / len(winners), 2)
        best = sorted(rows, key=lambda r: (-r.score, r.finished_at, r.session_id, r.seat))[:10]
        assert [(r["score"], r["name"], r["date"]) for r in body["records"]] == [
            (r.score, r.name, r.finished_at.date().isoformat()) for r in best]
        assert sum(d["count"] for d in body["distribution"]) == len(rows)
        wins = defaultdict(int)
        for r in rows:
            wins[r.player_id] += r.winner
        assert {w["player"]: w["wins"] for w in body["winners"]} == {
            p: n for p, n in wins.items() if n}
        assert body["length"]["average_seconds"] is not None


def test_undone_finish_leaves_no_results(alice):
    session = finish(alice, "tiny", ["Ana", "Dee"], [(1, 10), (1, 10)], undo_finish=True)
    assert not Result.objects.filter(session=session).exists()
    dee = Player.objects.get(owner=alice, name="Dee")
    assert stats.player_stats(player=dee)["plays"] == 0


def test_a_game_with_no_results(as_alice):
    body = as_alice.get("/api/games/tiny/stats/").json()
    assert body["plays"] == 0 and body["average"] is None and body["records"] == []


def grow(owner, count):
    for number in range(count):
        finish(owner, "tiny", [f"P{number}", "Ana", f"Q{number}"], [(0, 10), (1, 9), (0, 10)])
        finish(owner, "tally", ["Ana", f"P{number}"], [(0, 10), (1, 10)])


@pytest.mark.parametrize("url", ["player", "/api/games/tiny/stats/", "/api/games/tally/stats/"])
def test_queries_stay_constant(as_alice, alice, url, django_assert_max_num_queries):
    def get():
        target = url
        if url == "player":
            target = f"/api/players/{Player.objects.get(owner=alice, name='Ana').pk}/stats/"
        return as_alice.get(target)

    # The figures of play_figures are three queries more than the statistics' own.
    grow(alice, 1)
    with django_assert_max_num_queries(11):
        assert get().status_code == 200
    grow(alice, 6)
    with django_assert_max_num_queries(11):
        assert get().status_code == 200


def test_other_hosts_stats_are_404(as_charlie, league, alice):
    assert as_charlie.get(f"/api/players/{league['Ana'].pk}/stats/").status_code == 404
    body = as_charlie.get("/api/games/tiny/stats/").json()
    assert body["plays"] == 0 and body["records"] == []


def test_stats_need_a_host(anonymous, as_bob, league):
    assert anonymous.get("/api/games/tiny/stats/").status_code == 401
    assert anonymous.get("/api/results.csv").status_code == 401
    assert as_bob.get("/api/results.csv").status_code == 401


def test_results_csv(as_alice, as_charlie, league, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        response = as_alice.get("/api/results.csv")
        body = b"".join(response.streaming_content).decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert len(rows) == Result.objects.filter(owner__username="alice").count()
    assert set(rows[0]) == set(stats.CSV_COLUMNS)
    ana = [r for r in rows if r["player_name"] == "Ana"]
    assert len(ana) == 7 and sum(r["winner"] == "1" for r in ana) == 4
    other = as_charlie.get("/api/results.csv")
    assert b"".join(other.streaming_content).decode().count("\n") == 1


def test_h_index_and_streaks():
    assert stats.h_index([5, 3, 1]) == 2
    assert stats.h_index([1, 1, 1]) == 1
    assert stats.h_index([]) == 0
    assert stats.h_index([10, 9, 8, 7]) == 4
    assert stats.streaks([True, True, False, True]) == (1, 2)
    assert stats.streaks([]) == (0, 0)


def test_solitaire_host_isolated_from_other_host(db):
    dora = UserFactory(username="dora")
    assert stats.game_stats(owner=dora, game="tiny")["plays"] == 0


def quixote_score(rng, seat, round_):
    """A random `score` move's data for one seat and round (the knights in round 3 only)."""
    data = {"seat": seat, "round": round_, "castle6_knights": rng.randint(0, 3),
            "castle4_knights": rng.randint(0, 3),
            "church_groups": [rng.randint(1, 5) for _ in range(rng.randint(0, 3))],
            "windmill_groups": [rng.randint(1, 5) for _ in range(rng.randint(0, 3))],
            "defense_shields": rng.randint(0, 14)}
    if round_ == 3:
        data["knight_groups"] = [[rng.randint(1, 3) for _ in range(rng.randint(1, 4))]
                                 for _ in range(rng.randint(0, 3))]
    return data


QUIXOTE_ROUNDS = 3


def quixote_recount(owner):
    """The round and category averages, the plain way, from the Result rows."""
    rows = [r.details for r in Result.objects.filter(owner=owner, game="quixote")]

    def average(values):
        return sum(values) / len(values) if values else None

    rounds, per_round = [], {category: [] for category in quixote_stats.CATEGORIES}
    for index in range(QUIXOTE_ROUNDS):
        categories = {}
        for category in quixote_stats.CATEGORIES:
            if category == "knights" and index != QUIXOTE_ROUNDS - 1:
                continue
            value = average([d["rounds"][index][category] for d in rows])
            categories[category] = stats.rounded(value)
            if value is not None:
                per_round[category].append(value)
        rounds.append({"round": index + 1, "categories": categories, "average": stats.rounded(
            average([d["round_totals"][index] for d in rows]))})
    return {"rounds": rounds,
            "categories": {category: stats.rounded(average(values))
                           for category, values in per_round.items()}}


def test_quixote_averages_match_a_recount(alice, charlie):
    """Every round's and category's average against a Python recount of the Result rows (the
    averages come from the tallies the services keep, ResultTally): several results and hosts,
    then an undone finish, a finish undone and played again differently, and every finish of a
    host undone."""
    import random

    rng = random.Random(3)

    def seed(owner, sessions):
        played = []
        for number in range(sessions):
            names = [f"Q{n}" for n in range(1 + number % 4)]
            session = services.session_create(owner=owner, game="quixote", players=names,
                                              options={"deck": "none"})
            for round_ in (1, 2, 3):
                for seat in range(len(names)):
                    services.move_play(session=session, type="score",
                                       data=quixote_score(rng, seat, round_),
                                       actor=services.Actor(user=owner))
            played.append(session)
        return played

    def figures(owner):
        cache.clear()
        found = stats.game_stats(owner=owner, game="quixote")["quixote"]
        return {"rounds": found["rounds"], "categories": found["categories"]}

    alices = seed(alice, 7)
    seed(charlie, 3)  # another host's results count only for that host
    assert Result.objects.filter(owner=alice, game="quixote").count() == 1 + 2 + 3 + 4 + 1 + 2 + 3
    assert figures(alice) == quixote_recount(alice)
    assert figures(charlie) == quixote_recount(charlie)
    assert figures(alice)["rounds"][2]["categories"]["knights"] is not None

    host = services.Actor(user=alice)
    services.move_undo(session=alices[0], actor=host)  # an undone finish
    rewritten = alices[1]
    services.move_undo(session=rewritten, actor=host)
    services.move_play(session=rewritten, type="score", data=quixote_score(rng, 1, 3),
                       actor=host)  # finished again, with another last score
    assert Result.objects.filter(session=rewritten).count() == 2
    assert figures(alice) == quixote_recount(alice)

    for session in alices[1:]:
        services.move_undo(session=session, actor=host)
    assert not Result.objects.filter(owner=alice).exists()
    assert figures(alice)["rounds"][0] == {"round": 1, "average": None, "categories": {
        category: None for category in quixote_stats.CATEGORIES if category != "knights"}}
    assert figures(charlie) == quixote_recount(charlie)
