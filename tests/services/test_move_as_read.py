"""move_play on a session read with_last_seq: no lock and no seq to ask for, and the same move,
seq and state as under the lock, even when another move came in between (issue #15)."""

from companion import services
from companion.models import Move, Result, Session

HOST = services.Actor


def read(session):
    return services.with_last_seq(Session.objects.all()).get(pk=session.pk)


def test_a_move_on_the_session_as_read_is_the_move_under_the_lock(game, alice):
    services.move_play(session=game, type="roll", data={"seat": 0}, actor=HOST(user=alice))
    as_read = services.move_play(session=read(game), type="roll", data={"seat": 1},
                                 actor=HOST(user=alice))
    locked = Session.objects.get(pk=game.pk)
    assert (as_read.seq, as_read.session.version) == (2, 2)
    assert as_read.session.state == locked.state
    # The same seed and seq give the same die as a replay of the log.
    assert services.session_replay(session=locked) == locked.state


def test_another_move_in_between_is_not_overwritten(game, alice):
    stale = read(game)
    services.move_play(session=game, type="add", data={"seat": 0, "points": 3},
                       actor=HOST(user=alice))
    move = services.move_play(session=stale, type="add", data={"seat": 1, "points": 4},
                              actor=HOST(user=alice))
    game.refresh_from_db()
    assert move.seq == 2 and game.version == 2
    assert game.state["scores"] == [3, 4]
    assert list(game.moves.values_list("seq", flat=True)) == [1, 2]


def test_a_finishing_move_as_read_writes_the_results(game, alice):
    services.move_play(session=game, type="add", data={"seat": 0, "points": 10},
                       actor=HOST(user=alice))
    move = services.move_play(session=read(game), type="add", data={"seat": 0, "points": 10},
                              actor=HOST(user=alice))
    game.refresh_from_db()
    assert move.session.is_finished and game.is_finished and game.finished_at is not None
    assert Result.objects.filter(session=game, winner=True).get().seat == 0
    assert Move.objects.filter(session=game).count() == 2


def test_the_move_written_as_read_reads_back_as_it_was_answered(game, alice, bob):
    """On PostgreSQL one statement writes the session and the move (services._move_write_at_once):
    what the database holds afterwards is what the request answered with, field by field."""
    services.move_play(session=game, type="add", data={"seat": 0, "points": 3},
                       actor=HOST(user=alice))
    move = services.move_play(session=read(game), type="add", data={"seat": 1, "points": 4},
                              actor=services.Actor(guest=bob))
    stored = Move.objects.get(pk=move.pk)
    fields = [field.attname for field in Move._meta.concrete_fields]
    assert {name: getattr(stored, name) for name in fields} == {
        name: getattr(move, name) for name in fields}
    assert (stored.seq, stored.actor_guest_id, stored.undone) == (2, bob.pk, False)
    session = Session.objects.get(pk=game.pk)
    assert (session.version, session.state, session.updated_at) == (
        move.session.version, move.session.state, move.session.updated_at)
    assert session.state["scores"] == [3, 4]
