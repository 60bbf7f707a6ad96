"""An account's own page (/me/): the statistics of a player's page over every play kept in its
history, at every host's table, and its plays; its links undone there; the host's roster page
showing and undoing links; the player page's "Merge into…"."""

from companion.models import Player
from tests.links import linked, table
from tests.views.helpers import assert_phone_ready, browser_for


def doras(alice, bob_account, dora):
    table(alice)                                                     # won
    kept = linked(table(alice)[0], 0, dora)                          # won
    bobs = linked(table(bob_account, ("D.", "Ann"), points=((1, 10), (1, 10)))[0], 0, dora)  # lost
    return kept, bobs


def test_my_page_counts_every_hosts_plays(alice, bob_account, dora):
    doras(alice, bob_account, dora)
    response = browser_for(dora).get("/me/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    assert "67%" in html  # 2 wins in 3
    assert "at alice's table" in html and "at bob's table" in html
    assert "Nemesis: Ann" in html
    # The hosts' own pages are theirs: nothing here leads to them.
    assert "/history/" not in html.split("<main>")[1]
    assert 'href="/me/"' in html  # the header's


def test_my_page_needs_an_account(client):
    assert client.get("/me/").status_code == 302


def test_i_unlink_a_play_from_my_page(alice, bob_account, dora):
    _kept, bobs = doras(alice, bob_account, dora)
    response = browser_for(dora).post(f"/players/{bobs.pk}/unlink/")
    assert response.status_code == 302 and response["Location"] == "/me/"
    bobs.refresh_from_db()
    assert bobs.account is None
    assert "at bob's table" not in browser_for(dora).get("/me/").content.decode()


def test_the_host_sees_and_undoes_a_link_on_the_roster_page(alice, bob_account, dora, charlie):
    kept, _bobs = doras(alice, bob_account, dora)
    html = browser_for(alice).get("/players/").content.decode()
    assert "linked to dora" in html and f"/players/{kept.pk}/unlink/" in html
    assert browser_for(charlie).post(f"/players/{kept.pk}/unlink/").status_code == 404
    response = browser_for(alice).post(f"/players/{kept.pk}/unlink/", {"next": "players"})
    assert response.status_code == 302 and response["Location"] == "/players/"
    kept.refresh_from_db()
    assert kept.account is None


def test_merge_into_from_the_player_page(alice, bob_account, charlie):
    table(alice, ("Ana", "Ben"))
    table(alice, ("Ana B.", "Cid"))
    ana, ana_b = (Player.objects.get(owner=alice, name=name) for name in ("Ana", "Ana B."))
    host = browser_for(alice)
    assert 'id="merge"' in host.get(f"/history/players/{ana_b.pk}/").content.decode()
    assert browser_for(charlie).post(f"/players/{ana_b.pk}/merge/",
                                     {"into": ana.pk}).status_code == 404
    table(bob_account, ("Ana", "Ben"))
    across = host.post(f"/players/{ana_b.pk}/merge/",
                       {"into": Player.objects.get(owner=bob_account, name="Ana").pk})
    assert across.status_code == 400
    assert "merged only within one roster" in across.content.decode()
    response = host.post(f"/players/{ana_b.pk}/merge/", {"into": ana.pk, "keep_name": "this"})
    assert response.status_code == 302 and response["Location"] == f"/history/players/{ana.pk}/"
    ana.refresh_from_db()
    assert ana.name == "Ana B." and not Player.objects.filter(pk=ana_b.pk).exists()
    assert ana.results.count() == 2


def test_my_page_keeps_its_queries(alice, bob_account, dora, django_assert_max_num_queries):
    doras(alice, bob_account, dora)
    client = browser_for(dora)
    with django_assert_max_num_queries(14) as few:
        client.get("/me/")
    for _play in range(4):
        table(alice)
        table(bob_account, ("D.", "Ann"))
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get("/me/").status_code == 200
