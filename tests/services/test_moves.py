"""move_play and move_undo: one transaction, versions, idempotency, replay, results."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import services
from companion.engine import RuleViolation
from companion.errors import Conflict, KeyReused, Stale
from companion.models import Move, Result, Session
from tests.factories import UserFactory, session_for

HOST = services.Actor


def play(session, user, **data):
    move_type = data.pop("type", "add")
    return services.move_play(session=session, type=move_type, data=data,
                              actor=HOST(user=user))


def snapshot(session):
    session = Session.objects.get(pk=session.pk)
    return (session.version, session.state, session.status,
            list(session.moves.values_list("seq", "type", "undone")))


def test_a_move_appends_to_the_log_and_bumps_the_version(game, alice):
    move = play(game, alice, seat=0, points=3)
    game.refresh_from_db()
    assert (move.seq, move.summary, game.version) == (1, "Vanessa +3", 1)
    assert game.state["scores"] == [3, 0]


def test_a_refused_move_leaves_no_trace(game, alice):
    play(game, alice, seat=0, points=3)
    before = snapshot(game)
    with pytest.raises(RuleViolation, match="Seven is unlucky"):
        play(game, alice, seat=1, points=7)
    assert snapshot(game) == before


def test_a_stale_expected_version_is_refused_with_the_fresh_session(game, alice):
    play(game, alice, seat=0, points=3)
    with pytest.raises(Stale) as refusal:
        services.move_play(session=game, type="add", data={"seat": 1, "points": 2},
                           actor=HOST(user=alice), expected_version=0)
    assert refusal.value.session.version == 1
    assert Move.objects.filter(session=game).count() == 1


def test_the_current_expected_version_is_accepted(game, alice):
    services.move_play(session=game, type="add", data={"seat": 1, "points": 2},
                       actor=HOST(user=alice), expected_version=0)
    game.refresh_from_db()
    assert game.version == 1


def test_a_repeated_idempotency_key_applies_once(game, alice):
    first = services.move_play(session=game, type="add", data={"seat": 0, "points": 2},
                               actor=HOST(user=alice), key="k1")
    again = services.move_play(session=game, type="add", data={"seat": 0, "points": 2},
                               actor=HOST(user=alice), key="k1")
    game.refresh_from_db()
    assert again.pk == first.pk and again.repeated
    assert game.state["scores"] == [2, 0] and game.version == 1


def test_the_same_key_with_another_body_is_refused(game, alice):
    services.move_play(session=game, type="add", data={"seat": 0, "points": 2},
                       actor=HOST(user=alice), key="k1")
    with pytest.raises(KeyReused):
        services.move_play(session=game, type="add", data={"seat": 0, "points": 3},
                           actor=HOST(user=alice), key="k1")


def test_undo_marks_the_last_move_and_rebuilds_the_state(game, alice):
    play(game, alice, seat=0, points=3)
    play(game, alice, seat=1, points=4)
    session, undone = services.move_undo(session=game, actor=HOST(user=alice))
    assert undone.seq == 2 and undone.undone
    assert session.state["scores"] == [3, 0]
    assert session.version == 3
    assert Move.objects.filter(session=game).count() == 2  # never deleted
    # The next move takes the next number: seq only grows.
    assert play(game, alice, seat=1, points=1).seq == 3


def test_undo_with_nothing_left_is_a_conflict(game, alice):
    with pytest.raises(Conflict, match="nothing left to undo"):
        services.move_undo(session=game, actor=HOST(user=alice))


def test_undo_with_a_stale_version_is_refused(game, alice):
    play(game, alice, seat=0, points=3)
    with pytest.raises(Stale):
        services.move_undo(session=game, actor=HOST(user=alice), expected_version=0)
    game.refresh_from_db()
    assert game.state["scores"] == [3, 0]


def test_finishing_writes_results_and_undo_reopens(game, alice):
    play(game, alice, seat=0, points=10)
    play(game, alice, seat=1, points=9)
    play(game, alice, seat=0, points=10)
    game.refresh_from_db()
    assert game.status == "finished" and game.finished_at is not None
    results = {r.name: (r.score, r.rank, r.winner, r.player_id) for r in Result.objects.all()}
    vanessa, peter = game.seats.order_by("index")
    assert results == {"Vanessa": (20.0, 1, True, vanessa.player_id),
                       "Peter": (9.0, 2, False, peter.player_id)}

    with pytest.raises(Conflict, match="game is over"):
        play(game, alice, seat=1, points=1)

    session, _ = services.move_undo(session=game, actor=HOST(user=alice))
    assert session.status == "active" and session.finished_at is None
    assert not Result.objects.exists()


def test_randomness_is_seeded_per_move_so_replay_rolls_the_same(game, alice):
    for _ in range(5):
        play(game, alice, type="roll", seat=0)
    game.refresh_from_db()
    assert game.state == services.session_replay(session=game)
    assert len(set(game.state["rolls"])) > 1  # each move has its own die


steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(0, 1), st.integers(1, 10)),
        st.tuples(st.just("roll"), st.integers(0, 1), st.none()),
        st.tuples(st.just("undo"), st.none(), st.none()),
    ),
    max_size=12,
)


@pytest.mark.django_db
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_replay_equals_the_cached_state_and_undo_restores_the_state_before(steps):
    alice = UserFactory(username="alice")
    session = session_for(alice, options={"target": 1000})
    history = [session.state]
    for kind, seat, points in steps:
        session.refresh_from_db()
        if kind == "undo":
            try:
                services.move_undo(session=session, actor=HOST(user=alice))
            except Conflict:
                continue
            history.pop()
        else:
            data = {"seat": seat} if kind == "roll" else {"seat": seat, "points": points}
            try:
                services.move_play(session=session, type=kind, data=data,
                                   actor=HOST(user=alice))
            except RuleViolation:
                continue
            session.refresh_from_db()
            history.append(session.state)
        session.refresh_from_db()
        assert session.state == history[-1]
        assert session.state == services.session_replay(session=session)
