"""Everyone's history on three phones (issue 51): dora plays at alice's table as a guest and keeps
it in her history with a new account at game over; then plays at bob's table in alice's group,
bob hosting; her own page shows both plays, the group's statistics count both, and charlie,
signed in, is refused each of those pages and API answers."""

import pytest
from playwright.sync_api import expect

from companion import services
from companion.models import Player
from tests.e2e.conftest import guest_phone_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAD = {"game": "Hearts", "rounds": 1}


def signed_in(page, username):
    page.goto("/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill("a long table password")
    page.locator("form:has(input[name=password]) button").click()
    page.wait_for_url("**/")
    return page


def dora_scores_and_the_host_ends(page, session, host, points):
    """dora saves her one round on her phone; the host's score, by the service, ends the game."""
    own = page.locator("[data-own]")
    own.locator("#pad-own-points").fill(str(points))
    own.get_by_role("button", name="Save").click()
    expect(page.locator("#log")).to_contain_text(str(points))
    services.move_play(session=session, type="score", data={"seat": 0, "points": 4},
                       actor=services.Actor(user=host))
    expect(page.locator("#keep")).to_be_visible()


def test_dora_keeps_two_tables_in_her_history_and_the_group_counts_both(
        phone, alice, bob_account, thursday, charlie):
    ana_table = services.session_create(owner=alice, game="pad", players=["Alice", "Dora"],
                                        options=PAD, host_seat=0, group=thursday)
    dora = guest_phone_for(phone, ana_table, "Dora")
    dora_scores_and_the_host_ends(dora, ana_table, alice, 9)
    keep = dora.locator("#keep")
    keep.locator("#keep-username").fill("dora")
    keep.locator("#keep-password").fill("a long table password")
    keep.get_by_role("button", name="Make an account and keep it").click()
    expect(dora.locator("#keep")).to_contain_text("in your history")
    linked = Player.objects.get(group=thursday, name="Dora")
    assert linked.account.username == "dora"

    # bob hosts the group's next game: its roster's Dora is the Dora dora kept.
    bob_table = services.session_create(owner=bob_account, game="pad", players=["Bob", "Dora"],
                                        options=PAD, host_seat=0, group=thursday)
    assert bob_table.seats.get(index=1).player_id == linked.pk
    dora = guest_phone_for(lambda locale=None: dora.context.new_page(), bob_table, "Dora")
    dora_scores_and_the_host_ends(dora, bob_table, bob_account, 11)
    expect(dora.locator("#keep")).to_contain_text("in your history")

    dora.goto("/me/")
    expect(dora.locator("main")).to_contain_text("Hearts")
    expect(dora.locator(".figures div").first).to_contain_text("2")  # Plays
    me = dora.request.get("/api/me/plays/").json()  # her signed-in session answers the API
    assert {play["id"] for play in me["results"]} == {ana_table.pk, bob_table.pk}

    host = signed_in(phone(), "alice")
    group_player = f"/groups/{thursday.pk}/history/players/{linked.pk}/"
    host.goto(group_player)
    expect(host.locator(".figures div").first).to_contain_text("2")
    group_stats = host.request.get(f"/api/groups/{thursday.pk}/stats/").json()
    assert group_stats["plays"] == 2, group_stats

    outsider = signed_in(phone(), "charlie")
    for path in (f"/groups/{thursday.pk}/", f"/groups/{thursday.pk}/history/", group_player,
                 f"/history/sessions/{ana_table.pk}/", f"/history/sessions/{bob_table.pk}/",
                 f"/history/players/{linked.pk}/"):
        assert outsider.goto(path).status == 404, path
    for path in (f"/api/groups/{thursday.pk}/", f"/api/groups/{thursday.pk}/stats/",
                 f"/api/groups/{thursday.pk}/sessions/",
                 f"/api/groups/{thursday.pk}/players/{linked.pk}/stats/",
                 f"/api/sessions/{ana_table.pk}/", f"/api/sessions/{bob_table.pk}/",
                 f"/api/players/{linked.pk}/stats/"):
        answer = outsider.request.get(path)
        assert answer.status in (403, 404) and answer.json()["detail"], path
    outsider.goto("/me/")
    expect(outsider.locator("main")).not_to_contain_text("Hearts")
