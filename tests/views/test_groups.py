"""A group's pages: the groups list (make one, join with a code), the invite link, a group's
page (members, remove, pass on, leave), its history and statistics, and the new-game form's
"For the group". alice owns the group, bob is a member, charlie is not."""

import pytest
from django.core.cache import caches

from companion.models import Group, Membership, Session
from tests.groups import group_played
from tests.views.helpers import browser_for


def members(group):
    return sorted(Membership.objects.filter(group=group).values_list("user__username",
                                                                      flat=True))


def test_a_group_is_made_and_listed_from_the_groups_page(alice):
    page = browser_for(alice).get("/groups/")
    assert page.status_code == 200 and b'action="/groups/join/"' in page.content
    made = browser_for(alice).post("/groups/", {"name": "Thursday night"})
    group = Group.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/groups/{group.pk}/"
    assert "Thursday night" in browser_for(alice).get("/groups/").content.decode()
    assert b'href="/groups/"' in browser_for(alice).get("/history/").content
    assert b'href="/groups/"' in browser_for(alice).get("/players/").content


def test_a_nameless_group_is_refused_on_the_page(alice):
    page = browser_for(alice).post("/groups/", {"name": "  "})
    assert page.status_code == 400 and "Name the group." in page.content.decode()
    assert not Group.objects.exists()


def test_the_invite_link_asks_to_sign_in_then_joins_with_a_button(thursday, charlie):
    link = f"/groups/join/{thursday.code.lower()}/"
    anonymous = browser_for().get(link)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/?next=")
    asked = browser_for(charlie).get(link)
    assert asked.status_code == 200 and "Join Thursday night" in asked.content.decode()
    assert members(thursday) == ["alice", "bob"]  # opening the link joins nobody
    joined = browser_for(charlie).post("/groups/join/", {"code": thursday.code})
    assert joined["Location"] == f"/groups/{thursday.pk}/"
    assert members(thursday) == ["alice", "bob", "charlie"]


def test_a_code_that_opens_nothing_is_refused_and_counted(thursday, charlie, settings):
    settings.LIMITS = {**settings.LIMITS, "join_failures": "2/h"}
    caches["limits"].clear()
    try:
        refused = browser_for(charlie).post("/groups/join/", {"code": "NOPE42"})
        assert refused.status_code == 404
        assert "No group has that code" in refused.content.decode()
        assert browser_for(charlie).get("/groups/join/NOPE43/").status_code == 404
        limited = browser_for(charlie).post("/groups/join/", {"code": thursday.code})
        assert limited.status_code == 429 and limited["Retry-After"]
        assert members(thursday) == ["alice", "bob"]
    finally:
        caches["limits"].clear()


def test_charlie_gets_404_on_every_page_of_the_group(thursday, alice, charlie):
    session = group_played(alice, thursday)
    player = session.seats.first().player_id
    base = f"/groups/{thursday.pk}"
    pages = [f"{base}/", f"{base}/history/", f"{base}/history/results.csv",
             f"{base}/history/sessions/{session.pk}/", f"{base}/history/players/{player}/",
             f"{base}/history/games/tiny/", f"{base}/bgstats/export.json"]
    for url in pages:
        assert browser_for(alice).get(url).status_code == 200, url
        assert browser_for(charlie).get(url).status_code == 404, url
    for url, body in ((f"{base}/members/bob/remove/", {}),
                      (f"{base}/owner/", {"username": "charlie"})):
        assert browser_for(charlie).post(url, body).status_code == 404
    assert members(thursday) == ["alice", "bob"] and thursday.owner == alice


