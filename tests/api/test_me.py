"""GET /api/me/plays/ and /api/me/stats/: an account's own history, every play where a roster
player linked to it sat, at every host's table, counted as a plain recount counts it; and what a
link does not give (the hosts' own sessions, rosters and players)."""

from collections import defaultdict

import pytest

from companion.models import Result
from tests.api.test_stats import recount
from tests.links import linked, table


@pytest.fixture
def doras_plays(alice, bob_account, dora):
    """Dora at alice's table (as "Dora", twice) and at bob's (as "D."), in turns, with a loss
    between wins, and plays of others she was not at."""
    table(alice)                                                    # dora wins
    table(bob_account, ("Ann", "D."), points=((0, 10), (0, 10)))       # dora loses
    table(alice, ("Vanessa", "Dora"), points=((1, 10), (1, 10)))    # dora wins
    table(bob_account, ("D.", "Ann"), points=((0, 9), (1, 10), (0, 1), (1, 10)))  # loses, ahead 0
    table(alice, ("Vanessa", "Peter"), points=((0, 10), (0, 10)))   # not dora's
    table(bob_account, ("Ann", "Bea"), points=((1, 10), (1, 10)))      # not dora's
    session, _phone = table(alice, ("Dora", "Peter"), points=((0, 10), (0, 10)))  # wins
    alices = linked(session, 0, dora)
    bobs = linked(table(bob_account, ("D.", "Bea"), points=((0, 10), (0, 10)))[0], 0, dora)
    return alices, bobs


def plain_recount(players):
    """recount's figures over the results of several players, in the order they were played."""
    rows = sorted(Result.objects.filter(player__in=players),
                  key=lambda r: (r.finished_at, r.session_id))
    games = defaultdict(list)
    for row in rows:
        games[row.game].append(row)
    run = longest = 0
    for row in rows:
        run = run + 1 if row.winner else 0
        longest = max(longest, run)
    wins = sum(r.winner for r in rows)
    return {"plays": len(rows), "wins": wins, "win_rate": round(wins / len(rows), 4),
            "games": {game: {"plays": len(rs), "wins": sum(r.winner for r in rs),
                             "best": max(r.score for r in rs),
                             "average": round(sum(r.score for r in rs) / len(rs), 2)}
                      for game, rs in games.items()},
            "streaks": {"current": run, "longest": longest}}


def test_an_accounts_statistics_are_a_recount_across_hosts(as_dora, doras_plays):
    alices, bobs = doras_plays
    body = as_dora.get("/api/me/stats/").json()
    expected = plain_recount(doras_plays)
    assert expected["plays"] == 6 and {r.owner.username for r in Result.objects.filter(
        player__in=doras_plays)} == {"alice", "bob"}
    for key, value in expected.items():
        assert body[key] == value, key
    assert (body["player"], body["name"]) == (None, "dora")
    # Head to head: each host's opponents, as each of her players meets them.
    mine = {**recount(alices)["h2h"], **recount(bobs)["h2h"]}
    got = {row["player"]: {k: row[k] for k in ("plays", "wins", "opponent_wins", "ahead",
                                               "behind")} for row in body["head_to_head"]}
    assert got == mine
    assert body["nemesis"]["name"] == "Ann"
    assert sum(month["plays"] for month in body["by_month"]) == 6
    assert body["by_player_count"] == {"2": {"plays": 6, "wins": expected["wins"]}}


def test_an_accounts_plays_are_its_players_sessions(as_dora, doras_plays):
    body = as_dora.get("/api/me/plays/").json()
    expected = Result.objects.filter(player__in=doras_plays).order_by(
        "-session__created_at", "-session_id")
    assert body["count"] == 6
    assert [(play["id"], play["seat"]) for play in body["results"]] == [
        (row.session_id, row.seat) for row in expected]
    assert {"code", "game", "seats", "standings", "status"} <= set(body["results"][0])
    assert as_dora.get("/api/me/plays/?page_size=2").json()["next"]


def test_an_account_without_links_has_an_empty_history(as_charlie, doras_plays):
    assert as_charlie.get("/api/me/plays/").json()["count"] == 0
    body = as_charlie.get("/api/me/stats/").json()
    assert (body["plays"], body["wins"], body["head_to_head"]) == (0, 0, [])


def test_me_needs_an_account(anonymous):
    assert anonymous.get("/api/me/plays/").status_code == 401
    assert anonymous.get("/api/me/stats/").status_code == 401


def test_a_link_shows_nothing_else_of_the_host(as_dora, bob_account, doras_plays):
    """Dora, linked at bob's table, sees her plays there and nothing else of bob's."""
    _alices, bobs = doras_plays
    session = bobs.seats.first().session
    assert as_dora.get("/api/sessions/").json()["count"] == 0
    assert as_dora.get("/api/players/").json()["count"] == 0
    assert as_dora.get(f"/api/sessions/{session.pk}/").status_code == 404
    assert as_dora.get(f"/api/players/{bobs.pk}/stats/").status_code == 404
    ann = bob_account.players.get(name="Ann")
    assert as_dora.get(f"/api/players/{ann.pk}/stats/").status_code == 404
    assert as_dora.get(f"/api/sessions/{session.pk}/export/").status_code == 404


def test_queries_stay_constant(as_dora, alice, dora, django_assert_max_num_queries):
    linked(table(alice)[0], 0, dora)
    with django_assert_max_num_queries(12) as few:
        as_dora.get("/api/me/stats/")
    with django_assert_max_num_queries(12) as few_plays:
        as_dora.get("/api/me/plays/")
    for _play in range(4):
        table(alice)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert as_dora.get("/api/me/stats/").json()["plays"] == 5
    with django_assert_max_num_queries(len(few_plays.captured_queries)):
        assert as_dora.get("/api/me/plays/").json()["count"] == 5
