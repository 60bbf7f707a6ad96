"""Phones posting at once: every move applies, seq has no gap, the state equals the replay."""

import threading

import pytest
from django.db import connection

from companion import services
from companion.models import Move, Session
from tests.factories import UserFactory, session_for

THREADS, MOVES = 8, 50


@pytest.mark.django_db(transaction=True)
def test_eight_threads_posting_fifty_moves_each_all_apply_in_order():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is checked on PostgreSQL, the production database (CI runs it)")
    alice = UserFactory(username="alice")
    session = session_for(alice, players=["A", "B", "C", "D"], options={"target": 10**9})
    errors = []
    start = threading.Barrier(THREADS)

    def post(seat):
        try:
            start.wait()
            for _ in range(MOVES):
                services.move_play(session=session, type="add",
                                   data={"seat": seat % 4, "points": 1},
                                   actor=services.Actor(user=alice))
        except Exception as error:  # noqa: BLE001 - the test reports every failure
            errors.append(error)
        finally:
            from django.db import connections

            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    session = Session.objects.get(pk=session.pk)
    seqs = list(Move.objects.filter(session=session).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, THREADS * MOVES + 1))
    assert session.version == THREADS * MOVES
    assert sum(session.state["scores"]) == THREADS * MOVES
    assert session.state == services.session_replay(session=session)


@pytest.mark.django_db(transaction=True)
def test_games_opened_at_once_with_one_new_name_add_it_to_the_roster_once():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is checked on PostgreSQL, the production database (CI runs it)")
    from companion.models import Player

    alice = UserFactory(username="alice")
    errors, made = [], []
    start = threading.Barrier(THREADS)

    def open_one(index):
        try:
            start.wait()
            made.append(services.session_create(owner=alice, game="tiny",
                                                players=["Rocinante", f"Seat {index}"]))
        except Exception as error:  # noqa: BLE001 - the test reports every failure
            errors.append(error)
        finally:
            from django.db import connections

            connections.close_all()

    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == [] and len(made) == THREADS
    rocinante = Player.objects.get(owner=alice, name="Rocinante")
    assert all(session.seats.get(index=0).player_id == rocinante.pk for session in made)
