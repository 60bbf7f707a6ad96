from tests.factories import session_for
from tests.views.helpers import assert_phone_ready, browser_for


def test_home_for_a_visitor_offers_sign_up_and_join(db):
    response = browser_for().get("/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    assert "Create a host account" in html and "Join with a code" in html


def test_home_for_a_host_lists_their_recent_games_only(alice, charlie):
    mine = session_for(alice, players=["Vanessa", "Peter"])
    session_for(charlie, players=["Zed"])
    html = browser_for(alice).get("/").content.decode().split("<main>")[1]  # not the CSRF token
    assert f"/s/{mine.pk}/" in html and "Vanessa, Peter" in html and "Tiny ·" in html
    assert "Zed" not in html


def test_the_page_sets_csrf_in_body_hx_headers(alice):
    html = browser_for(alice).get("/").content.decode()
    assert "<body hx-headers='{\"X-CSRFToken\": \"" in html


def test_a_signed_in_header_folds_the_accounts_pages_into_one_menu(alice):
    html = browser_for(alice).get("/").content.decode()
    header = html.split('<header class="top">')[1].split("</header>")[0]
    menu = header.split('<details class="menu" id="menu">')[1].split("</details>")[0]
    for address in ("/players/", "/me/", "/groups/", "/logout/"):
        assert f'"{address}"' in menu, address
    assert "Sign out (alice)" in menu and 'href="/history/"' in header.split("<details")[0]
