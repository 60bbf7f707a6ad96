"""Two phones of one table reading two languages: each move pushed to the other phone arrives in
that phone's own language (the fragments are rendered once per version and language)."""

import re

import pytest
from playwright.sync_api import expect

from companion.models import Session
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def score(page, points):
    own = page.locator("#pad-own")
    own.locator("#pad-own-points").fill(str(points))
    own.locator("button:not([type=button])").click()  # Save, in either language


def test_each_phone_gets_the_other_phones_moves_in_its_own_language(host_phone, phone, alice):
    session = session_for(alice, game="pad", players=["Ana", "Ben"],
                          options={"game": "Hearts", "rounds": 3})
    Session.objects.filter(pk=session.pk).update(host_seat=0)
    ana = host_phone(locale="es-ES")
    ana.goto(f"/s/{session.pk}/")
    ben = guest_phone_for(phone, session, "Ben", locale="en-US")
    for page in (ana, ben):
        page.wait_for_selector("#table[data-stream=open]", state="attached")

    score(ben, 4)  # pushed to Ana's phone, in Spanish
    expect(ana.locator("#log li").first).to_contain_text(re.compile(r"Ben.*ronda", re.I))
    expect(ben.locator("#log li").first).to_contain_text(re.compile(r"Ben.*round", re.I))

    score(ana, 6)  # pushed to Ben's phone, in English
    expect(ben.locator("#log li").first).to_contain_text(re.compile(r"Ana.*round", re.I))
    expect(ana.locator("#log li").first).to_contain_text(re.compile(r"Ana.*ronda", re.I))
    # The table of rounds, pushed, reads each phone's language around the same numbers.
    expect(ana.locator("#pad-table")).to_contain_text("Ronda")
    expect(ben.locator("#pad-table")).to_contain_text("Round")
