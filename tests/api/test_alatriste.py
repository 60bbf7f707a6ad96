"""El Capitán Alatriste through the API: every move, its refusals, the catalogue, replay, undo."""

import pytest

from companion import services
from companion.models import Session
from games.alatriste.models import Card
from tests.api.moves import play, refused
from tests.conftest import api_client
from tests.factories import session_for

pytestmark = pytest.mark.django_db

NAMES = ("Íñigo", "Quevedo", "Malatesta")


@pytest.fixture
def table(alice):
    return session_for(alice, game="alatriste", players=NAMES, seed="alatriste")


def post(client, session, **move):
    return client.post(f"/api/sessions/{session.pk}/moves/", move, format="json")






def sheet(session, seat):
    return Session.objects.get(pk=session.pk).state["seats"][seat]


@pytest.fixture
def ready(as_alice, table):
    for seat in range(3):
        play(as_alice, table, type="setup", seat=seat, fencing=4, ducats=6)
    return table


def test_the_seed_catalogue_holds_the_cards_the_rules_name():
    cards = {card.name: card for card in Card.objects.all()}
    assert {"Quevedo", "Pacheco", "Emilio Bocanegra", "Pistolas de silla", "Dados trucados",
            "Carroza", "Caballo", "Silla de manos"} <= set(cards)
    assert cards["Quevedo"].enemies == ["Pacheco"]
    pistols = cards["Pistolas de silla"]
    assert (pistols.kind, pistols.pistols, pistols.fencing, pistols.fame) == ("possession", True,
                                                                             1, -1)
    assert cards["Dados trucados"].fame == -1
    assert all(cards[name].vehicle for name in ("Carroza", "Caballo", "Silla de manos"))
    assert all(card.placeholder for card in cards.values())


def test_setup_and_its_refusals(as_alice, table):
    body = play(as_alice, table, type="setup", seat=0, fencing=3, ducats=7)
    assert body["summary"] == "Íñigo set up: Fencing 3, 7 ducats"
    seat = body["session"]["state"]["seats"][0]
    assert (seat["fencing"], seat["ducats"], seat["vigour"], seat["fame"]) == (3, 7, 12, 0)
    refused(as_alice, table, match="share 10 chips", type="setup", seat=1, fencing=5, ducats=6)
    assert refused(as_alice, table, type="setup", seat=1, fencing=1, ducats=9)
    refused(as_alice, table, match="already set up", type="setup", seat=0, fencing=4,
                                       ducats=6)
    refused(as_alice, table, match="has not set up", type="turn", seat=1)
    detail = refused(as_alice, table, code="invalid", type="setup", seat=0, fencing="x",
                     ducats=6)["detail"]
    assert detail.startswith("fencing:")


def test_turn_pays_the_income_and_counts_lost_turns_down(as_alice, ready):
    play(as_alice, ready, type="status", seat=0, status="free", lost_turns=2)
    body = play(as_alice, ready, type="turn", seat=0)
    assert body["summary"] == "Íñigo's turn: +1 ducat, a lost turn (1 left)"
    assert (sheet(ready, 0)["ducats"], sheet(ready, 0)["lost_turns"]) == (7, 1)


def test_turns_go_round_the_table_and_a_turn_out_of_order_is_refused(as_alice, ready):
    play(as_alice, ready, type="turn", seat=2)  # Malatesta rolled highest
    refused(as_alice, ready, match="Next it is Íñigo's turn, not Malatesta's", about="seat",
            type="turn", seat=2)
    play(as_alice, ready, type="turn", seat=0)
    body = play(as_alice, ready, type="turn", seat=1)
    assert body["session"]["state"]["turn"] == 1
    assert [sheet(ready, i)["ducats"] for i in range(3)] == [7, 7, 7]


