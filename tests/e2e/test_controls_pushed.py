"""A phone's own controls are pushed when what they are drawn from changes (the digest of its
panel's model: streams.Pusher), with no request of the phone's: here Merlin's phone, once
Arthur has drawn and discarded, shows its reveal."""

from playwright.sync_api import expect

from companion import services
from games.knights import rules
from tests.factories import session_for


def test_merlins_controls_come_with_the_push_of_arthurs_discard(host_phone, alice):
    session = session_for(alice, game="knights", players=("Ann", "Bob", "Cid"),
                          options={"deck": "app"}, seed="s")
    services.session_host_seat(session=session, seat=0)  # Ann, Merlin, on the host's phone
    host = services.Actor(user=alice)
    ann = host_phone()
    ann.goto(f"/s/{session.pk}/")
    expect(ann.locator("#table")).to_have_attribute("data-stream", "open")
    asked = []
    ann.on("request", lambda request: asked.append(request.url))

    services.move_play(session=session, type="draw_events", data={}, actor=host)
    session.refresh_from_db()
    drawn = session.state["event_choices"]
    services.move_play(session=session, type="pass_events", data={"discard": drawn[0]},
                       actor=host)
    session.refresh_from_db()
    expect(ann.locator("#table")).to_have_attribute("data-version", str(session.version))
    event = next(e for e in drawn[1:] if rules.event_kind(e) in ("war", "quest"))
    expect(ann.locator("[data-own]").get_by_role("button", name=f"Reveal {event}")).to_be_visible()
    expect(ann.locator("#panel_live")).not_to_contain_text("discards one of the 3 events")
    assert not [url for url in asked if f"/s/{session.pk}/" in url], asked
