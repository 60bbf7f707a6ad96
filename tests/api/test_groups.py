"""The groups API (api.md, "Groups"): making one, joining with its code, its members and owner,
a session opened for it, and who may see what. alice owns the group, bob is a member, charlie is
not; every refusal a 4xx with a sentence, nothing changed."""

import pytest
from django.core.cache import caches

from companion.models import Group, Membership, Player, Session
from tests.conftest import api_client
from tests.groups import group_played


def members(group):
    return sorted(Membership.objects.filter(group=group).values_list("user__username",
                                                                      flat=True))


def test_a_group_is_made_with_its_owner_a_member(as_alice, alice):
    answer = as_alice.post("/api/groups/", {"name": "Thursday night"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"id", "name", "code", "owner", "members"}
    assert (body["name"], body["owner"], body["members"]) == ("Thursday night", "alice",
                                                              ["alice"])
    assert Group.objects.get(pk=body["id"]).code == body["code"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_group_needs_a_name(as_alice, name):
    answer = as_alice.post("/api/groups/", {"name": name}, format="json")
    assert answer.status_code == 400 and answer.json()["detail"]
    assert not Group.objects.exists()


def test_a_member_joins_with_the_code_however_it_is_typed(thursday, charlie, as_charlie):
    typed = thursday.code.lower()[:3] + " " + thursday.code.lower()[3:]
    answer = as_charlie.post("/api/groups/join/", {"code": typed}, format="json")
    assert answer.status_code == 200
    assert answer.json()["members"] == ["alice", "bob", "charlie"]
    again = as_charlie.post("/api/groups/join/", {"code": thursday.code}, format="json")
    assert again.status_code == 200 and members(thursday) == ["alice", "bob", "charlie"]


def test_a_code_that_opens_nothing_is_a_404_counted_as_a_failed_join(thursday, as_charlie,
                                                                    settings):
    settings.LIMITS = {**settings.LIMITS, "join_failures": "2/h"}
    caches["limits"].clear()
    try:
        for _ in range(2):
            answer = as_charlie.post("/api/groups/join/", {"code": "NOPE42"}, format="json")
            assert answer.status_code == 404
            assert answer.json()["detail"] == ("No group has that code: check it with whoever "
                                               "invited you.")
        # Counted as the table's failed joins are: even the right code waits now.
        limited = as_charlie.post("/api/groups/join/", {"code": thursday.code}, format="json")
        assert limited.status_code == 429 and limited["Retry-After"]
        assert members(thursday) == ["alice", "bob"]
    finally:
        caches["limits"].clear()


def test_the_list_is_the_accounts_groups(thursday, as_alice, as_bob_account, as_charlie):
    assert [group["name"] for group in as_alice.get("/api/groups/").json()] == ["Thursday night"]
    assert [group["id"] for group in as_bob_account.get("/api/groups/").json()] == [thursday.pk]
    assert as_charlie.get("/api/groups/").json() == []


def group_urls(group, player=0):
    base = f"/api/groups/{group.pk}"
    return [f"{base}/", f"{base}/sessions/", f"{base}/players/", f"{base}/players/versus/",
            f"{base}/players/{player}/stats/", f"{base}/stats/", f"{base}/games/tiny/stats/",
            f"{base}/results.csv"]


def test_a_member_reads_every_answer_of_the_group_and_charlie_none(thursday, alice,
                                                                   as_bob_account, as_charlie,
                                                                   anonymous):
    session = group_played(alice, thursday)
    player = session.seats.first().player_id
    for url in group_urls(thursday, player):
        assert as_bob_account.get(url).status_code == 200, url
        refused = as_charlie.get(url)
        assert refused.status_code == 404 and refused.json()["detail"], url
        assert anonymous.get(url).status_code == 401, url
    for url, body in ((f"/api/groups/{thursday.pk}/owner/", {"username": "charlie"}),):
        assert as_charlie.post(url, body, format="json").status_code == 404
    assert as_charlie.delete(f"/api/groups/{thursday.pk}/members/bob/").status_code == 404
    assert members(thursday) == ["alice", "bob"] and thursday.owner == alice


def test_a_member_leaves_and_the_owner_removes_a_member(thursday, charlie, as_alice,
                                                        as_bob_account, as_charlie):
    as_charlie.post("/api/groups/join/", {"code": thursday.code}, format="json")
    refused = as_bob_account.delete(f"/api/groups/{thursday.pk}/members/charlie/")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only the group's owner may remove another member."
    assert as_bob_account.delete(f"/api/groups/{thursday.pk}/members/bob/").status_code == 204
    assert as_alice.delete(f"/api/groups/{thursday.pk}/members/charlie/").status_code == 204
    assert members(thursday) == ["alice"]
    assert as_charlie.get(f"/api/groups/{thursday.pk}/").status_code == 404


def test_removing_someone_not_a_member_is_a_404_with_a_sentence(thursday, charlie, as_alice):
    for name in ("charlie", "nobody"):
        answer = as_alice.delete(f"/api/groups/{thursday.pk}/members/{name}/")
        assert answer.status_code == 404
        assert answer.json()["detail"] == f"{name} is not a member of this group."
    assert members(thursday) == ["alice", "bob"]


def test_the_owner_leaves_only_after_passing_the_group_on(thursday, alice, bob_account,
                                                          as_alice, as_bob_account):
    refused = as_alice.delete(f"/api/groups/{thursday.pk}/members/alice/")
    assert refused.status_code == 409
    assert refused.json()["detail"] == ("The owner leaves only after passing the group to "
                                        "another member.")
    not_owner = as_bob_account.post(f"/api/groups/{thursday.pk}/owner/", {"username": "bob"},
                                    format="json")
    assert not_owner.status_code == 403 and not_owner.json()["detail"]
    outsider = as_alice.post(f"/api/groups/{thursday.pk}/owner/", {"username": "charlie"},
                             format="json")
    assert outsider.status_code == 404 and outsider.json()["detail"]
    thursday.refresh_from_db()
    assert thursday.owner == alice
    passed = as_alice.post(f"/api/groups/{thursday.pk}/owner/", {"username": "bob"},
                           format="json")
    assert passed.status_code == 200 and passed.json()["owner"] == "bob"
    assert as_alice.delete(f"/api/groups/{thursday.pk}/members/alice/").status_code == 204
    assert members(thursday) == ["bob"]


def test_bob_hosts_a_group_session_on_the_groups_roster(thursday, alice, as_alice,
                                                        as_bob_account):
    Player.objects.create(owner=alice, name="Ana")  # alice's own Ana is another person
    answer = as_bob_account.post("/api/sessions/", {"game": "tiny", "players": ["Ana", "Ben"],
                                                    "group": thursday.pk}, format="json")
    assert answer.status_code == 201 and answer.json()["group"] == thursday.pk
    seats = answer.json()["seats"]
    ana = Player.objects.get(pk=seats[0]["player"])
    assert (ana.group, ana.name) == (thursday, "Ana")
    # alice hosting for the group seats the same Ana, by name or by id.
    again = as_alice.post("/api/sessions/", {"game": "tiny", "players": [
        "ana", {"name": "Ben", "player": seats[1]["player"]}], "group": thursday.pk},
        format="json")
    assert [seat["player"] for seat in again.json()["seats"]] == [ana.pk, seats[1]["player"]]
    own = as_alice.post("/api/sessions/", {"game": "tiny", "players": ["Ana", "Cy"]},
                        format="json")
    assert own.json()["group"] is None
    assert own.json()["seats"][0]["player"] != ana.pk


def test_a_group_roster_player_is_not_seated_by_id_outside_the_group(thursday, alice,
                                                                     as_alice):
    ana = group_played(alice, thursday).seats.first().player
    answer = as_alice.post("/api/sessions/", {"game": "tiny", "players": [
        {"name": "Ana", "player": ana.pk}, "Ben"]}, format="json")
    assert answer.status_code == 400 and answer.json()["detail"]


@pytest.mark.parametrize("group", ["mine", "missing"])
def test_a_session_for_a_group_one_is_not_in_is_refused(thursday, as_charlie, group):
    group_id = thursday.pk if group == "mine" else thursday.pk + 1000
    before = (Session.objects.count(), Player.objects.count())
    answer = as_charlie.post("/api/sessions/", {"game": "tiny", "players": ["Ana", "Ben"],
                                                "group": group_id}, format="json")
    assert answer.status_code == 403
    assert answer.json()["detail"] == ("You are not a member of that group: only its members "
                                       "open its games.")
    assert (Session.objects.count(), Player.objects.count()) == before


def test_alice_sees_bobs_group_session_and_not_his_own(thursday, alice, bob_account,
                                                      as_alice):
    ours = group_played(bob_account, thursday)
    his = group_played(bob_account, None)
    listed = as_alice.get(f"/api/groups/{thursday.pk}/sessions/").json()
    assert [row["id"] for row in listed["results"]] == [ours.pk] and listed["count"] == 1
    assert as_alice.get(f"/api/sessions/{his.pk}/").status_code == 404
    csv = b"".join(as_alice.get(f"/api/groups/{thursday.pk}/results.csv").streaming_content)
    assert csv.decode().count(f"\r\n{ours.pk},") == 2 and f"\r\n{his.pk}," not in csv.decode()
    # bob's own history keeps his group session too; alice's own has none of his.
    assert {row["id"] for row in api_client(user=bob_account).get("/api/sessions/")
            .json()["results"]} == {ours.pk, his.pk}
    assert as_alice.get("/api/sessions/").json()["count"] == 0


def test_a_rematch_keeps_the_group(thursday, bob_account):
    from companion import services

    session = group_played(bob_account, thursday)
    new = services.session_rematch(session=session, actor=services.Actor(user=bob_account))
    assert new.group == thursday
    assert [seat.player_id for seat in new.seats.order_by("index")] == \
        [seat.player_id for seat in session.seats.order_by("index")]


def test_the_groups_players_are_its_roster(thursday, alice, as_bob_account):
    group_played(alice, thursday, players=("Ana", "Ben"))
    group_played(alice, None, players=("Cy", "Dee"))
    page = as_bob_account.get(f"/api/groups/{thursday.pk}/players/").json()
    assert [row["name"] for row in page["results"]] == ["Ana", "Ben"]
    cy = Player.objects.get(name="Cy")
    assert as_bob_account.get(f"/api/groups/{thursday.pk}/players/{cy.pk}/stats/") \
        .status_code == 404


def test_a_named_game_for_the_group_is_spelt_as_the_group_first_wrote_it(thursday, as_alice,
                                                                        as_bob_account):
    """A pad game's title is the group's first spelling, whoever hosts (not the host's own)."""
    first = as_alice.post("/api/sessions/", {"game": "pad", "players": ["Ana", "Ben"],
                                             "options": {"game": "Carcassonne"},
                                             "group": thursday.pk}, format="json")
    assert first.status_code == 201, first.content
    again = as_bob_account.post("/api/sessions/", {"game": "pad", "players": ["Ana", "Ben"],
                                                   "options": {"game": "carcassonne"},
                                                   "group": thursday.pk}, format="json")
    assert again.status_code == 201, again.content
    assert again.json()["title"] == "Carcassonne"


def test_the_groups_roster_page_reads_its_accounts_at_once(thursday, alice, bob_account,
                                                          as_bob_account,
                                                          django_assert_max_num_queries):
    group_played(alice, thursday, players=("Ana", "Ben", "Cy", "Dee"))
    Player.objects.filter(group=thursday).update(account=bob_account)
    with django_assert_max_num_queries(5) as counted:
        page = as_bob_account.get(f"/api/groups/{thursday.pk}/players/").json()
    assert [row["account"] for row in page["results"]] == ["bob"] * 4
    many = len(counted.captured_queries)
    group_played(alice, thursday, players=("Eve", "Fay", "Gil", "Hal"))
    Player.objects.filter(group=thursday).update(account=bob_account)
    with django_assert_max_num_queries(many):
        as_bob_account.get(f"/api/groups/{thursday.pk}/players/")
