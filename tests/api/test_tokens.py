"""API tokens end (api.md, "Accounts and tokens"): each sign-in is a device with a token of its
own; signing out ends the token it was sent with, the list of devices ends any of them, and a
token unused for the idle time the server sets stops working (401 with a sentence)."""

from datetime import timedelta

from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from companion import services
from tests.factories import session_for
from tests.views.helpers import off_the_loop

ENDED = ("This token does not work: it was signed out, ended from the list of devices, or went "
         "unused too long. Sign in again for a new one.")


def signed_in(username="alice"):
    client = APIClient()
    answer = client.post("/api/auth/token/", {"username": username,
                                              "password": "a long table password"},
                         format="json")
    assert answer.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def works(client):
    return client.get("/api/players/").status_code == 200


def ended(client):
    answer = client.get("/api/players/")
    assert answer.status_code == 401
    assert answer.json()["detail"] == ENDED
    return True


def test_each_sign_in_is_a_device_with_a_token_of_its_own(alice):
    phone, laptop = signed_in(), signed_in()
    devices = phone.get("/api/auth/devices/").json()
    assert len(devices) == 2
    assert all(device["last_used"] >= device["created"] for device in devices)
    assert sorted(device["current"] for device in devices) == [False, True]
    assert [d["current"] for d in laptop.get("/api/auth/devices/").json()] \
        != [d["current"] for d in devices]
    assert works(phone) and works(laptop)


def test_signing_out_ends_the_token_it_was_sent_with_only(alice):
    phone, laptop = signed_in(), signed_in()
    assert phone.post("/api/auth/logout/").status_code == 204
    assert ended(phone)
    assert works(laptop)
    assert len(laptop.get("/api/auth/devices/").json()) == 1


def test_a_device_ended_from_the_list_no_longer_works(alice):
    phone, laptop = signed_in(), signed_in()
    other = next(d for d in laptop.get("/api/auth/devices/").json() if not d["current"])
    assert laptop.delete(f"/api/auth/devices/{other['id']}/").status_code == 204
    assert ended(phone)
    assert works(laptop)


def test_nobody_ends_another_accounts_device(alice, charlie):
    phone = signed_in("alice")
    device = phone.get("/api/auth/devices/").json()[0]["id"]
    answer = signed_in("charlie").delete(f"/api/auth/devices/{device}/")
    assert answer.status_code == 404 and "no signed-in device" in answer.json()["detail"]
    assert works(phone)


def test_a_token_unused_for_the_idle_time_ends(alice, settings):
    phone = signed_in()
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    assert ended(phone)
    assert not AuthToken.objects.exists()


def test_using_a_token_moves_its_end_on(alice, settings):
    phone = signed_in()
    soon = timezone.now() + timedelta(hours=1)
    AuthToken.objects.update(expiry=soon)
    assert works(phone)
    idle = settings.REST_KNOX["TOKEN_TTL"]
    assert AuthToken.objects.get().expiry > timezone.now() + idle - timedelta(minutes=1)


def test_an_ended_token_opens_no_event_stream(alice):
    game = session_for(alice)
    phone = signed_in()
    assert phone.post("/api/auth/logout/").status_code == 204
    assert off_the_loop(lambda: phone.get(f"/api/sessions/{game.pk}/events/")).status_code == 404


def test_signing_out_needs_a_token(alice):
    client = APIClient()
    assert client.post("/api/auth/logout/").status_code == 401
    client.force_login(alice)  # the pages' cookie: there is no token to end
    assert client.post("/api/auth/logout/").status_code == 401
    assert services.token_for(user=alice) != services.token_for(user=alice)
