"""Importing a BG Stats backup: 2,000 plays over 40 games and 15 players become logged sessions
whose figures on the player and game pages (stats.player_stats, stats.game_stats) are a plain
recount of the file; importing it again adds nothing; a malformed file, another app's file and a
play with no players are one sentence each and write nothing; the export goes the other way."""

import io
import json
import re

import pytest
from django.core.management import CommandError, call_command

from bench.bgstats_import import make_backup
from companion import bgstats, bgstats_backup, plugins, services, stats
from companion.errors import Refused
from companion.models import Player, Result, Seat, Session
from companion.services import bgstats_imports
from tests.factories import UserFactory


def import_file(owner, data, matches=None):
    backup = bgstats_backup.read_backup(json.dumps(data).encode())
    roster = dict(Player.objects.filter(owner=owner).values_list("id", "name"))
    if matches is None:
        matches = bgstats.suggested_matches(backup, roster.items())
    entries, skipped = bgstats.plan(backup, matches=matches, roster=roster)
    return services.bgstats_import(owner=owner, plays=entries), skipped


def counts():
    return (Session.objects.count(), Seat.objects.count(), Result.objects.count(),
            Player.objects.count())


def recount(data):
    """The file's figures, counted plainly: per player and game, plays, wins and scores."""
    names = {player["id"]: player["name"] for player in data["players"]}
    games = {game["id"]: game for game in data["games"]}
    ours = {game.name: game.slug for game in plugins.all_rules() if game.title is None}
    titled = plugins.titled_game().slug
    players, per_game = {}, {}
    for play in data["plays"]:
        game = games[play["gameRefId"]]
        key = stats.game_key(ours[game["name"]]) if game["name"] in ours \
            else stats.game_key(titled, game["name"])
        figures = per_game.setdefault(key, {"plays": 0, "results": 0, "points": 0.0,
                                            "scored": 0, "wins": {}})
        figures["plays"] += 1
        for score in play["playerScores"]:
            name = names[score["playerRefId"]]
            points = float(score["score"]) if score["score"] else 0.0
            figures["results"] += 1
            if score["score"] and not game["noPoints"]:  # a score given: averaged
                figures["points"] += points
                figures["scored"] += 1
            mine = players.setdefault(name, {"plays": 0, "wins": 0, "games": {}})
            mine["plays"] += 1
            mine["wins"] += score["winner"]
            game_row = mine["games"].setdefault(key, {"plays": 0, "wins": 0, "best": None})
            game_row["plays"] += 1
            game_row["wins"] += score["winner"]
            if game["noPoints"] is False and not game["cooperative"]:
                better = max if game["highestWins"] else min  # a lowest-wins game's best
                game_row["best"] = points if game_row["best"] is None \
                    else better(points, game_row["best"])
            if score["winner"]:
                figures["wins"][name] = figures["wins"].get(name, 0) + 1
    return players, per_game


# Big enough to be imported in three chunks (100, 100 and 50, services.IMPORT_PLAYS_CHUNK made
# smaller here: the 500 of production would take 1,100 plays, a long test for what it shows):
# bench/bgstats_import.py measures 10,000.
BIG = 250
CHUNK = 100


@pytest.fixture(scope="module")
def big_backup():
    return make_backup(plays=BIG, games=40, players=15, seed=17)


def test_a_big_backup_is_counted_as_the_file_says_and_twice_adds_nothing(alice, big_backup,
                                                                         monkeypatch):
    monkeypatch.setattr(bgstats_imports, "IMPORT_PLAYS_CHUNK", CHUNK)
    summary, skipped = import_file(alice, big_backup)
    assert skipped == [] and summary["skipped"] == []
    assert len(summary["added"]) == BIG and summary["already"] == []
    assert len(summary["new_players"]) == 15
    players, per_game = recount(big_backup)
    assert len(per_game) == 40
    for name, expected in players.items():
        player = Player.objects.get(owner=alice, name=name)
        figures = stats.player_stats(player=player)
        assert (figures["plays"], figures["wins"]) == (expected["plays"], expected["wins"])
        assert set(figures["games"]) == set(expected["games"])
        for key, row in expected["games"].items():
            assert figures["games"][key]["plays"] == row["plays"]
            assert figures["games"][key]["wins"] == row["wins"]
            if row["best"] is not None:
                assert figures["games"][key]["best"] == row["best"]
    for key, expected in per_game.items():
        game, title = stats.split_key(key)
        figures = stats.game_stats(owner=alice, game=game, title=title, records=20)
        assert figures["plays"] == expected["plays"]
        assert figures["results"] == expected["results"]
        assert figures["average"] == (round(expected["points"] / expected["scored"], 2)
                                      if expected["scored"] else None)
        assert {row["name"]: row["wins"] for row in figures["winners"]} == expected["wins"]
    before = counts()
    summary, _skipped = import_file(alice, big_backup)
    assert summary["added"] == [] and len(summary["already"]) == BIG
    assert counts() == before


