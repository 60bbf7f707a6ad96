"""Plays logged afterwards (services.play_log): a finished, logged session with its Result rows
and no moves, ranked from the scores or the winners named; bad input is a sentence and writes
nothing; undo is refused; export and import round-trip it."""

import dataclasses
import datetime

import pytest
from django.utils import timezone

from companion import engine, plugins, services, stats
from companion.errors import Refused
from companion.models import Move, Player, Result, Seat, Session
from tests.tinygame import SERIALIZERS, TINY


def _pad_stand_in():
    """The score pad's declaration as the log needs it (options "game" and "win", a title),
    for when games.pad is not installed."""
    return dataclasses.replace(
        TINY, slug="pad", name="Any game", min_players=1, max_players=12,
        options={"target": 20, "game": "", "win": "high"},
        title=lambda options: str(options.get("game") or "").strip(), check_options=None)


@pytest.fixture
def named_game():
    """The score pad: the installed one, or a stand-in while it is not."""
    try:
        plugins.rules_of("pad")
    except engine.RuleViolation:
        plugins.register(plugins.Plugin(rules=_pad_stand_in(), serializers=SERIALIZERS))
        yield "pad"
        plugins.unregister("pad")
    else:
        yield "pad"


def four(scores=(None, None, None, None), winners=(False, False, False, False)):
    names = ("Ana", "Ben", "Cid", "Dee")
    return [{"name": name, "score": score, "winner": winner}
            for name, score, winner in zip(names, scores, winners, strict=True)]


def log(owner, **fields):
    base = {"game": "tiny", "players": four((12, 30, 18, 30))}
    return services.play_log(owner=owner, **{**base, **fields})


def counts():
    return (Session.objects.count(), Seat.objects.count(), Result.objects.count(),
            Player.objects.count(), Move.objects.count())


def standings(session):
    return [(row.name, row.score, row.rank, row.winner)
            for row in Result.objects.filter(session=session).order_by("rank", "seat")]


def test_a_logged_play_is_a_finished_session_with_results(alice):
    day = datetime.date(2026, 10, 3)
    session = log(alice, played_at=day, minutes=75, location="Ana's kitchen",
                  note="Ben's first game")
    session.refresh_from_db()
    assert session.logged and session.is_finished and session.version == 0
    assert session.location == "Ana's kitchen" and session.title == ""
    assert timezone.localtime(session.created_at).date() == day
    assert session.finished_at - session.created_at == datetime.timedelta(minutes=75)
    assert not session.moves.exists()
    assert standings(session) == [("Ben", 30, 1, True), ("Dee", 30, 1, True),
                                  ("Cid", 18, 3, False), ("Ana", 12, 4, False)]
    assert {p.name for p in Player.objects.filter(owner=alice)} == {"Ana", "Ben", "Cid", "Dee"}
    assert session.state["logged"]["note"] == "Ben's first game"
    assert stats.session_standings(session)[0]["name"] == "Ben"
    # The set-up of the game is there too: pages that read the game's state work on it.
    assert plugins.rules_of("tiny").standings(session.state)


def test_winners_named_break_a_tie_of_scores(alice):
    session = log(alice, players=four((30, 30, 18, 12), (False, True, False, False)))
    assert standings(session)[:2] == [("Ben", 30, 1, True), ("Ana", 30, 2, False)]


def test_roster_players_are_reused(alice):
    ana = services.player_create(owner=alice, name="Ana")
    players = four((1, 2, 3, 4))
    players[0] = {"player": ana.pk, "score": 1}
    session = log(alice, players=players)
    assert Result.objects.get(session=session, seat=0).player == ana


