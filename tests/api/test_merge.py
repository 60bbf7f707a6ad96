"""POST /api/players/{id}/merge/: two roster players of one host made one ("Ana" and "Ana B."),
the history following; every statistic after it a plain recount; refusals change nothing."""

import pytest

from companion.models import Player, Result, ResultTally, Seat
from tests.api.test_stats import recount
from tests.links import table


@pytest.fixture
def two_anas(alice):
    """Ana and Ana B., one person under two names at alice's table, each with plays."""
    table(alice, ("Ana", "Ben"))                                   # Ana wins
    table(alice, ("Ben", "Ana B."), points=((0, 10), (0, 10)))     # Ana B. loses
    table(alice, ("Ana B.", "Cid"), points=((0, 10), (0, 10)))     # Ana B. wins
    table(alice, ("Cid", "Ana"), points=((0, 10), (0, 10)))        # Ana loses
    return Player.objects.get(owner=alice, name="Ana"), Player.objects.get(owner=alice,
                                                                           name="Ana B.")


def snapshot():
    return (sorted(Player.objects.values_list("pk", "name", "account_id")),
            sorted(Seat.objects.values_list("pk", "player_id")),
            sorted(Result.objects.values_list("pk", "player_id")),
            sorted(ResultTally.objects.values_list("owner_id", "game", "name", "total", "count")))


def test_a_merged_players_statistics_are_a_recount(as_alice, two_anas):
    ana, ana_b = two_anas
    results = set(Result.objects.filter(player__in=two_anas).values_list("pk", flat=True))
    tallies = snapshot()[3]
    response = as_alice.post(f"/api/players/{ana_b.pk}/merge/", {"into": ana.pk}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json() == {"id": ana.pk, "name": "Ana", "account": None,
                               "created_at": response.json()["created_at"]}
    assert not Player.objects.filter(pk=ana_b.pk).exists()
    assert set(Result.objects.filter(player=ana).values_list("pk", flat=True)) == results
    body = as_alice.get(f"/api/players/{ana.pk}/stats/").json()
    expected = recount(ana)
    assert (body["plays"], body["wins"]) == (expected["plays"], expected["wins"]) == (4, 2)
    assert body["games"] == expected["games"]
    assert body["streaks"] == {"current": expected["current"], "longest": expected["longest"]}
    assert body["h_index"] == expected["h_index"]
    got = {row["player"]: {k: row[k] for k in ("plays", "wins", "opponent_wins", "ahead",
                                               "behind")} for row in body["head_to_head"]}
    assert got == expected["h2h"]
    assert as_alice.get(f"/api/players/{ana_b.pk}/stats/").status_code == 404
    assert snapshot()[3] == tallies


def test_the_name_kept_is_the_one_given(as_alice, two_anas):
    ana, ana_b = two_anas
    response = as_alice.post(f"/api/players/{ana.pk}/merge/",
                             {"into": ana_b.pk, "name": "Ana"}, format="json")
    assert response.status_code == 200
    assert response.json()["name"] == "Ana" and response.json()["id"] == ana_b.pk
    assert list(Player.objects.filter(owner=ana_b.owner, name__startswith="Ana")) == [ana_b]


def test_a_merge_keeps_the_link(as_alice, alice, dora, two_anas):
    ana, ana_b = two_anas
    Player.objects.filter(pk=ana_b.pk).update(account=dora)
    response = as_alice.post(f"/api/players/{ana_b.pk}/merge/", {"into": ana.pk}, format="json")
    assert response.json()["account"] == "dora"


def test_players_linked_to_two_accounts_are_409(as_alice, dora, charlie, two_anas):
    ana, ana_b = two_anas
    Player.objects.filter(pk=ana.pk).update(account=dora)
    Player.objects.filter(pk=ana_b.pk).update(account=charlie)
    before = snapshot()
    response = as_alice.post(f"/api/players/{ana_b.pk}/merge/", {"into": ana.pk}, format="json")
    assert response.status_code == 409
    assert "two different accounts" in response.json()["detail"]
    assert snapshot() == before


def test_players_who_sat_at_one_table_are_409(as_alice, alice, two_anas):
    ana, ana_b = two_anas
    table(alice, ("Ana", "Ana B."))
    before = snapshot()
    response = as_alice.post(f"/api/players/{ana_b.pk}/merge/", {"into": ana.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["detail"] == \
        "Ana B. and Ana sat at the same table: they are two people, not one."
    assert snapshot() == before


def test_a_merge_across_hosts_is_400(as_alice, bob_account, two_anas):
    ana, _ana_b = two_anas
    table(bob_account, ("Ana", "Ben"))
    bobs_ana = Player.objects.get(owner=bob_account, name="Ana")
    before = snapshot()
    for into in (bobs_ana.pk, 999999):
        response = as_alice.post(f"/api/players/{ana.pk}/merge/", {"into": into},
                                 format="json")
        assert response.status_code == 400
        assert "merged only within one roster" in response.json()["detail"]
        assert "across rosters" in response.json()["detail"]
    assert snapshot() == before


def test_a_merge_into_themself_or_a_taken_name_is_400(as_alice, two_anas):
    ana, ana_b = two_anas
    before = snapshot()
    response = as_alice.post(f"/api/players/{ana.pk}/merge/", {"into": ana.pk}, format="json")
    assert response.status_code == 400 and response.json()["fields"]["into"]
    response = as_alice.post(f"/api/players/{ana.pk}/merge/", {"into": ana_b.pk, "name": "ben"},
                             format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "You already have a player called ben."
    assert snapshot() == before


def test_only_the_rosters_host_merges(as_charlie, as_dora, dora, two_anas):
    ana, ana_b = two_anas
    Player.objects.filter(pk=ana_b.pk).update(account=dora)
    before = snapshot()
    for client in (as_charlie, as_dora):
        response = client.post(f"/api/players/{ana_b.pk}/merge/", {"into": ana.pk},
                               format="json")
        assert response.status_code == 404
    assert snapshot() == before


def test_the_groups_owner_merges_its_players_on_the_api_as_on_the_page(thursday, alice,
                                                                        bob_account, as_alice,
                                                                        as_bob_account):
    """A group's roster is kept by the group's owner, whoever of its members added the players:
    the API lets alice merge two players bob added, as her player page does; bob, a member who
    does not keep the roster, is told nothing of them."""
    from tests.groups import group_played

    group_played(bob_account, thursday, players=("Ana", "Ana B."))
    ana, ana_b = (Player.objects.get(group=thursday, name=name) for name in ("Ana", "Ana B."))
    Seat.objects.filter(player=ana_b).delete()  # never at one table with Ana
    answer = as_bob_account.post(f"/api/players/{ana_b.pk}/merge/", {"into": ana.pk},
                                 format="json")
    assert answer.status_code == 404
    answer = as_alice.post(f"/api/players/{ana_b.pk}/merge/", {"into": ana.pk}, format="json")
    assert answer.status_code == 200, answer.json()
    assert not Player.objects.filter(pk=ana_b.pk).exists()
