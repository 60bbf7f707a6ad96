"""Redo (the button beside "Ben undid: …") puts back the move the table saw: the dice it rolled
and the card it drew, not new ones; replay, the export and the import agree with it."""

import pytest

from companion import services
from companion.models import Move
from tests.factories import session_for

pytestmark = pytest.mark.django_db


def play(session, actor, type, **data):
    session.refresh_from_db()
    return services.move_play(session=session, type=type, data=data, actor=actor)


def undo_redo(session, actor):
    session.refresh_from_db()
    _, undone = services.move_undo(session=session, actor=actor)
    session.refresh_from_db()
    return services.move_redo(session=session, actor=actor, seq=undone.seq)


def test_a_redone_roll_rolls_the_dice_the_table_saw(alice):
    host = services.Actor(user=alice)
    table = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    rolled = play(table, host, "roll", seat=0)  # the server rolls
    seen = rolled.summary
    for _ in range(3):  # a redo of a redo, too
        redone = undo_redo(table, host)
        assert redone.summary == seen
    assert redone.dice_of == rolled.seq == 1
    table.refresh_from_db()
    assert services.session_replay(session=table) == table.state


def test_a_redone_card_of_the_app_s_deck_is_the_card_turned(alice):
    host = services.Actor(user=alice)
    table = session_for(alice, game="quixote", players=("Ana", "Ben"), options={"deck": "app"})
    play(table, host, "castles")
    turned = play(table, host, "turn")
    redone = undo_redo(table, host)
    table.refresh_from_db()
    assert redone.summary == turned.summary
    assert table.state["current"] == turned.session.state["current"]
    assert services.session_replay(session=table) == table.state


def test_the_export_keeps_whose_dice_a_redo_rolled(alice, as_alice):
    host = services.Actor(user=alice)
    table = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    play(table, host, "roll", seat=0)
    undo_redo(table, host)
    play(table, host, "roll", seat=1)
    exported = as_alice.get(f"/api/sessions/{table.pk}/export/").json()
    assert [move.get("dice_of") for move in exported["moves"]] == [None, 1, None]
    copy = as_alice.post("/api/sessions/import/", exported, format="json")
    assert copy.status_code == 201, copy.json()
    table.refresh_from_db()
    assert copy.json()["state"] == table.state
    assert list(Move.objects.filter(session=copy.json()["id"]).values_list("dice_of", flat=True)
                .order_by("seq")) == [None, 1, None]
    exported["moves"][1]["dice_of"] = 2  # its own seq: no move before it rolled those
    damaged = as_alice.post("/api/sessions/import/", exported, format="json")
    assert damaged.status_code == 400
    assert "rolls the dice of a move that is not before it" in damaged.json()["detail"]


def test_what_the_host_undid_only_the_host_redoes_and_the_redo_says_who(alice, game):
    """A Redo of the host's undo from Peter's phone overturned the host's decision, with no
    question and no word: refused; the host's own Redo is kept as the host's, to be told."""
    from companion.errors import Forbidden

    host = services.Actor(user=alice)
    peter = services.Actor(guest=services.guest_join(code=game.code, seat=1))
    played = play(game, peter, "add", seat=1, points=3)
    game.refresh_from_db()
    _, undone = services.move_undo(session=game, actor=host)
    assert undone.undone_by_host
    game.refresh_from_db()
    with pytest.raises(Forbidden) as refused:
        services.move_redo(session=game, actor=peter, seq=played.seq)
    assert refused.value.message == "The host undid this move: only the host may redo it."
    assert Move.objects.filter(session=game).count() == 1
    redone = services.move_redo(session=game, actor=host, seq=played.seq)
    assert (redone.redone_by, redone.redone_by_role) == ("", "host")
    assert redone.redoer_first == "The host"


def test_a_phone_redoes_its_own_undo_and_is_named(alice, game):
    peter = services.Actor(guest=services.guest_join(code=game.code, seat=1))
    played = play(game, peter, "add", seat=1, points=3)
    game.refresh_from_db()
    _, undone = services.move_undo(session=game, actor=peter)
    assert not undone.undone_by_host
    game.refresh_from_db()
    redone = services.move_redo(session=game, actor=peter, seq=played.seq)
    assert (redone.redone_by, redone.redone_by_role, redone.redoer) == ("Peter", "", "Peter")