def test_a_player_losing_turns_neither_fights_nor_plays_dice(as_alice, ready):
    play(as_alice, ready, type="status", seat=1, status="free", lost_turns=1)
    refused(as_alice, ready, match="Quevedo is losing turns (1 left): no duels or combats",
            about="challenged", type="duel", challenger=0, challenged=1, accepted=True)
    refused(as_alice, ready, match="Quevedo is losing turns (1 left): no duels or combats",
            about="attacker", type="combat", attacker=1, defender=0)
    refused(as_alice, ready, match="Quevedo is losing turns (1 left): no game of dice",
            about="seat", type="dice_game", seat=1, bet=5)
    refused(as_alice, ready, match="Quevedo is losing turns (1 left) and can't join",
            about="joiners", type="dice_game", seat=0, bet=5, joiners=[1])


def test_the_dice_game_refused_in_jail_says_why(as_alice, ready):
    play(as_alice, ready, type="status", seat=0, status="jail")
    body = refused(as_alice, ready, match="Íñigo is in the town jail: the game of dice is played "
                   "on the board", about="seat", type="dice_game", seat=0, bet=5)
    assert "duels" not in body["detail"]


def test_el_valido_is_reached_from_the_board_only(as_alice, ready):
    play(as_alice, ready, type="adjust", seat=0, stat="fame", delta=30)
    play(as_alice, ready, type="status", seat=0, status="jail")
    refused(as_alice, ready, match="Íñigo is in the town jail: El Valido is reached from the "
            "board", about="seat", type="valido", seat=0, won=True)


def test_a_character_held_by_one_player_is_refused_to_another(as_alice, ready):
    play(as_alice, ready, type="card", seat=2, action="add", card="Emilio Bocanegra")
    refused(as_alice, ready, match="There is one Emilio Bocanegra card and Malatesta holds it",
            about="card", type="card", seat=0, action="add", card="Emilio Bocanegra")


def test_adjust_chips_payments_and_death(as_alice, ready):
    body = play(as_alice, ready, type="adjust", seat=0, stat="fame", delta=5, reason="box")
    assert body["summary"] == "Íñigo +5 fame (box)"
    play(as_alice, ready, type="adjust", seat=0, stat="vigour", delta=3)
    assert sheet(ready, 0)["vigour"] == 12
    body = play(as_alice, ready, type="adjust", seat=1, stat="ducats", delta=-9, reason="payment")
    assert "can't pay 9 ducats (payment): to the town jail" in body["summary"]
    assert (sheet(ready, 1)["status"], sheet(ready, 1)["ducats"]) == ("jail", 6)
    body = play(as_alice, ready, type="adjust", seat=2, stat="vigour", delta=-12)
    assert sheet(ready, 2)["status"] == "dead"
    assert "dies" in body["summary"]
    refused(as_alice, ready, match="dead", type="adjust", seat=2, stat="fame", delta=1)
    assert refused(as_alice, ready, type="adjust", seat=0, stat="fame", delta=0)
    refused(as_alice, ready, code="invalid", type="adjust", seat=0, stat="luck", delta=1)


def test_cards_from_the_catalogue_are_stored_whole(as_alice, ready):
    quevedo = Card.objects.get(name="Quevedo")
    body = play(as_alice, ready, type="card", seat=0, action="add", card=quevedo.pk)
    stored = Session.objects.get(pk=ready.pk).moves.get(seq=body["seq"]).data["card"]
    assert stored["name"] == "Quevedo" and stored["enemies"] == ["Pacheco"]
    assert stored["id"] == quevedo.pk
    # The catalogue changes later: the replay keeps the card the move carried.
    Card.objects.filter(pk=quevedo.pk).update(fame=9)
    assert services.session_replay(session=ready) == Session.objects.get(pk=ready.pk).state
    pacheco = Card.objects.get(name="Pacheco")
    refused(as_alice, ready, match="enemies", type="card", seat=0, action="add",
                                card={"card": pacheco.pk})
    refused(as_alice, ready, match="never two equal", type="card", seat=0, action="add",
                                        card="quevedo")
    refused(as_alice, ready, match="no card 99999", code="invalid", type="card", seat=0,
                                      action="add", card=99999)
    one_off = {"name": "Espada toledana", "kind": "possession", "fencing": 2}
    play(as_alice, ready, type="card", seat=0, action="add", card=one_off)
    assert sheet(ready, 0)["totals"]["fencing"] == 6
    refused(as_alice, ready, match="attack card", type="card", seat=0, action="add",
                                    card={"name": "Emboscada", "kind": "attack"})
    refused(as_alice, ready, code="invalid", type="card", seat=0, action="add",
            card={"name": "X", "kind": "dragon"})
    body = play(as_alice, ready, type="card", seat=0, action="remove", card="Espada toledana")
    assert body["summary"] == "Íñigo discarded Espada toledana"
    refused(as_alice, ready, match="has no", type="card", seat=0, action="remove",
                               card="Espada toledana")


