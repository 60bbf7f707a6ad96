"""The Knights & Damosels panel through Django's test client: host and guest pages, every form
without JavaScript and with htmx, refusals next to their form, the worship preview."""

import re
from html import escape

import pytest
from django.test import Client
from django.utils import translation

from companion import services
from companion.actors import Actor
from companion.models import Guest
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cid"]
HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}


@pytest.fixture
def table(alice):
    return session_for(alice, game="knights", players=NAMES, options={"deck": "table"})


@pytest.fixture
def host(alice):
    return browser_for(alice)


def guest_page(session, seat):
    return guest_browser(session, seat=seat)


def act(session, alice, type, **data):
    return services.move_play(session=session, type=type, data=data, actor=Actor(user=alice))


def post(client, session, htmx=False, **fields):
    return client.post(f"/s/{session.pk}/move/", fields, **(HX if htmx else {}))


def html(response):
    return response.content.decode()


def form_block(page, name):
    """The HTML of the form whose hidden `form` field is `name`."""
    marker = page.index(f'name="form" value="{name}"')
    start = page.rindex("<form", 0, marker)
    return page[start:page.index("</form>", marker)]


def quest(session, alice):
    act(session, alice, "reveal_event", event="Holy Grail")
    for seat, (damosel, chivalry) in enumerate([("Guinevere", "honor"), ("Isolde", "loyalty"),
                                                ("Elaine", "valor")]):
        act(session, alice, "grant", seat=seat, damosel=damosel, chivalry=chivalry)
    for seat, chivalry in enumerate(["honor", "loyalty", "valor"]):
        act(session, alice, "offer", seat=seat, chivalry=chivalry)


def test_the_panel_renders_for_the_host_and_a_guest(table, host):
    for client in (host, guest_page(table, 1)):
        page = html(client.get(f"/s/{table.pk}/"))
        assert "Round 1" in page and "Arthur: <b>Bob</b>" in page and "Merlin: <b>Ann</b>" in page
        assert "Merlin (Ann) reveals the event drawn at the table." in page
        assert 'id="kn-progress-0"' in page and "0/7" in page and "0/5" in page
        assert "1/30" in page
        assert page.count('class="kc') == 54  # every card in the grid


def test_the_app_deck_forms_draw_pass_and_reveal(alice, host):
    session = session_for(alice, game="knights", players=NAMES)
    page = html(host.get(f"/s/{session.pk}/"))
    assert "Arthur (Bob) draws 3 events" in form_block(page, "draw")
    assert post(host, session, type="draw_events", form="draw").status_code == 302
    session.refresh_from_db()
    drawn = session.state["event_choices"]
    page = html(host.get(f"/s/{session.pk}/"))
    # The draw is Arthur's (Bob's) to see: the host's page names none of the events.
    assert "Only Arthur (Bob) sees the events drawn" in form_block(page, "pass")
    assert not any(event in page for event in drawn) and 'name="discard"' not in page
    bob, ann = guest_page(session, 1), guest_page(session, 0)
    page = html(bob.get(f"/s/{session.pk}/"))
    assert all(f'name="discard" value="{event}"' in form_block(page, "pass") for event in drawn)
    assert not any(event in html(ann.get(f"/s/{session.pk}/")) for event in drawn)
    response = post(bob, session, htmx=True, type="pass_events", form="pass", discard=drawn[0])
    assert response.status_code == 200 and 'id="live"' in html(response)
    # Revealing is Merlin's own step: Arthur's phone says so and offers no button for it.
    assert 'value="reveal"' not in html(response)
    assert "Nothing for you to do now: Merlin (Ann) reveals one of the 2 events." in html(response)
    page = html(ann.get(f"/s/{session.pk}/"))  # Merlin holds the two Arthur passed
    assert all(f'name="event" value="{e}"' in form_block(page, "reveal") for e in drawn[1:])
    assert drawn[0] not in page
    assert "Only Merlin (Ann) and Arthur see" in html(host.get(f"/s/{session.pk}/"))
    response = post(ann, session, htmx=True, type="reveal_event", form="reveal",
                    event=drawn[0])
    assert response.status_code == 400
    assert "is not one of Merlin&#x27;s 2 events" in form_block(html(response), "reveal")
    post(ann, session, type="reveal_event", form="reveal", event=drawn[1])
    session.refresh_from_db()
    assert session.state["phase"] == "knight"


