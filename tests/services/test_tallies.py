"""The games' tallies (Game.tallies) kept with the Result rows: a finish adds them, the undo that
reopens the game takes them off, an import that arrives finished adds them; per host and game."""

import pytest

from companion import services, stats
from companion.models import Result, ResultTally
from games.quixote.rules import GAME as QUIXOTE


def score(seat, round_, churches=()):
    data = {"seat": seat, "round": round_, "castle6_knights": 3, "castle4_knights": 0,
            "church_groups": list(churches), "windmill_groups": [2], "defense_shields": 12}
    if round_ == 3:
        data["knight_groups"] = [[2, 3]]
    return data


def quixote(owner, names=("Ana", "Ben"), churches=(3,)):
    """A finished Don Quixote session (deck: none) and the host who played it."""
    session = services.session_create(owner=owner, game="quixote", players=list(names),
                                      options={"deck": "none"})
    host = services.Actor(user=owner)
    for round_ in (1, 2, 3):
        for seat in range(len(names)):
            services.move_play(session=session, type="score",
                               data=score(seat, round_, churches if seat == 0 else ()),
                               actor=host)
    session.refresh_from_db()
    assert session.is_finished
    return session


def kept(owner):
    return {name: (total, count) for name, total, count in ResultTally.objects
            .filter(owner=owner, game="quixote").values_list("name", "total", "count")}


def recount(owner):
    sums = {}
    for details in Result.objects.filter(owner=owner, game="quixote").values_list("details",
                                                                                flat=True):
        for name, value in QUIXOTE.tallies(details).items():
            total, count = sums.get(name, (0.0, 0))
            sums[name] = (total + value, count + 1)
    return sums


@pytest.mark.django_db
def test_a_finish_adds_the_tallies_and_the_undo_takes_them_off(alice, charlie):
    first = quixote(alice)
    found = kept(alice)
    assert found == recount(alice)
    # castle 6, windmills 2, defense 5 each; Ana's church group of 3 another 6.
    assert found["round1_total"] == ((6 + 2 + 5) * 2 + 6, 2)
    assert found["round1_churches"] == (6, 2)
    assert found["round3_knights"] == (10, 2)
    assert "round1_knights" not in found

    second = quixote(alice, names=("Ana", "Ben", "Cid"), churches=(1, 2))
    quixote(charlie)
    assert kept(alice) == recount(alice)
    assert kept(alice)["round2_total"][1] == 5

    host = services.Actor(user=alice)
    services.move_undo(session=second, actor=host)  # reopens it: its results and tallies go
    assert kept(alice) == recount(alice) == kept(charlie)

    services.move_undo(session=first, actor=host)  # also reopens the game
    services.move_undo(session=first, actor=host)  # an active game: nothing to take off
    assert not ResultTally.objects.filter(owner=alice).exists()
    assert kept(charlie) == recount(charlie) != {}


@pytest.mark.django_db
def test_an_import_that_arrives_finished_adds_its_tallies(alice, charlie):
    exported = stats.session_export(session=quixote(alice))
    services.session_import(owner=charlie, data=exported)
    assert kept(charlie) == kept(alice) == recount(charlie)


@pytest.mark.django_db
def test_a_game_without_tallies_keeps_none(alice, game):
    host = services.Actor(user=alice)
    for points in (10, 10):
        services.move_play(session=game, type="add", data={"seat": 0, "points": points},
                           actor=host)
    game.refresh_from_db()
    assert game.is_finished and Result.objects.filter(session=game).exists()
    assert not ResultTally.objects.exists()