def test_vehicle_and_fame_open_zones(as_alice, ready):
    play(as_alice, ready, type="adjust", seat=0, stat="fame", delta=15)
    assert sheet(ready, 0)["zone"] == 1
    play(as_alice, ready, type="card", seat=0, action="add", card="Carroza")
    assert (sheet(ready, 0)["zone"], sheet(ready, 0)["income"]) == (2, 2)


def test_attacks(as_alice, ready):
    for _ in range(3):
        play(as_alice, ready, type="attack", action="play", to=1, **{"from": 0})
    refused(as_alice, ready, match="3 attack cards", type="attack", action="play", to=1,
                                       **{"from": 2})
    refused(as_alice, ready, match="their own board", type="attack", action="play", to=0,
                                **{"from": 0})
    body = play(as_alice, ready, type="attack", action="resolve", to=1)
    assert body["summary"] == "Quevedo resolved an attack card (2 waiting)"


def test_status_and_wanted(as_alice, ready):
    body = play(as_alice, ready, type="status", seat=1, status="away", lost_turns=2)
    assert body["summary"] == "Quevedo is away from Madrid, 2 lost turns"
    refused(as_alice, ready, code="invalid", type="status", seat=1, status="heaven")


def test_a_duel_with_typed_dice_shows_the_arithmetic(as_alice, ready):
    body = play(as_alice, ready, type="duel", challenger=0, challenged=1, accepted=True,
              rolls={"challenger": [6, 4], "challenged": [3, 4]})
    assert body["summary"] == ("Íñigo challenged Quevedo: Íñigo 4 + 0 + (6+4) = 14 "
                               "[+1 Fencing] vs Quevedo 4 + 0 + (3+4) = 11; Íñigo wins")
    assert (sheet(ready, 0)["fame"], sheet(ready, 0)["fencing"]) == (2, 5)
    # The loser had no cards: +1 for accepting, -1 for losing empty-handed.
    assert sheet(ready, 1)["fame"] == 0


def test_a_duel_with_server_dice_patrol_refusal_and_take(as_alice, ready):
    body = play(as_alice, ready, type="duel", challenger=0, challenged=1, accepted=False)
    assert "refused (Quevedo -2 Fame)" in body["summary"]
    body = play(as_alice, ready, type="duel", challenger=0, challenged=2, accepted=True,
              patrol={"distance": 3, "roll": 5})
    assert "both to the town jail" in body["summary"]
    assert sheet(ready, 0)["status"] == sheet(ready, 2)["status"] == "jail"
    refused(as_alice, ready, match="no duels", type="duel", challenger=0, challenged=1,
                                 accepted=True)
    play(as_alice, ready, type="status", seat=0, status="free")
    play(as_alice, ready, type="card", seat=1, action="add", card="Caballo")
    caballo = Card.objects.get(name="Caballo")
    body = play(as_alice, ready, type="duel", challenger=0, challenged=1, accepted=True,
              rolls={"challenger": [5, 5], "challenged": [3, 3]},
              take={"card": caballo.pk, "keep": True})
    assert "Íñigo wins, keeps Caballo" in body["summary"]
    assert [c["name"] for c in sheet(ready, 0)["cards"]] == ["Caballo"]
    assert refused(as_alice, ready, type="duel", challenger=0, challenged=1, accepted=True,
                   rolls={"challenger": [3, 3], "challenged": [3, 3]}
                   )["detail"] == "Equal: roll again"
    refused(as_alice, ready, code="invalid", type="duel", challenger=0, challenged=1,
            accepted=True, rolls={"challenger": [7, 3]})
    refused(as_alice, ready, match="two different players", type="duel", challenger=0, challenged=0,
                                accepted=True)
    body = play(as_alice, ready, type="duel", challenger=1, challenged=0, accepted=True)
    assert " vs " in body["summary"] and " = " in body["summary"]