@pytest.mark.parametrize(("win", "scores", "winners", "expected"), [
    ("low", (40, 22, 22, 31), (False,) * 4,
     [("Ben", 22, 1, True), ("Cid", 22, 1, True), ("Dee", 31, 3, False), ("Ana", 40, 4, False)]),
    # No score given: the result keeps none (Result.score), where statistics counted 0.
    ("coop", (None,) * 4, (False,) * 4,
     [("Ana", None, 1, False), ("Ben", None, 1, False), ("Cid", None, 1, False),
      ("Dee", None, 1, False)]),
    ("coop", (None,) * 4, (True, False, False, False),
     [("Ana", None, 1, True), ("Ben", None, 1, True), ("Cid", None, 1, True),
      ("Dee", None, 1, True)]),
    ("none", (None,) * 4, (False, True, False, True),
     [("Ben", None, 1, True), ("Dee", None, 1, True), ("Ana", None, 3, False),
      ("Cid", None, 3, False)]),
    ("high", (None,) * 4, (False, False, True, False),
     [("Cid", None, 1, True), ("Ana", None, 2, False), ("Ben", None, 2, False),
      ("Dee", None, 2, False)]),
])
def test_a_named_game_ranks_as_it_is_won(alice, named_game, win, scores, winners, expected):
    session = services.play_log(owner=alice, game="", title="Carcassonne", win=win,
                                players=four(scores, winners))
    session.refresh_from_db()
    assert (session.game, session.title, session.logged) == ("pad", "Carcassonne", True)
    assert session.game_name == "Carcassonne"
    assert plugins.rules_of("pad").title(session.options) == "Carcassonne"
    assert session.options["win"] == win
    assert standings(session) == expected
    assert set(Result.objects.filter(session=session).values_list("title", flat=True)) == {
        "Carcassonne"}


@pytest.mark.parametrize(("fields", "sentence"), [
    ({"game": ""}, "Name the game played."),
    # (a name alone, "chess", is a named game's: see test_plays' contract test)
    ({"game": "chess", "title": "Azul"}, "There is no game called 'chess'."),
    ({"title": "Carcassonne"}, "is a game of its own"),
    ({"win": "low"}, "is won by the highest score"),
    ({"players": []}, "Name the players."),
    ({"players": four((1, None, 3, 4))}, "Give every player a score, or none."),
    ({"players": four()}, "Give the final scores, or tick the winners."),
    ({"players": four(("ten", 1, 2, 3))}, "A score is a number"),
    ({"players": four((10**20, 1, 2, 3))}, "A score is at most a billion, more or less."),
    ({"players": four((1, 2, 3, 4), ("yes", False, False, False))}, "true or false"),
    ({"players": [{"name": "Ana", "score": 1}, {"name": "ana", "score": 2}]}, "named twice"),
    ({"players": [{"name": "", "score": 1}]}, "Every player needs a name."),
    ({"minutes": 0}, "whole number of minutes"),
    ({"minutes": 12.5}, "whole number of minutes"),
    ({"minutes": "long"}, "The length is a number"),
    ({"played_at": timezone.localdate() + datetime.timedelta(days=2)}, "still to come"),
    ({"played_at": "yesterday"}, "a day like"),
    ({"location": "x" * 61}, "too long"),
    ({"note": "a\x00b"}, "control characters"),
    ({"win": "most"}, "not most"),
])
def test_bad_input_is_a_sentence_and_writes_nothing(alice, fields, sentence):
    before = counts()
    with pytest.raises(Refused) as refused:
        log(alice, **fields)
    assert sentence in refused.value.message
    assert counts() == before


@pytest.mark.parametrize(("fields", "sentence"), [
    ({"title": ""}, "Name the game played"),
    ({"win": "none", "players": four((1, 2, 3, 4), (True, False, False, False))},
     "takes no scores"),
    ({"win": "none", "players": four()}, "Tick the winner"),
])
def test_bad_named_game_input(alice, named_game, fields, sentence):
    before = counts()
    with pytest.raises(Refused) as refused:
        services.play_log(owner=alice, **{"game": "pad", "title": "Azul",
                                          "players": four((1, 2, 3, 4)), **fields})
    assert sentence in refused.value.message
    assert counts() == before


def test_too_many_players_for_the_game_writes_nothing(alice):
    before = counts()
    players = [{"name": f"P{n}", "score": n} for n in range(TINY.max_players + 1)]
    with pytest.raises(Refused):
        log(alice, players=players)
    assert counts() == before


def test_undo_of_a_logged_play_is_refused(alice):
    session = log(alice)
    with pytest.raises(Refused) as refused:
        services.move_undo(session=session, actor=services.Actor(user=alice))
    assert refused.value.message.endswith(".")
    with pytest.raises(Refused):
        services.move_play(session=session, type="add", data={"seat": 0, "points": 1},
                           actor=services.Actor(user=alice))
    session.refresh_from_db()
    assert session.is_finished and Result.objects.filter(session=session).count() == 4