def small_backup():
    return make_backup(plays=12, games=6, players=5, seed=3)


@pytest.mark.parametrize(("raw", "sentence"), [
    (b"{\"games\": [", "This file is not JSON, so it is not a BG Stats backup"),
    (b"\xff\xfe not text", "This file is not JSON"),
    (json.dumps({"format": "companion-session", "game": "quixote", "moves": []}).encode(),
     "This is a Companion export of one game, not a BG Stats backup"),
    (json.dumps({"version": 1, "items": [{"title": "Azul"}]}).encode(),
     "This file is not a BG Stats backup: a backup is the JSON file BG Stats exports"),
    (json.dumps([1, 2, 3]).encode(), "This file is not a BG Stats backup"),
])
def test_a_file_that_is_not_a_backup_is_one_sentence(alice, raw, sentence):
    with pytest.raises(Refused) as refused:
        bgstats_backup.read_backup(raw)
    assert refused.value.message.startswith(sentence)
    assert refused.value.message.count(".") == 1 or "(" in refused.value.message


def test_a_play_with_no_players_is_refused_alone_with_its_sentence(alice):
    data = small_backup()
    data["plays"][5]["playerScores"] = []
    summary, skipped = import_file(alice, data)
    assert len(summary["added"]) == len(data["plays"]) - 1
    [(label, why)] = skipped
    assert " on " in label and why == "It has no players, so it cannot be counted."


def refused_alone(alice, data):
    """The one play of `data` refused, as (label, why); the others imported."""
    summary, skipped = import_file(alice, data)
    assert len(summary["added"]) == len(data["plays"]) - 1
    [refused] = skipped
    return refused


def test_a_damaged_play_names_itself(alice):
    data = small_backup()
    data["plays"][2]["playerScores"][0]["playerRefId"] = 999
    assert refused_alone(alice, data)[1] == "It names a player who is not in the file."
    for date in ("yesterday", "0001-01-01 00:00:00"):  # BG Stats' own dates are never so old
        data = small_backup()
        data["plays"][0]["playDate"] = date
        label, why = refused_alone(UserFactory(), data)
        assert label.startswith("Play 1 in the file (") and why.startswith("It has no date")


@pytest.mark.parametrize(("field", "ref", "sentence"), [
    ("gameRefId", [1], "Play 1 in the file: It names a game that is not in the file."),
    ("gameRefId", {"id": 1}, "Play 1 in the file: It names a game that is not in the file."),
    ("playerRefId", [1], ".* on .*: It names a player who is not in the file."),
    ("locationRefId", [1], None),
])
def test_a_reference_that_is_no_id_is_a_damaged_play_not_a_crash(alice, field, ref, sentence):
    data = small_backup()
    play = data["plays"][0]
    (play["playerScores"][0] if field == "playerRefId" else play)[field] = ref
    read = bgstats_backup.read_backup(json.dumps(data).encode())
    if sentence is None:  # a place that names nothing: the play keeps no place
        assert read["plays"][0]["location"] == ""
        return
    [(label, why)] = read["refused"]
    assert re.fullmatch(sentence, f"{label}: {why}"), (label, why)


def test_one_player_at_two_seats_of_a_play_is_two_seats(alice):
    # BG Stats lets its anonymous player sit at several seats of one play.
    data = {"games": [{"id": 1, "name": "Azul"}], "locations": [],
            "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "ana"},
                        {"id": 9, "name": "Anonymous player", "isAnonymous": True}],
            "plays": [{"gameRefId": 1, "playDate": "2024-03-04 20:00:00", "uuid": "anon-1",
                       "playerScores": [{"playerRefId": pid, "score": str(score)}
                                        for pid, score in ((1, 5), (9, 3), (9, 4), (2, 7))]}]}
    summary, skipped = import_file(alice, data)
    assert skipped == [] and summary["skipped"] == [] and len(summary["added"]) == 1
    names = list(Seat.objects.filter(session__owner=alice).order_by("index")
                 .values_list("name", flat=True))
    assert names == ["Ana", "Anonymous player", "Anonymous player 2", "ana 2"]
    assert sorted(Result.objects.filter(owner=alice).values_list("score", flat=True)) == [
        3, 4, 5, 7]