def test_a_phone_is_refused_merlins_step_and_grant_with_the_apis_sentence(table):
    cid, ann = guest_page(table, 2), guest_page(table, 0)  # Ann is Merlin
    sentence = "This is Ann&#x27;s move: it comes from Ann&#x27;s phone or the host&#x27;s."
    response = post(cid, table, htmx=True, type="reveal_event", form="reveal",
                    event="Holy Grail")
    assert response.status_code == 403 and sentence in html(response)
    post(ann, table, type="reveal_event", form="reveal", event="Holy Grail")
    response = post(cid, table, type="grant", form="grant", seat="2", damosel="Isolde",
                    chivalry="valor")
    assert response.status_code == 403 and sentence in html(response)
    table.refresh_from_db()
    assert table.state["granted"] == [] and table.version == 1


def finders_css(path):
    from django.contrib.staticfiles import finders

    with open(finders.find(path)) as file:
        return file.read()


def test_a_grant_by_tapping_a_card_and_a_refusal_beside_the_grid(table, alice, host):
    act(table, alice, "reveal_event", event="Holy Grail")
    page = html(host.get(f"/s/{table.pk}/"))
    grid = form_block(page, "grant")
    assert 'id="kn-seat-0" checked' in grid
    # Ann's knight may not take her own damosel Elaine's cards: greyed for seat 0, with why.
    cell = re.search(r'<button[^>]*value="Elaine:honor"[^>]*>', grid).group(0)
    assert "no0" in cell and "data-why0=\"Ann&#x27;s knight may not take a card of Elaine" in cell
    assert "no1" not in cell
    # The greying rule is the game's stylesheet's, loaded in the head (no inline style).
    assert "/static/games/knights/panel.css" in page
    assert ".kn-grant:has(#kn-seat-0:checked) .kc.no0" in finders_css("games/knights/panel.css")
    response = post(host, table, type="grant", form="grant", seat="0", card="Guinevere:honor")
    assert response.status_code == 302
    response = post(host, table, htmx=True, type="grant", form="grant", seat="1",
                    card="Guinevere:honor")
    assert response.status_code == 400
    block = form_block(html(response), "grant")
    assert 'role="alert">Guinevere&#x27;s honor is not with Guinevere' in block
    response = post(host, table, htmx=True, type="grant", form="grant", seat="1",
                    card="Isolde:honor")
    assert response.status_code == 200
    page = html(response)
    assert 'id="kn-seat-2" checked' in page  # the next knight without a grant this round
    # The host is not Merlin: the damosels behind the grants stay Merlin's and the knights'.
    assert not re.search(r'class="kc[^"]* held granted[^"]*" name="card" value="Isolde:honor"',
                         page)
    assert "Ann's Bors honor, Bob's Gawain honor." in page
    merlin = html(guest_page(table, 0).get(f"/s/{table.pk}/"))
    assert re.search(r'class="kc[^"]* held granted[^"]*" name="card" value="Isolde:honor"',
                     merlin)
    # The table's part, alike on every phone, names the grants by knight only, Merlin's too.
    hidden = merlin.split('id="kn-hidden-grants"')[1].split("</p>")[0]
    assert "Ann's Bors honor, Bob's Gawain honor." in hidden and "Isolde" not in hidden


