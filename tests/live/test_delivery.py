"""A version a request writes in one statement that commits with its NOTIFY (services.
_move_write_at_once) is handed to its own server process's streams by the request, with the
fragments as it rendered them (live.deliver_here); that process's listener leaves the version's
NOTIFY alone, and hands on every other (issue #15)."""

from collections import OrderedDict

import pytest
from django.db import connection

from companion import live, services
from companion.models import Session

PACKED = "en:eJwDAAAAAAE="


@pytest.fixture
def delivered(monkeypatch):
    """What reaches this process's streams (live.deliver), in order."""
    calls = []
    monkeypatch.setattr(live, "deliver", lambda *args: calls.append(args))
    monkeypatch.setattr(live, "_here", OrderedDict())
    return calls


def test_the_notify_of_a_version_written_here_is_left_to_the_request(delivered):
    live.expect_here(7, 3)
    live.heard(f"7:3:{PACKED}")  # may come before the statement returns
    live.deliver_here(7, 3, {"language": "en"})
    live.heard(f"7:4:{PACKED}")
    live.heard("8:3")
    assert delivered == [(7, 3, {"language": "en"}), (7, 4, PACKED), (8, 3, None)]


def test_a_seat_taken_in_any_process_is_handed_to_this_ones_streams(delivered, monkeypatch):
    seats = []
    monkeypatch.setattr(live, "deliver_seats", seats.append)
    live.heard("s:7")
    assert seats == [7] and delivered == []


def test_a_version_another_request_wrote_first_is_delivered_when_heard(delivered):
    live.expect_here(7, 3)
    live.written_elsewhere(7, 3)  # this request's statement wrote nothing
    live.heard(f"7:3:{PACKED}")  # the other process's NOTIFY, heard afterwards
    assert delivered == [(7, 3, PACKED)]


def test_a_version_another_request_wrote_first_is_delivered_when_left_alone(delivered):
    """Its NOTIFY came while this request's statement ran, and the listener left it alone: the
    version is delivered all the same, without fragments (the streams render them)."""
    live.expect_here(7, 3)
    live.heard(f"7:3:{PACKED}")
    live.written_elsewhere(7, 3)
    assert delivered == [(7, 3)]


@pytest.mark.django_db(transaction=True)
def test_a_move_written_at_once_is_delivered_here_with_its_fragments(game, alice, delivered):
    if connection.vendor != "postgresql":
        pytest.skip("a move is written in one statement on PostgreSQL only")
    live.watch(game.pk)  # a phone watches: the move's fragments are rendered ahead
    read = services.with_last_seq(Session.objects.all()).get(pk=game.pk)
    services.move_play(session=read, type="add", data={"seat": 0, "points": 3},
                       actor=services.Actor(user=alice))
    [(session_id, version, ahead)] = delivered
    assert (session_id, version) == (game.pk, 1)
    # As the request rendered them, not packed for a NOTIFY.
    assert ahead["language"] == game.language and "scoreboard" in ahead["html"]


@pytest.mark.django_db(transaction=True)
def test_a_move_that_finds_the_session_moved_on_leaves_no_mark(game, alice, delivered):
    """Nothing written: no version of this request's is delivered, and no mark is left that
    would make the listener leave a later NOTIFY of that version alone."""
    if connection.vendor != "postgresql":
        pytest.skip("a move is written in one statement on PostgreSQL only")
    stale = services.with_last_seq(Session.objects.all()).get(pk=game.pk)
    services.move_play(session=game, type="add", data={"seat": 0, "points": 3},
                       actor=services.Actor(user=alice))
    move = services._move_play_as_read(
        session=stale, type="add", data={"seat": 1, "points": 4},
        actor=services.Actor(user=alice), expected_version=None, fingerprint="")
    assert move is None and not live._here
    assert all(len(call) == 2 or not isinstance(call[2], dict) for call in delivered)
