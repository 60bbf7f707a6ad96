"""The join QR code on the host's table renders in the browser and reads back as the join link;
tapped, it fills the screen to be scanned across the table (issue 52, point 5)."""

import io

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_rendered_qr_code_decodes_to_the_join_link(host_phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    image = host.get_by_role("img", name="QR code to join this game: show it larger")
    expect(image).to_be_visible()
    assert host.evaluate("img => img.naturalWidth", image.element_handle()) > 0
    shot = Image.open(io.BytesIO(image.screenshot()))
    # The link is in the folded settings: read, not seen.
    join_link = host.locator(".join a", has_text=f"/join/{game.code}/").text_content()
    assert [code.text for code in zxingcpp.read_barcodes(shot)] == [join_link]
    assert join_link.endswith(f"/join/{game.code}/")


def test_a_tapped_qr_code_fills_the_screen_and_still_reads(host_phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.get_by_role("img", name="QR code to join this game: show it larger").click()
    large = host.locator("#qr-full img")
    expect(large).to_be_visible()
    box = large.bounding_box()
    assert box["width"] >= 280 and box["height"] >= 280, box
    shot = Image.open(io.BytesIO(large.screenshot()))
    assert [code.text for code in zxingcpp.read_barcodes(shot)][0].endswith(f"/join/{game.code}/")
    host.get_by_role("link", name="Close").click()
    expect(large).to_be_hidden()
