"""The kinds of play real BG Stats backups hold that an import used to lose or misread (issue 50):
a cooperative game BG Stats also marks noPoints, scores typed as sums, winners only as the file
marks them, and what BG Stats keeps that a logged play does not, named in the summary."""

import datetime
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import bgstats, bgstats_backup, inputs, services
from companion.models import Player, Result, Session
from tests.factories import UserFactory


def backup(game, scores, **play):
    """A backup of one play of `game` (a BG Stats game's fields), with playerScores `scores`."""
    players = sorted({score["playerRefId"] for score in scores})
    return {"games": [{"id": 1, "name": "Pandemic", "bggId": 30549, **game}],
            "players": [{"id": pid, "name": f"Player {pid}"} for pid in players],
            "plays": [{"uuid": "play-1", "gameRefId": 1, "playDate": "2026-03-02 19:30:00",
                       "playerScores": scores, **play}]}


def imported(owner, data):
    read = bgstats_backup.read_backup(json.dumps(data).encode())
    roster = dict(Player.objects.filter(owner=owner).values_list("id", "name"))
    entries, skipped = bgstats.plan(read, matches={}, roster=roster)
    summary = services.bgstats_import(owner=owner, plays=entries)
    assert not skipped and not summary["skipped"], (skipped, summary["skipped"])
    return summary


def results(owner):
    return {row.name: (row.score, row.rank, row.winner)
            for row in Result.objects.filter(owner=owner).order_by("seat")}


def test_a_lost_cooperative_game_marked_no_points_is_imported_as_lost(alice):
    data = backup({"cooperative": True, "noPoints": True},
                  [{"playerRefId": 1, "score": "", "winner": False},
                   {"playerRefId": 2, "score": "", "winner": False}])
    summary = imported(alice, data)
    assert len(summary["added"]) == 1
    assert [winner for _score, _rank, winner in results(alice).values()] == [False, False]


def test_a_score_typed_as_a_sum_is_its_total(alice):
    data = backup({"highestWins": True},
                  [{"playerRefId": 1, "score": "87+77", "winner": True},
                   {"playerRefId": 2, "score": "3+4+2+3-8+3-3+6+12", "winner": False}])
    imported(alice, data)
    assert results(alice) == {"Player 1": (164.0, 1, True), "Player 2": (22.0, 2, False)}


def test_a_tie_nobody_won_has_no_winner(alice):
    data = backup({"highestWins": True},
                  [{"playerRefId": 1, "score": "40", "winner": False},
                   {"playerRefId": 2, "score": "40", "winner": False}])
    imported(alice, data)
    assert results(alice) == {"Player 1": (40.0, 1, False), "Player 2": (40.0, 1, False)}


def test_a_cooperative_play_keeps_the_one_winner_it_marks(alice):
    data = backup({"cooperative": True},
                  [{"playerRefId": 1, "score": "", "winner": True},
                   {"playerRefId": 2, "score": "", "winner": False}])
    imported(alice, data)
    assert [winner for _score, _rank, winner in results(alice).values()] == [True, False]


def test_the_ranks_the_file_gives_are_kept(alice):
    data = backup({"highestWins": True},
                  [{"playerRefId": 1, "score": "10", "winner": False, "rank": 2},
                   {"playerRefId": 2, "score": "12", "winner": False, "rank": 3},
                   {"playerRefId": 3, "score": "9", "winner": True, "rank": 1}])
    imported(alice, data)
    assert results(alice) == {"Player 1": (10.0, 2, False), "Player 2": (12.0, 3, False),
                              "Player 3": (9.0, 1, True)}


def test_teams_expansions_the_board_and_the_bgg_id_are_kept(alice, client):
    data = backup({"highestWins": True},
                  [{"playerRefId": 1, "score": "5", "winner": True, "team": "Red"},
                   {"playerRefId": 2, "score": "3", "winner": False, "team": 2}],
                  usesTeams=True, expansionPlays=[{"gameRefId": 2}, {"gameRefId": 9}],
                  board="Europe")
    data["games"].append({"id": 2, "name": "On the Brink", "isExpansion": True})
    summary = imported(alice, data)
    assert summary["unkept"] == {}
    logged = Session.objects.get(owner=alice).state["logged"]
    assert (logged["board"], logged["expansions"], logged["bgg_id"]) == \
        ("Europe", ["On the Brink"], 30549)
    assert {row["name"]: row["team"] for row in logged["standings"]} == \
        {"Player 1": "Red", "Player 2": "2"}
    client.force_login(alice)
    page = client.get(f"/history/sessions/{Session.objects.get(owner=alice).pk}/").content.decode()
    assert "Europe" in page and "On the Brink" in page and "team Red" in page


def test_a_team_is_read_only_where_the_play_uses_teams(alice):
    data = backup({"highestWins": True},
                  [{"playerRefId": 1, "score": "5", "winner": True, "team": "Red"},
                   {"playerRefId": 2, "score": "3", "winner": False}])
    imported(alice, data)
    logged = Session.objects.get(owner=alice).state["logged"]
    assert all("team" not in row for row in logged["standings"])