def test_offers_and_a_joust_through_the_forms(table, alice, host):
    act(table, alice, "reveal_event", event="Holy Grail")
    act(table, alice, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    act(table, alice, "grant", seat=2, damosel="Morgana", chivalry="honor")
    page = html(host.get(f"/s/{table.pk}/"))
    # The host challenges a grant without its damosel (the rules find the holder's one grant).
    assert 'value="0::honor">Ann: honor' in form_block(page, "joust")
    assert "Guinevere&#x27;s honor" not in form_block(page, "joust")
    merlin = html(guest_page(table, 0).get(f"/s/{table.pk}/"))
    assert 'value="0:Guinevere:honor"' in form_block(merlin, "joust")
    assert post(host, table, type="offer", form="offer", seat="0",
                chivalry="honor").status_code == 302
    page = html(host.get(f"/s/{table.pk}/"))
    assert "offered: honor" in page and 'value="0::honor"' in form_block(page, "joust")
    # The host has no seat: every seat's offers are in its fold, which a refusal opens.
    response = post(host, table, htmx=True, type="offer", form="offer-2", seat="2",
                    chivalry="honor")
    assert response.status_code == 400
    assert 'id="kn-others" open' in html(response)
    assert "already offered honor" in form_block(html(response), "offer-2")
    response = post(host, table, htmx=True, type="joust", form="joust", target="0::honor",
                    challenger="2", similar="1", end="different")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.state["seats"][2]["offered"] == ["honor"]
    assert [row["worship"] for row in table.state["seats"]] == [0, 1, 2]


def test_arthurs_and_merlins_buttons_name_the_events_in_the_phones_language(alice):
    """Each button sends the event as the state names it and says it as the phone reads."""
    session = session_for(alice, game="knights", players=NAMES)
    act(session, alice, "draw_events")
    session.refresh_from_db()
    drawn = session.state["event_choices"]
    with translation.override("es"):
        spanish = {event: translation.gettext(event) for event in drawn}
    bob, ann = guest_page(session, 1), guest_page(session, 0)  # Arthur, Merlin
    page = form_block(html(bob.get(f"/s/{session.pk}/", HTTP_ACCEPT_LANGUAGE="es")), "pass")
    for event in drawn:
        assert f'value="{escape(event)}">Descartar {escape(spanish[event])}</button>' in page
    post(bob, session, type="pass_events", form="pass", discard=drawn[0])
    page = form_block(html(ann.get(f"/s/{session.pk}/", HTTP_ACCEPT_LANGUAGE="es")), "reveal")
    for event in drawn[1:]:
        assert f'value="{escape(event)}">Revelar {escape(spanish[event])}</button>' in page
    english = [event for event in drawn[1:] if spanish[event] != event]
    assert not any(f"Revelar {escape(event)}" in page for event in english)


def test_an_offer_and_a_seal_name_the_chivalry_in_the_phones_language(table, alice):
    act(table, alice, "reveal_event", event="Holy Grail")
    act(table, alice, "grant", seat=1, damosel="Isolde", chivalry="loyalty")
    bob = guest_page(table, 1)
    page = html(bob.get(f"/s/{table.pk}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert ('value="loyalty" aria-label="Bob ofrece lealtad">lealtad</button>'
            in form_block(page, "offer"))
    post(bob, table, type="offer", form="offer", seat="1", chivalry="loyalty")
    page = html(bob.get(f"/s/{table.pk}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert "Ofrecidas esta ronda: Bob lealtad." in page
    seal = form_block(page, "seal")
    assert '<span class="kn-face-label">lealtad</span>' in seal
    assert 'name="p.loyalty" value="down"' in seal and "loyalty<" not in seal


def test_a_guest_seals_from_its_phone_and_sees_only_its_own_choice(table, alice, host):
    quest(table, alice)
    ann, bob = guest_page(table, 0), guest_page(table, 1)
    page = html(ann.get(f"/s/{table.pk}/"))
    seal = form_block(page, "seal")
    assert 'name="seat" value="0"' in seal and 'name="p.honor" value="down"' in seal
    assert 'form" value="worship"' not in page  # the whole-table form is the host's
    response = post(ann, table, htmx=True, type="seal", form="seal", seat="0",
                    **{"p.honor": "down"})
    assert response.status_code == 200
    page = html(response)
    assert "Your placement is sealed, and final: honor face down." in page
    assert 'id="kn-seal-form"' in page and 'form" value="seal"' not in page
    bob_page = html(bob.get(f"/s/{table.pk}/"))
    assert "Ann: honor — <b>sealed</b>" in bob_page
    assert 'value="down" checked' not in bob_page
    response = post(bob, table, htmx=True, type="seal", form="seal", seat="0",
                    **{"p.honor": "up"})
    # Whose move it is: said in the "now" line, in view wherever the phone is.
    assert response.status_code == 403
    now = html(response).split('id="now"')[1].split("</section>")[0]
    assert "Only Ann&#x27;s own phone" in now
    host_page = html(host.get(f"/s/{table.pk}/"))
    assert "Sealed placements: waiting for Bob and Cid." in host_page
    assert 'value="down" checked' not in host_page
    # Cid has no phone: the host seals for him; Bob's phone is the last one in.
    assert 'name="form" value="seal-2"' in host_page and 'value="seal-1"' not in host_page
    post(host, table, type="seal", form="seal-2", seat="2", **{"p.valor": "down"})
    post(bob, table, type="seal", form="seal", seat="1", **{"p.loyalty": "up"})
    table.refresh_from_db()
    assert table.state["resolution"]["placements"] == {
        "0": {"honor": "down"}, "1": {"loyalty": "up"}, "2": {"valor": "down"}}
    page = html(host.get(f"/s/{table.pk}/"))
    assert 'id="kn-resolution"' in page and "honor down: 2" in page
    assert f'name="expected_version" value="{table.version}"' in form_block(page, "end_round")


def test_a_phone_keeps_its_seat_while_a_seal_is_hidden(table, alice, host):
    """Bob's phone moved to Cid's seat (no phone held it; the host had sealed for it), read the
    seal, and could move back to seal his own knowing it."""
    quest(table, alice)
    bob = guest_page(table, 1)
    post(host, table, type="seal", form="seal-2", seat="2", **{"p.valor": "down"})
    moved = bob.post(f"/s/{table.pk}/seat/", {"seat": "2"})
    assert moved.status_code == 409
    assert "A phone keeps its seat while a choice is hidden" in html(moved)
    assert Guest.objects.get(session=table, seat=1) is not None
    assert 'value="down" checked' not in html(bob.get(f"/s/{table.pk}/"))
    # Once the faces are shown to all, seats move again.
    post(bob, table, type="seal", form="seal", seat="1", **{"p.loyalty": "up"})
    post(host, table, type="seal", form="seal-0", seat="0", **{"p.honor": "up"})
    table.refresh_from_db()
    assert not table.state["sealed"]
    assert bob.post(f"/s/{table.pk}/seat/", {"seat": "2"}).status_code == 302


def test_the_host_enters_every_placement_at_once_with_a_preview(table, alice, host):
    quest(table, alice)
    page = html(host.get(f"/s/{table.pk}/"))
    whole = form_block(page, "worship")
    assert 'name="p.0.honor" value="up" checked' in whole and 'name="p.2.valor"' in whole
    assert f'hx-get="/g/knights/{table.pk}/preview/"' in whole
    assert "honor up: 3" in whole  # the preview of the default, every card face up
    response = post(host, table, htmx=True, type="worship", form="worship",
                    **{"p.0.honor": "down", "p.1.loyalty": "up"})
    assert response.status_code == 400
    assert "Cid must still place valor" in form_block(html(response), "worship")
    response = post(host, table, type="worship", form="worship",
                    **{"p.0.honor": "down", "p.1.loyalty": "up", "p.2.valor": "down"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert [row["worship"] for row in table.state["seats"]] == [3, 5, 2]


def test_end_round_carries_the_version_and_a_stale_one_is_refused(table, alice, host):
    act(table, alice, "reveal_event", event="Excalibur")
    act(table, alice, "worship")
    table.refresh_from_db()
    response = post(host, table, htmx=True, type="end_round", form="end_round",
                    expected_version=str(table.version - 1))
    assert response.status_code == 412
    assert "Someone at the table changed this" in form_block(html(response), "end_round")
    response = post(host, table, htmx=True, type="end_round", form="end_round",
                    expected_version=str(table.version))
    assert response.status_code == 200 and "Round 2" in html(response)


def test_the_disaster_form(table, alice, host):
    act(table, alice, "reveal_event", event="The Adultery")
    act(table, alice, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    page = html(host.get(f"/s/{table.pk}/"))
    whole = form_block(page, "disaster")
    assert 'name="type" value="disaster"' in whole and 'name="p.0.honor"' in whole
    assert "1 face up, 0 face down" in whole
    post(host, table, type="disaster", form="disaster", **{"p.0.honor": "down"})
    table.refresh_from_db()
    assert table.state["cards"]["Guinevere"]["honor"] is None


def test_the_preview_view(table, alice, host, client):
    quest(table, alice)
    path = f"/g/knights/{table.pk}/preview/"
    faces = {"p.0.honor": "down", "p.1.loyalty": "up", "p.2.valor": "down"}
    response = host.get(path, faces, **HX)
    assert response.status_code == 200 and "<html" not in html(response)
    assert "honor down: 2" in html(response) and "<b>+4</b> → 5" in html(response)
    page = html(host.get(path, faces))
    assert "<html" in page and "Back to the table" in page
    assert "Bob must still place loyalty" in html(host.get(path, {"p.0.honor": "up"}, **HX))
    assert guest_page(table, 1).get(path, faces, **HX).status_code == 200
    assert client.get(path, faces).status_code == 404
    table.refresh_from_db()
    version = table.version
    host.get(path, faces)
    table.refresh_from_db()
    assert table.version == version  # read-only


def test_a_preview_after_a_seal_counts_no_hidden_face(table, alice, host):
    quest(table, alice)
    ann = guest_page(table, 0)
    post(ann, table, type="seal", form="seal", seat="0", **{"p.honor": "down"})
    path = f"/g/knights/{table.pk}/preview/"
    rest = {"p.1.loyalty": "up", "p.2.valor": "down"}
    # The host's form leaves Ann out; her honor, sealed down, is hidden from the host's phone.
    hidden = "No preview: the faces Ann sealed stay hidden until they are applied."
    assert hidden in form_block(html(host.get(f"/s/{table.pk}/")), "worship")
    assert hidden in html(host.get(path, rest, **HX))
    # Ann's phone sees her own seal: her preview counts it as sealed.
    assert "honor down: 2" in html(ann.get(path, {**rest, "p.0.honor": "up"}, **HX))


def test_the_preview_names_no_damosel_a_phone_may_not_see_yet(table, alice):
    act(table, alice, "reveal_event", event="The Adultery")  # a Disaster, in the knight phase
    act(table, alice, "grant", seat=0, damosel="Guinevere", chivalry="honor")
    act(table, alice, "grant", seat=2, damosel="Elaine", chivalry="valor")
    path = f"/g/knights/{table.pk}/preview/"
    faces = {"p.0.honor": "up", "p.2.valor": "up"}
    bobs = html(guest_page(table, 1).get(path, faces, **HX))
    assert "Guinevere" not in bobs and "Elaine" not in bobs and "honor" in bobs
    # Cid's knight holds Elaine's valor: his phone sees that damosel, not Guinevere.
    cids = html(guest_page(table, 2).get(path, faces, **HX))
    assert "Elaine" in cids and "Guinevere" not in cids


def test_the_board_shows_no_panel(table, alice):
    page = html(Client().get(f"/board/{table.board_key}/"))
    assert "kn-grant" not in page and 'id="scoreboard"' in page


def test_the_pushed_part_is_alike_for_every_phone_and_names_no_hidden_choice(alice):
    """live_model is rendered once as the board sees it: no event of Arthur's draw, no
    granted damosel, no sealed face."""
    from games.knights import panel, rules

    session = session_for(alice, game="knights", players=NAMES)
    seen = []

    def check():
        session.refresh_from_db()
        state = session.state
        live = panel.live_model(rules.redact(state, None), [])
        seen.append(live)
        return str(live)

    check()
    act(session, alice, "draw_events")
    live = check()
    drawn = session.state["event_choices"]
    assert not any(event in live for event in drawn)
    act(session, alice, "pass_events", discard=drawn[0])
    live = check()
    assert not any(event in live for event in drawn)
    event = next(e for e in drawn[1:] if rules.event_kind(e) != "disaster")
    act(session, alice, "reveal_event", event=event)
    check()
    listed = rules.event_list(session.state, event)
    chivalry, other = [c for c in listed if c in rules.SHARED][:2]
    for seat, card in ((1, chivalry), (2, other)):
        damosel = next(d for d in rules.DAMOSELS
                       if not panel._reason(rules.check_grant, session.state, seat, d, card))
        act(session, alice, "grant", seat=seat, damosel=damosel, chivalry=card)
        live = check()
        holder = NAMES[seat]
        assert f"{damosel}'s {card}: with {holder}" not in live
        assert f"{damosel}'s {card}: with {damosel}" in live
    for seat, card in ((1, chivalry), (2, other)):
        act(session, alice, "offer", seat=seat, chivalry=card)
        check()
    services.move_play(session=session, type="seal", actor=guest_actor(session, 1),
                       data={"seat": 1, "placements": {chivalry: "down"}})
    assert "down" not in check()
    assert all(a != b for a, b in zip(seen, seen[1:], strict=False))  # each move changed it


def guest_actor(session, seat):
    return Actor(guest=services.guest_join(code=session.code, seat=seat))


def test_a_guest_phone_carries_its_own_part_first_and_no_other_seat_s_buttons(table, alice):
    quest(table, alice)
    cid = html(guest_page(table, 2).get(f"/s/{table.pk}/"))
    own = cid.split('data-own')[1].split("</section>")[0]
    assert 'name="seat" value="2"' in own and "Seal my placement" in own
    assert 'id="kn-others"' not in cid and 'value="seal-0"' not in cid
    assert cid.index("data-own") < cid.index('id="panel_live"')
    host = html(browser_for(alice).get(f"/s/{table.pk}/"))
    # The host with no seat: the table's forms first, the seats' in a closed fold.
    assert 'id="kn-table" aria-labelledby="kn-table-title" data-own' in host
    assert '<details class="kn-others" id="kn-others">' in host


def test_the_final_screen_has_no_controls(alice):
    from games.knights import panel, rules

    session = session_for(alice, game="knights", players=NAMES, options={"deck": "table"})
    state = dict(session.state, phase="finished",
                 victory={"winner": 0, "class": "worship", "order": [0, 1, 2]})
    model = panel.panel_model(state, viewer=0, is_host=True, data=[], posted=None,
                              refusal=None)
    assert model["finished"] and not model["can_end"]
    live = panel.live_model(rules.redact(state, None), [])
    assert live["order"] == NAMES and live["finished"]


def test_a_finished_game_s_panel_shows_the_final_order_and_no_controls(table, alice, host):
    state = dict(table.state, phase="finished",
                 victory={"winner": 1, "class": "worship", "order": [1, 0, 2]})
    table.state = state
    table.save(update_fields=["state"])
    for client in (host, guest_page(table, 0)):
        page = html(client.get(f"/s/{table.pk}/"))
        knights = page.split('id="knights"')[1].split('id="undo"')[0]
        assert 'id="kn-final"' in knights and "<form" not in knights
        assert "data-own" not in knights and 'id="kn-others"' not in knights
