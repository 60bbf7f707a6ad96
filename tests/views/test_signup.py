from django.contrib.auth import get_user_model

from tests.views.helpers import assert_phone_ready, browser_for


def test_sign_up_creates_the_account_and_signs_in(db):
    client = browser_for()
    assert_phone_ready(client.get("/signup/"))
    response = client.post("/signup/", {"username": "dora", "password": "windmills at dusk"})
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="dora").exists()
    assert "New game" in client.get("/").content.decode()


def test_sign_up_refusal_is_said_in_words(alice):
    response = browser_for().post("/signup/", {"username": "alice", "password": "x"})
    assert response.status_code == 400
    assert "The name alice is taken" in response.content.decode()


def test_sign_in_and_out(alice):
    client = browser_for()
    assert_phone_ready(client.get("/login/"))
    bad = client.post("/login/", {"username": "alice", "password": "wrong"})
    assert "do not match" in bad.content.decode()
    good = client.post("/login/", {"username": "alice", "password": "a long table password"})
    assert good.status_code == 302
    assert client.post("/logout/").status_code == 302


def test_a_user_name_signs_in_in_any_case_as_sign_up_counts_it(alice):
    # A phone's keyboard capitalises the first letter; sign-up refuses "Alice" beside "alice".
    for name in ("Alice", "ALICE", " alice "):
        client = browser_for()
        good = client.post("/login/", {"username": name, "password": "a long table password"})
        assert good.status_code == 302, name
        assert client.get("/history/").status_code == 200
    bad = browser_for().post("/login/", {"username": "Alice", "password": "wrong"})
    assert "do not match" in bad.content.decode()
    page = browser_for().get("/login/").content.decode()
    assert 'name="username"' in page and 'autocapitalize="none"' in page
    assert 'autocapitalize="none"' in browser_for().get("/signup/").content.decode()
