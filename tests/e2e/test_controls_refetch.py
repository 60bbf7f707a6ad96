"""A phone whose own controls are fetched again after a push (its game's live part names what they
must be drawn for) never lets an answer drawn for an older version undo a newer push: here the
answer to Merlin's refetch, drawn after Arthur's draw, lands only after Arthur's discard was
pushed; the phone asks again and shows Merlin's reveal, not the draw's panel."""

import re

import httpx
from playwright.sync_api import expect

from companion import services
from games.knights import rules
from tests.factories import session_for


def test_an_answer_for_an_older_version_does_not_undo_a_newer_push(host_phone, alice):
    session = session_for(alice, game="knights", players=("Ann", "Bob", "Cid"),
                          options={"deck": "app"}, seed="s")
    services.session_host_seat(session=session, seat=0)  # Ann, Merlin, on the host's phone
    host = services.Actor(user=alice)
    ann = host_phone()
    held = []

    def hold_the_first_refetch(route):
        if route.request.headers.get("hx-target") != "live" or held:
            route.continue_()
            return
        # The server's answer drawn now, after the draw; then Arthur discards, and the page
        # gets this answer only once the discard's push has reached it.
        cookies = {cookie["name"]: cookie["value"] for cookie in ann.context.cookies()}
        answer = httpx.get(route.request.url, cookies=cookies,
                           headers={"HX-Request": "true", "HX-Target": "live"})
        drawn = session.__class__.objects.get(pk=session.pk).state["event_choices"]
        services.move_play(session=session, type="pass_events", data={"discard": drawn[0]},
                           actor=host)
        held.append((route, answer, drawn))

    ann.route(re.compile(rf".*/s/{session.pk}/$"), hold_the_first_refetch)
    ann.goto(f"/s/{session.pk}/")
    expect(ann.locator("#table")).to_have_attribute("data-stream", "open")

    # Arthur draws: the push tells Merlin's phone its controls must be drawn again.
    services.move_play(session=session, type="draw_events", data={}, actor=host)
    session.refresh_from_db()
    discarded = str(session.version + 1)
    expect(ann.locator("#table")).to_have_attribute("data-version", discarded)
    route, answer, drawn = held[0]
    # The panel drawn after the draw, now older than what the page shows.
    route.fulfill(status=answer.status_code, body=answer.content,
                  content_type=answer.headers["content-type"])
    event = next(e for e in drawn[1:] if rules.event_kind(e) in ("war", "quest"))
    expect(ann.locator("[data-own]").get_by_role("button", name=f"Reveal {event}")).to_be_visible()
    expect(ann.locator("#panel_live")).not_to_contain_text("discards one of the 3 events")
