"""A group's statistics equal a plain recount: sessions hosted by alice and by bob for the
group, and others of theirs that are not the group's, counted in Python from each session's own
standings, against the group's answers. And the host's history keeps every session the host
opened, group sessions included."""

import random

from companion import services, stats
from companion.models import Session
from tests.factories import finished_session
from tests.groups import group_played

NAMES = ("Ana", "Ben", "Cy", "Dee")


def some_plays(thursday, alice, bob):
    """Random tiny games: hosted by alice or bob, for the group or their own."""
    rng = random.Random(51)
    for host, group in ((alice, thursday), (bob, thursday), (alice, None), (bob, None),
                        (bob, thursday), (alice, thursday), (bob, thursday), (alice, None)):
        players = rng.sample(NAMES, rng.randint(2, 4))
        session = group_played(host, group, players=players, moves=())
        while not session.is_finished:
            session = services.move_play(
                session=session, type="add", actor=services.Actor(user=host),
                data={"seat": rng.randrange(len(players)),
                      "points": rng.choice([1, 2, 3, 4, 5, 6, 8, 9, 10])}  # 7 is refused
            ).session


def recount(sessions):
    """Plays and wins per player and plays per game, from the sessions' standings."""
    players, games, together = {}, {}, {}
    for session in sessions:
        seats = {seat.index: seat.player_id for seat in session.seats.all()}
        games[session.game] = games.get(session.game, 0) + 1
        standings = stats.session_standings(session)
        for row in standings:
            player = seats[row["seat"]]
            plays, wins = players.get(player, (0, 0))
            players[player] = (plays + 1, wins + bool(row["winner"]))
            for other in standings:
                if other["seat"] != row["seat"]:
                    pair = (player, seats[other["seat"]])
                    count, ahead = together.get(pair, (0, 0))
                    together[pair] = (count + 1, ahead + (row["rank"] < other["rank"]))
    return players, games, together


def test_the_groups_statistics_are_a_recount(thursday, alice, bob_account, as_bob_account,
                                             django_assert_max_num_queries):
    some_plays(thursday, alice, bob_account)
    finished_session(bob_account, game="knights")  # bob's own, not the group's
    ours = Session.objects.filter(group=thursday, status=Session.Status.FINISHED)
    assert {session.owner for session in ours} == {alice, bob_account}
    assert Session.objects.filter(status=Session.Status.FINISHED, group=None).exists()
    players, games, together = recount(ours.prefetch_related("seats"))

    with django_assert_max_num_queries(5):  # the token (read, its use), the group, two reads
        answer = as_bob_account.get(f"/api/groups/{thursday.pk}/stats/").json()
    assert answer["plays"] == ours.count()
    assert {row["game"]: row["plays"] for row in answer["games"]} == games
    assert {row["player"]: (row["plays"], row["wins"]) for row in answer["players"]} == players

    tiny = as_bob_account.get(f"/api/groups/{thursday.pk}/games/tiny/stats/").json()
    assert tiny["plays"] == games["tiny"]
    assert tiny["results"] == sum(plays for plays, _wins in players.values())
    assert {row["player"]: row["wins"] for row in tiny["winners"]} == \
        {player: wins for player, (_plays, wins) in players.items() if wins}

    versus = as_bob_account.get(f"/api/groups/{thursday.pk}/players/versus/").json()
    ids = [row["id"] for row in versus["players"]]
    assert set(ids) == set(players)
    for i, mine in enumerate(ids):
        for j, theirs in enumerate(ids):
            if i != j:
                count, ahead = together.get((mine, theirs), (0, 0))
                assert versus["rows"][i][j] == {"together": count, "ahead": ahead}

    for player, (plays, wins) in players.items():
        figures = as_bob_account.get(
            f"/api/groups/{thursday.pk}/players/{player}/stats/").json()
        assert (figures["plays"], figures["wins"]) == (plays, wins)


def test_a_hosts_history_keeps_their_group_sessions(thursday, alice, bob_account, as_alice):
    some_plays(thursday, alice, bob_account)
    hers = Session.objects.filter(owner=alice, status=Session.Status.FINISHED)
    assert hers.filter(group=thursday).exists() and hers.filter(group=None).exists()
    _players, games, _together = recount(hers.prefetch_related("seats"))
    assert as_alice.get("/api/games/tiny/stats/").json()["plays"] == games["tiny"]
    listed = as_alice.get("/api/sessions/?page_size=100").json()
    assert {row["id"] for row in listed["results"]} == set(
        Session.objects.filter(owner=alice).values_list("id", flat=True))


def test_a_groups_figures_cost_what_a_hosts_do(thursday, alice, bob_account):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from companion import play_figures

    some_plays(thursday, alice, bob_account)
    for figures in (stats.game_stats, play_figures.game_figures):
        with CaptureQueriesContext(connection) as host:
            figures(owner=alice, game="tiny")
        with CaptureQueriesContext(connection) as group:
            figures(group=thursday, game="tiny")
        assert len(group) == len(host)