def test_a_combat_with_pistols_and_discards(as_alice, ready):
    play(as_alice, ready, type="card", seat=0, action="add", card="Pistolas de silla")
    play(as_alice, ready, type="card", seat=1, action="add", card="Pacheco")
    body = play(as_alice, ready, type="combat", attacker=0, defender=1,
              rolls={"attacker": [6, 5], "defender": [3, 2], "defender_extra": 2},
              discard=["Pacheco"])
    assert body["summary"].startswith(
        "Íñigo attacked Quevedo: Íñigo 4 + 1 + (6+5) = 16 vs Quevedo 4 + 0 + (3+2) = 9 "
        "[extra die 2: -2 Vigour]; Íñigo wins; Quevedo discards Pacheco")
    assert sheet(ready, 0)["fame"] == 0  # -1 for attacking, from 0 stays 0
    assert (sheet(ready, 1)["vigour"], sheet(ready, 1)["cards"]) == (10, [])
    refused(as_alice, ready, match="at most 2", type="combat", attacker=0, defender=1,
                                  discard=["a", "b", "c"])


def test_the_dice_game(as_alice, ready):
    body = play(as_alice, ready, type="dice_game", seat=0, bet=5, joiners=[1],
              rolls={"player": [6, 6], "bank": [1, 1], "1": [2, 2]})
    assert body["summary"].endswith("Íñigo takes the pot of 15")
    assert (sheet(ready, 0)["ducats"], sheet(ready, 1)["ducats"]) == (16, 1)
    refused(as_alice, ready, match="at least 5", type="dice_game", seat=0, bet=4)
    refused(as_alice, ready, match="can't put in", type="dice_game", seat=0, bet=5,
                                     joiners=[1])


def test_bullfight_and_act_of_faith(as_alice, ready):
    body = play(as_alice, ready, type="bullfight",
              rolls={"0": [6, 6], "1": [1, 1], "2": [2, 2]})
    assert body["summary"] == ("Bullfight: Íñigo 4+6+6=16, Quevedo 4+1+1=6, Malatesta 4+2+2=8; "
                               "Íñigo wins +3 Fame")
    play(as_alice, ready, type="card", seat=2, action="add", card="Emilio Bocanegra")
    body = play(as_alice, ready, type="act_of_faith")
    assert body["summary"] == "Act of Faith: Malatesta wins with Emilio Bocanegra (+4 Fame)"
    play(as_alice, ready, type="status", seat=0, status="jail")
    refused(as_alice, ready, match="does not take part", type="bullfight",
                                           rolls={"0": [6, 6]})


def test_death_and_setting_up_again(as_alice, ready):
    body = play(as_alice, ready, type="death", seat=1)
    assert body["summary"] == "Quevedo died"
    play(as_alice, ready, type="setup", seat=1, fencing=5, ducats=5)
    assert sheet(ready, 1)["status"] == "free"


def test_el_valido_and_the_early_end(as_alice, ready):
    refused(as_alice, ready, match="needs 30", type="valido", seat=0, won=True)
    play(as_alice, ready, type="adjust", seat=0, stat="fame", delta=30)
    body = play(as_alice, ready, type="valido", seat=0, won=True)
    assert body["session"]["status"] == "finished"
    assert body["session"]["standings"][0]["name"] == "Íñigo"
    assert post(as_alice, ready, type="end").status_code == 409
    as_alice.post(f"/api/sessions/{ready.pk}/undo/")
    play(as_alice, ready, type="adjust", seat=1, stat="ducats", delta=65)
    body = play(as_alice, ready, type="end")
    assert body["session"]["status"] == "finished"
    assert [row["name"] for row in body["session"]["standings"]][:2] == ["Quevedo", "Íñigo"]
    assert body["session"]["standings"][0]["score"] == 35.5