def test_a_logged_play_without_a_length_counts_no_length(alice):
    log(alice)
    figures = stats.game_stats(owner=alice, game="tiny")
    assert figures["plays"] == 1 and figures["length"]["average_seconds"] is None
    log(alice, minutes=30)
    figures = stats.game_stats(owner=alice, game="tiny")
    assert figures["plays"] == 2 and figures["length"]["average_seconds"] == 30 * 60


def test_export_and_import_round_trip_a_logged_play(alice, charlie, named_game):
    for session in (
        log(alice, played_at=datetime.date(2026, 9, 1), minutes=40, location="Club",
            note="close one", players=four((30, 30, 18, 12), (False, True, False, False))),
        services.play_log(owner=alice, title="Hanabi", win="coop", location="Club",
                          players=four((18, 18, 18, 18), (True, False, False, False))),
        services.play_log(owner=alice, title="Codenames", win="none",
                          players=four(winners=(False, True, True, False))),
    ):
        session = Session.objects.get(pk=session.pk)
        exported = stats.session_export(session=session)
        assert exported["logged"] is True and exported["moves"] == []
        copy = services.session_import(owner=charlie, data=exported)
        copy.refresh_from_db()
        assert (copy.game, copy.title, copy.location, copy.logged, copy.status) == (
            session.game, session.title, session.location, True, session.status)
        assert copy.created_at == session.created_at
        assert copy.finished_at == session.finished_at
        assert copy.state["logged"] == session.state["logged"]
        assert standings(copy) == standings(session)
        again = stats.session_export(session=Session.objects.get(pk=copy.pk))
        for key in ("code", "seed", "seats", "state"):
            again.pop(key), exported.pop(key)
        assert again == exported


def test_a_damaged_logged_export_is_refused_whole(alice, charlie):
    exported = stats.session_export(session=log(alice))
    before = counts()
    for damage in ({"standings": "nope"}, {"standings": [{"seat": 9, "score": 1}]},
                   {"state": None}):
        with pytest.raises(Refused) as refused:
            services.session_import(owner=charlie, data={**exported, **damage})
        assert refused.value.message.startswith("This export is damaged")
    assert counts() == before


def test_import_keeps_a_played_sessions_location(alice, charlie):
    session = services.session_create(owner=alice, game="tiny", players=["Ana", "Ben"],
                                      location="Club")
    copy = services.session_import(owner=charlie,
                                   data=stats.session_export(session=session))
    assert copy.location == "Club" and not copy.logged


def test_a_named_game_keeps_the_spelling_used_before(alice, named_game):
    services.play_log(owner=alice, title="Carcassonne", players=four((1, 2, 3, 4)))
    again = services.play_log(owner=alice, title="carcassonne ", players=four((4, 3, 2, 1)))
    assert again.title == "Carcassonne"
    assert stats.game_stats(owner=alice, game="pad", title="Carcassonne")["plays"] == 2


def test_an_import_adds_again_the_new_player_of_a_play_it_refused(alice):
    """An import looks each name up once for all its plays; a play refused after seating its
    players (too many for the game) rolls its new roster player back, and a later play naming
    that player adds it again rather than reuse the one rolled back."""
    crowd = ["Zed", "Ann", "Bea", "Cal", "Dot"]  # five: Don Quixote seats four at most
    plays = [
        {"key": "a", "label": "Play 1", "log": {"game": "quixote", "players": crowd}},
        {"key": "b", "label": "Play 2", "log": {"game": "quixote", "players": [
            {"name": "Zed", "score": 30}, {"name": "Eve", "score": 20}]}},
    ]
    summary = services.bgstats_import(owner=alice, plays=plays)
    assert [label for label, _why in summary["skipped"]] == ["Play 1"]
    [(_label, added)] = summary["added"]
    zed = Player.objects.get(owner=alice, name="Zed")
    assert Result.objects.get(player=zed).session_id == added
    assert sorted(summary["new_players"]) == ["Eve", "Zed"]