def test_alice_sees_bobs_group_session_and_not_his_own(thursday, alice, bob_account):
    ours = group_played(bob_account, thursday, players=("Ana", "Ben"))
    his = group_played(bob_account, None, players=("Zed", "Yan"))
    history = browser_for(alice).get(f"/groups/{thursday.pk}/history/").content.decode()
    assert f"/groups/{thursday.pk}/history/sessions/{ours.pk}/" in history
    assert f"sessions/{his.pk}/" not in history and "Zed" not in history
    assert browser_for(alice).get(f"/groups/{thursday.pk}/history/sessions/{his.pk}/") \
        .status_code == 404
    assert browser_for(alice).get(f"/history/sessions/{ours.pk}/").status_code == 404
    # bob's own history shows both; its group session's seats lead to the group's players.
    own = browser_for(bob_account).get("/history/").content.decode()
    assert f"/history/sessions/{ours.pk}/" in own and f"/history/sessions/{his.pk}/" in own
    ana = ours.seats.get(index=0).player_id
    assert browser_for(bob_account).get(f"/history/players/{ana}/").status_code == 200
    csv = b"".join(browser_for(alice).get(f"/groups/{thursday.pk}/history/results.csv")
                   .streaming_content).decode()
    assert "Ana" in csv and "Zed" not in csv
    game = browser_for(alice).get(f"/groups/{thursday.pk}/history/games/tiny/").content.decode()
    assert f"/groups/{thursday.pk}/history/players/{ana}/" in game
    export = browser_for(alice).get(f"/groups/{thursday.pk}/bgstats/export.json").json()
    assert len(export["plays"]) == 1 and {p["name"] for p in export["players"]} == {"Ana", "Ben"}


def test_the_owner_removes_and_passes_on_and_a_member_leaves(thursday, alice, bob_account,
                                                             charlie):
    Membership.objects.create(group=thursday, user=charlie)
    page = browser_for(alice).get(f"/groups/{thursday.pk}/").content.decode()
    assert "Remove bob" in page and "Make bob the owner" in page and thursday.code in page
    assert "Remove bob" not in browser_for(bob_account).get(f"/groups/{thursday.pk}/") \
        .content.decode()
    refused = browser_for(bob_account).post(f"/groups/{thursday.pk}/members/charlie/remove/")
    assert refused.status_code == 403
    assert "Only the group&#x27;s owner may remove another member." in refused.content.decode()
    assert browser_for(alice).post(f"/groups/{thursday.pk}/members/charlie/remove/") \
        .status_code == 302
    not_member = browser_for(alice).post(f"/groups/{thursday.pk}/members/charlie/remove/")
    assert not_member.status_code == 404
    assert "charlie is not a member of this group." in not_member.content.decode()
    stays = browser_for(alice).post(f"/groups/{thursday.pk}/members/alice/remove/")
    assert stays.status_code == 409 and members(thursday) == ["alice", "bob"]
    browser_for(alice).post(f"/groups/{thursday.pk}/owner/", {"username": "bob"})
    thursday.refresh_from_db()
    assert thursday.owner == bob_account
    left = browser_for(alice).post(f"/groups/{thursday.pk}/members/alice/remove/")
    assert left["Location"] == "/groups/" and members(thursday) == ["bob"]


def test_the_new_game_form_offers_the_group_and_its_roster(thursday, alice, bob_account,
                                                          charlie):
    group_played(bob_account, thursday, players=("Ana", "Ben"))
    group_played(alice, None, players=("Own", "Mine"))
    plain = browser_for(alice).get("/new/?game=tiny").content.decode()
    assert 'name="group"' in plain and "Thursday night" in plain
    assert '<option value="Own">' in plain and '<option value="Ana">' not in plain
    chosen = browser_for(alice).get(f"/new/?game=tiny&group={thursday.pk}").content.decode()
    assert '<option value="Ana">' in chosen and '<option value="Own">' not in chosen
    regroup = browser_for(alice).post("/new/", {"game": "tiny", "name": ["Ana", ""],
                                                "group": thursday.pk, "regroup": "1"})
    assert regroup.status_code == 200 and not Session.objects.filter(owner=alice, group=thursday)
    assert '<option value="Ana">' in regroup.content.decode()
    opened = browser_for(alice).post("/new/", {"game": "tiny", "name": ["Ana", "Cy"],
                                               "host_seat": "", "group": thursday.pk})
    session = Session.objects.get(owner=alice, group=thursday)
    assert opened["Location"] == f"/s/{session.pk}/"
    assert session.seats.get(index=0).player.group == thursday
    assert 'name="group"' not in browser_for(charlie).get("/new/?game=tiny").content.decode()


@pytest.mark.parametrize("group", ["theirs", "nonsense"])
def test_a_game_for_a_group_one_is_not_in_is_refused_on_the_form(thursday, charlie, group):
    value = thursday.pk if group == "theirs" else "x1"
    page = browser_for(charlie).post("/new/", {"game": "tiny", "name": ["Ana", "Cy"],
                                               "host_seat": "", "group": value})
    assert page.status_code == 400  # the form's refusal, as every one of the new-game form
    assert "You are not a member of that group" in page.content.decode()
    assert not Session.objects.exists()