def test_replay_equals_the_cached_state_and_undo(as_alice, ready):
    play(as_alice, ready, type="duel", challenger=0, challenged=1, accepted=True)
    play(as_alice, ready, type="combat", attacker=2, defender=0)
    play(as_alice, ready, type="bullfight")
    play(as_alice, ready, type="dice_game", seat=0, bet=5)
    session = Session.objects.get(pk=ready.pk)
    assert services.session_replay(session=session) == session.state
    before_undo = services.session_replay(session=session, upto=session.moves.count() - 1)
    response = as_alice.post(f"/api/sessions/{ready.pk}/undo/")
    assert response.status_code == 200
    assert response.json()["state"] == before_undo


def test_a_guest_plays_moves(as_bob_alatriste, ready):
    play(as_bob_alatriste, ready, type="turn", seat=1)


@pytest.fixture
def as_bob_alatriste(table):
    guest = services.guest_join(code=table.code, seat=1)
    return api_client(guest=guest)


# The catalogue --------------------------------------------------------------------------------

CARDS = "/api/games/alatriste/cards/"


def test_anyone_reads_the_catalogue(anonymous):
    response = anonymous.get(CARDS)
    assert response.status_code == 200
    quevedo = next(card for card in response.json() if card["name"] == "Quevedo")
    assert quevedo["placeholder"] is True and quevedo["enemies"] == ["Pacheco"]
    assert set(quevedo) == {"id", "number", "name", "kind", "fame", "vigour", "fencing",
                            "pistols", "vehicle", "enemies", "placeholder"}