def test_what_the_import_cannot_keep_is_named_in_the_summary(alice):
    data = backup({"highestWins": True},
                  [{"playerRefId": 1, "score": "5", "winner": True},
                   {"playerRefId": 2, "score": "a lot", "winner": False}])
    summary = imported(alice, data)
    assert summary["unkept"] == {"score": 1}
    assert bgstats.unkept_words(summary["unkept"]) == [("score", "a score that is not a number", 1)]


def test_an_export_imported_into_a_fresh_host_gives_the_same_history(alice):
    """Per player: plays and wins; per play: teams, expansions, board; per game: its bggId."""
    data = backup({"cooperative": True},
                  [{"playerRefId": 1, "score": "", "winner": False, "team": "A"},
                   {"playerRefId": 2, "score": "", "winner": False, "team": "B"}],
                  usesTeams=True, expansionPlays=[{"gameRefId": 2}], board="Europe")
    data["games"].append({"id": 2, "name": "On the Brink", "isExpansion": True})
    data["games"].append({"id": 3, "name": "Azul", "bggId": 230802, "highestWins": True})
    data["players"].append({"id": 3, "name": "Player 3"})
    data["plays"].append({"uuid": "play-2", "gameRefId": 3, "playDate": "2026-03-03 20:00:00",
                          "playerScores": [
                              {"playerRefId": 1, "score": "40", "winner": False, "rank": 2},
                              {"playerRefId": 3, "score": "40", "winner": True, "rank": 1}]})
    imported(alice, data)
    fresh = UserFactory(username="dora")
    imported(fresh, bgstats.backup_of(owner=alice))

    def history(owner):
        counts = {}
        for row in Result.objects.filter(owner=owner):
            plays, wins = counts.get(row.name, (0, 0))
            counts[row.name] = (plays + 1, wins + row.winner)
        kept = sorted((session.state["logged"].get("bgg_id"), session.title,
                       session.state["logged"].get("board"),
                       session.state["logged"].get("expansions"),
                       [row.get("team") for row in session.state["logged"]["standings"]])
                      for session in Session.objects.filter(owner=owner))
        return counts, kept

    assert history(fresh) == history(alice)
    assert history(fresh)[0] == {"Player 1": (2, 0), "Player 2": (1, 0), "Player 3": (1, 1)}


@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=8))
def test_any_sum_of_whole_numbers_is_read_as_its_total(terms):
    text = str(terms[0]) + "".join(f" {term:+d}" for term in terms[1:])
    assert inputs.score_sum(text) == sum(terms)


def test_nothing_but_a_sum_is_read():
    for text in ("", "+", "1++2", "2*3", "1e5", "1 2", "abs(3)", "__import__"):
        with pytest.raises(ValueError):
            inputs.score_sum(text)


def test_an_evening_play_stays_in_the_evening_both_ways(alice, settings):
    """BG Stats keeps the phone's local time: read and written in the server's zone."""
    settings.TIME_ZONE = "Europe/Madrid"
    data = backup({"highestWins": True}, [{"playerRefId": 1, "score": "5", "winner": True},
                                          {"playerRefId": 2, "score": "3", "winner": False}])
    data["plays"][0]["playDate"] = "2026-03-02 21:30:00"
    imported(alice, data)
    session = Session.objects.get(owner=alice)
    assert session.created_at == datetime.datetime(2026, 3, 2, 20, 30, tzinfo=datetime.UTC)
    exported = bgstats.backup_of(owner=alice)
    assert exported["plays"][0]["playDate"] == "2026-03-02 21:30:00"


def test_a_play_from_bg_stats_goes_back_as_that_play(alice):
    data = backup({"highestWins": True}, [{"playerRefId": 1, "score": "5", "winner": True},
                                          {"playerRefId": 2, "score": "3", "winner": False}])
    imported(alice, data)
    session = Session.objects.get(owner=alice)
    link = bgstats.send_link(session)
    assert bgstats.data_of(link)["sourcePlayId"] == "play-1"


def test_an_anonymous_seat_is_nobodys_play(alice):
    data = backup({"highestWins": True},
                  [{"playerRefId": 1, "score": "5", "winner": True},
                   {"playerRefId": 2, "score": "3", "winner": False},
                   {"playerRefId": 2, "score": "4", "winner": False}])
    data["players"][1].update(name="Anonymous", isAnonymous=True)
    data["plays"].append({**data["plays"][0], "uuid": "play-2"})
    summary = imported(alice, data)
    assert len(summary["added"]) == 2
    assert list(Player.objects.filter(owner=alice).values_list("name", flat=True)) \
        == ["Player 1"]
    anonymous = Result.objects.filter(owner=alice, player=None)
    assert sorted(anonymous.values_list("name", flat=True)) \
        == ["Anonymous", "Anonymous", "Anonymous 2", "Anonymous 2"]
    read = bgstats_backup.read_backup(json.dumps(data).encode())
    assert [row["name"] for row in bgstats.players_used(read)] == ["Player 1"]