def test_players_are_matched_to_the_roster_by_name_or_as_the_host_says(alice):
    data = small_backup()
    ana = services.player_create(owner=alice, name="player a")  # any case
    zoe = services.player_create(owner=alice, name="Zoe")
    backup = bgstats_backup.read_backup(json.dumps(data).encode())
    roster = {ana.pk: ana.name, zoe.pk: zoe.name}
    suggested = bgstats.suggested_matches(backup, roster.items())
    assert suggested[1] == ana.pk and suggested[2] is None
    summary, _skipped = import_file(alice, data, matches={**suggested, 2: zoe.pk})
    assert "Player B" not in summary["new_players"] and "Player A" not in summary["new_players"]
    b_plays = sum(1 for play in data["plays"] for score in play["playerScores"]
                  if score["playerRefId"] == 2)
    assert Result.objects.filter(player=zoe).count() == b_plays > 0
    assert not Player.objects.filter(owner=alice, name="Player B").exists()


def test_skipped_plays_say_why_and_the_rest_is_added(alice):
    data = small_backup()
    data["plays"][0]["ignored"] = True
    data["plays"][1]["playerScores"][0]["score"] = "lots"
    dq = next(game["id"] for game in data["games"] if game["name"] == "Don Quixote")
    data["plays"][2]["gameRefId"] = dq  # Don Quixote is for 4 at most
    data["plays"][2]["playerScores"] = [
        {"playerRefId": pid, "score": "10", "winner": pid == 1, "seatOrder": pid}
        for pid in (1, 2, 3, 4, 5)]
    summary, skipped = import_file(alice, data)
    reasons = [why for _label, why in skipped + summary["skipped"]]
    assert any("ignored" in why for why in reasons)
    assert "Don Quixote is played by 1 to 4 players, not 5." in reasons
    # A score that is no number loses that score, not the play: the summary names it.
    assert len(summary["added"]) == 10
    assert summary["unkept"] == {"score": 1}


def test_the_export_goes_the_other_way(alice, charlie):
    data = small_backup()
    import_file(alice, data)
    services.play_log(owner=alice, game="rabbits", players=[
        {"name": "Player A", "score": 7}, {"name": "Player B", "score": 9}])
    exported = bgstats.backup_of(owner=alice)
    again = bgstats_backup.read_backup(json.dumps(exported).encode())  # its own reader takes it
    assert len(again["plays"]) == 13
    # Imported plays keep their BG Stats uuid, and the others' are stable: going back adds
    # nothing, neither there nor here.
    assert {play["uuid"] for play in data["plays"]} < {play["uuid"] for play in exported["plays"]}
    assert bgstats.backup_of(owner=alice)["plays"] == exported["plays"]
    before = counts()
    summary, _skipped = import_file(alice, exported)
    assert len(summary["already"]) == 13 and summary["added"] == []
    assert counts() == before
    # Another host gets the same figures from it.
    summary, skipped = import_file(charlie, exported)
    assert skipped == [] and len(summary["added"]) == 13
    for name in ("Player A", "Player B"):
        mine = stats.player_stats(player=Player.objects.get(owner=alice, name=name))
        theirs = stats.player_stats(player=Player.objects.get(owner=charlie, name=name))
        assert (mine["plays"], mine["wins"], mine["games"]) == \
            (theirs["plays"], theirs["wins"], theirs["games"])


def test_the_export_writes_every_digit_of_a_score(alice):
    """Written as f"{score:g}", 1000009 left as "1.00001e+06" and 123456.5 as "123456"."""
    services.play_log(owner=alice, game="rabbits", players=[
        {"name": "Player A", "score": 1000009}, {"name": "Player B", "score": 123456.5}])
    [play] = bgstats.backup_of(owner=alice)["plays"]
    assert sorted(score["score"] for score in play["playerScores"]) == ["1000009", "123456.5"]


def test_the_command_imports_with_progress_and_refuses_with_the_sentence(alice, tmp_path):
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(small_backup()))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_bgstats", str(path), host="ALICE", stdout=out, stderr=err)
    assert out.getvalue().startswith("12 plays added, 0 imported before")
    assert "12/12 plays" in err.getvalue()
    out = io.StringIO()
    call_command("import_bgstats", str(path), host="alice", stdout=out, stderr=io.StringIO())
    assert out.getvalue().startswith("0 plays added, 12 imported before")
    path.write_text("not json")
    before = counts()
    with pytest.raises(CommandError, match="This file is not JSON"):
        call_command("import_bgstats", str(path), host="alice")
    with pytest.raises(CommandError, match="There is no host called nobody"):
        call_command("import_bgstats", str(path), host="nobody")
    assert counts() == before