def test_a_host_adds_a_card_and_the_name_is_unique(as_alice):
    card = {"number": 42, "name": "Espada toledana", "kind": "possession", "fencing": 2}
    response = as_alice.post(CARDS, card, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["placeholder"] is False
    again = as_alice.post(CARDS, {**card, "name": "espada TOLEDANA"}, format="json")
    assert again.status_code == 400
    assert again.json()["detail"] == "The catalogue already has a card called espada TOLEDANA."
    bad = as_alice.post(CARDS, {"name": "X", "kind": "dragon"}, format="json")
    assert bad.status_code == 400 and bad.json()["detail"].startswith("kind:")
    bad = as_alice.post(CARDS, {"name": "Y", "kind": "help", "fame": "lots"}, format="json")
    assert bad.status_code == 400 and "fame" in bad.json()["detail"]


def test_only_hosts_add_cards(anonymous, bob):
    card = {"name": "Espada toledana", "kind": "possession"}
    assert anonymous.post(CARDS, card, format="json").status_code == 401
    assert api_client(guest=bob).post(CARDS, card, format="json").status_code == 403
    assert not Card.objects.filter(name="Espada toledana").exists()


def test_a_hosts_own_cards_are_that_hosts_alone(as_alice, as_charlie, alice, charlie):
    card = {"name": "Espada toledana", "kind": "possession", "fencing": 2}
    assert as_alice.post(CARDS, card, format="json").status_code == 201
    # Charlie neither sees Alice's card nor plays it by name at his own table...
    assert "Espada toledana" not in [c["name"] for c in as_charlie.get(CARDS).json()]
    table = session_for(charlie, game="alatriste", players=NAMES, seed="own")
    for seat in range(3):
        play(as_charlie, table, type="setup", seat=seat, fencing=4, ducats=6)
    refused(as_charlie, table, type="card", match="no card called Espada toledana",
            code="invalid", seat=0, action="add", card="Espada toledana")
    refused(as_charlie, table, type="card", match="There is no card", code="invalid", seat=0,
            action="add", card=Card.objects.get(owner=alice).pk)
    # ...and may have one of the same name of his own; a printed card's name stays the printed.
    assert as_charlie.post(CARDS, {**card, "fencing": 1}, format="json").status_code == 201
    assert Card.objects.filter(name="Espada toledana").count() == 2
    assert as_charlie.post(CARDS, {"name": "quevedo", "kind": "character"},
                           format="json").status_code == 400
    # Alice's table plays hers, with her values.
    mine = session_for(alice, game="alatriste", players=NAMES, seed="mine")
    for seat in range(3):
        play(as_alice, mine, type="setup", seat=seat, fencing=4, ducats=6)
    play(as_alice, mine, type="card", seat=0, action="add", card="Espada toledana")
    assert Session.objects.get(pk=mine.pk).state["seats"][0]["cards"][0]["fencing"] == 2


def test_the_panel_offers_the_printed_cards_and_the_hosts_own(alice, charlie, as_charlie):
    from django.test import Client

    as_charlie.post(CARDS, {"name": "Daga de Charlie", "kind": "possession"}, format="json")
    page = Client()
    page.force_login(alice)
    table = session_for(alice, game="alatriste", players=NAMES, seed="panel-cards")
    html = page.get(f"/s/{table.pk}/").content.decode()
    assert 'value="Quevedo"' in html and "Daga de Charlie" not in html


def test_dice_missing_for_a_fighter_name_the_role_in_the_readers_words(as_alice, ready):
    for language, sentence in (("en", "The dice: Give two dice for challenger."),
                               ("es", "Los dados: Da dos dados para el retador.")):
        answer = as_alice.post(f"/api/sessions/{ready.pk}/moves/", {
            "type": "duel", "challenger": 0, "challenged": 1, "accepted": True,
            "rolls": {"challenger": [6], "challenged": [3, 4]}}, format="json",
            HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 400
        assert answer.json()["detail"] == sentence


# The shape of a move, checked by its serializer alone: the rules are handed whole numbers, yes
# or no, dice from 1 to 6 and resolved cards (tests/test_conformance.py checks they take
# whatever it lets through). Each refused with a 400 naming the field, nothing changed.
DUEL = {"challenger": 0, "challenged": 1, "accepted": True}


@pytest.mark.parametrize("move_type, fields, about", [
    ("setup", {"seat": 2, "fencing": "four", "ducats": 6}, "fencing"),
    ("setup", {"seat": 2, "fencing": True, "ducats": 6}, "fencing"),
    ("setup", {"seat": -1, "fencing": 4, "ducats": 6}, "seat"),
    ("adjust", {"seat": 0, "stat": "fame", "delta": True}, "delta"),
    ("adjust", {"seat": 0, "stat": "fame", "delta": 1.5}, "delta"),
    ("adjust", {"seat": 0, "stat": "fame", "delta": 5000}, "delta"),
    ("adjust", {"seat": 0, "stat": "fame"}, "delta"),
    ("adjust", {"seat": 0, "stat": "fame", "delta": 1, "reason": "x" * 201}, "reason"),
    ("duel", {"challenger": 0, "challenged": 1, "accepted": "maybe"}, "accepted"),
    ("duel", {**DUEL, "rolls": {"challenger": [7, 1]}}, "rolls"),
    ("duel", {**DUEL, "rolls": {"challenger": [0, 1]}}, "rolls"),
    ("duel", {**DUEL, "rolls": {"challenger": [3]}}, "rolls"),
    ("duel", {**DUEL, "rolls": {"challenger_extra": 9}}, "rolls"),
    ("duel", {**DUEL, "rolls": [1, 2]}, "rolls"),
    ("duel", {**DUEL, "loser_has_hand_cards": "often"}, "loser_has_hand_cards"),
    ("duel", {**DUEL, "patrol": {"distance": -1}}, "patrol"),
    ("duel", {**DUEL, "patrol": {"distance": 2, "roll": 7}}, "patrol"),
    ("dice_game", {"seat": 0, "bet": "five"}, "bet"),
    ("dice_game", {"seat": 0, "bet": 5, "rolls": {"player": [3, 9]}}, "rolls"),
])
def test_a_moves_shape_is_refused_by_its_serializer(as_alice, ready, move_type, fields, about):
    refused(as_alice, ready, move_type, code="invalid", about=about, **fields)
