"""POST /api/sessions/{id}/claim/: the phone that played a seat, signed in, keeps it in its
account's history; and DELETE /api/players/{id}/link/. Each refusal a 4xx with a sentence and
nothing changed."""

from companion import services
from companion.models import Player, Seat
from tests.conftest import api_client
from tests.links import client_of, linked, table


def account_of(session, seat):
    return Player.objects.get(seats__session=session, seats__index=seat).account


def test_the_phone_that_played_a_seat_keeps_it_in_its_account(alice, dora):
    session, phone = table(alice)
    assert session.is_finished
    response = client_of(dora, phone).post(f"/api/sessions/{session.pk}/claim/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["seat"] == 0
    assert body["player"]["name"] == "Dora" and body["player"]["account"] == "dora"
    assert account_of(session, 0) == dora
    assert account_of(session, 1) is None


def test_a_table_still_in_play_may_be_claimed(alice, dora):
    session, phone = table(alice, points=((0, 5),))
    assert not session.is_finished
    assert client_of(dora, phone).post(f"/api/sessions/{session.pk}/claim/").status_code == 200
    assert account_of(session, 0) == dora


def test_claiming_again_changes_nothing(alice, dora):
    session, phone = table(alice)
    client = client_of(dora, phone)
    client.post(f"/api/sessions/{session.pk}/claim/")
    again = client.post(f"/api/sessions/{session.pk}/claim/")
    assert again.status_code == 200 and again.json()["player"]["account"] == "dora"


def test_a_seat_kept_by_another_account_is_409(alice, dora, charlie):
    session, phone = table(alice)
    client_of(dora, phone).post(f"/api/sessions/{session.pk}/claim/")
    response = client_of(charlie, phone).post(f"/api/sessions/{session.pk}/claim/")
    assert response.status_code == 409
    assert response.json()["detail"] == \
        "Dora's seat is already kept in another account's history."
    assert account_of(session, 0) == dora


def test_a_phone_without_a_seat_is_403(alice, dora):
    session, _phone = table(alice, points=())
    seatless = services.guest_join(code=session.code)
    for seat, value in ((0, 10), (0, 10)):
        services.move_play(session=session, type="add", data={"seat": seat, "points": value},
                           actor=services.Actor(user=alice))
    response = client_of(dora, seatless).post(f"/api/sessions/{session.pk}/claim/")
    assert response.status_code == 403
    assert "holds no seat at this table" in response.json()["detail"]
    assert not Player.objects.filter(account=dora).exists()


def test_a_finished_tables_seat_by_another_tables_phone_is_403(alice, dora):
    session, _phone = table(alice)
    _other, elsewhere = table(alice, players=("Vanessa", "Peter"), points=())
    response = client_of(dora, elsewhere).post(f"/api/sessions/{session.pk}/claim/")
    assert response.status_code == 403
    assert response.json()["detail"] == "This guest token belongs to another game."
    assert not Player.objects.filter(account=dora).exists()


def test_a_seat_of_nobodys_is_400(alice, dora):
    session, phone = table(alice)
    Seat.objects.filter(session=session, index=0).update(player=None)  # an import's anonymous
    response = client_of(dora, phone).post(f"/api/sessions/{session.pk}/claim/")
    assert response.status_code == 400
    assert "nobody's in the host's list of players" in response.json()["detail"]
    assert not Player.objects.filter(account=dora).exists()


def test_a_claim_needs_the_account_and_the_phone(alice, dora):
    session, phone = table(alice)
    assert api_client(guest=phone).post(f"/api/sessions/{session.pk}/claim/").status_code == 401
    # An account without the phone is nobody at that table.
    assert api_client(user=dora).post(f"/api/sessions/{session.pk}/claim/").status_code == 404
    assert not Player.objects.filter(account=dora).exists()


def test_the_host_keeps_their_own_seat(alice, charlie):
    session, _phone = table(alice, phone_seat=1, host_seat=0)
    response = api_client(user=alice).post(f"/api/sessions/{session.pk}/claim/")
    assert response.status_code == 200 and response.json()["player"]["account"] == "alice"
    # A host who only keeps the table has no seat to keep.
    other, _phone = table(charlie, phone_seat=1)
    refused = api_client(user=charlie).post(f"/api/sessions/{other.pk}/claim/")
    assert refused.status_code == 403


def test_the_host_unlinks_a_roster_player(alice, dora, as_alice):
    session, _phone = table(alice)
    player = linked(session, 0, dora)
    assert as_alice.get("/api/players/").json()["results"][0]["account"] == "dora"
    assert as_alice.delete(f"/api/players/{player.pk}/link/").status_code == 204
    player.refresh_from_db()
    assert player.account is None


def test_the_linked_account_unlinks_itself(alice, dora, as_dora):
    session, _phone = table(alice)
    player = linked(session, 0, dora)
    assert as_dora.delete(f"/api/players/{player.pk}/link/").status_code == 204
    player.refresh_from_db()
    assert player.account is None
    # Unlinked, the player is nothing of dora's any more.
    assert as_dora.delete(f"/api/players/{player.pk}/link/").status_code == 404


def test_anyone_else_cannot_unlink(alice, dora, as_charlie):
    session, _phone = table(alice)
    player = linked(session, 0, dora)
    response = as_charlie.delete(f"/api/players/{player.pk}/link/")
    assert response.status_code == 404
    assert as_charlie.delete("/api/players/999999/link/").status_code == 404
    player.refresh_from_db()
    assert player.account == dora
