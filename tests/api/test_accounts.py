def test_register_answers_a_token(anonymous):
    response = anonymous.post("/api/auth/register/",
                              {"username": "dora", "password": "windmills at dusk"}, format="json")
    assert response.status_code == 201
    assert len(response.json()["token"]) >= 20


def test_register_refuses_a_taken_name(anonymous, alice):
    response = anonymous.post("/api/auth/register/",
                              {"username": "Alice", "password": "windmills at dusk"},
                              format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "taken" in response.json()["detail"]


def test_register_refuses_a_weak_password(anonymous):
    response = anonymous.post("/api/auth/register/", {"username": "dora", "password": "123"},
                              format="json")
    assert response.status_code == 400
    assert "password" in response.json()["fields"]


def test_register_refuses_a_missing_field(anonymous):
    response = anonymous.post("/api/auth/register/", {"username": "dora"}, format="json")
    assert response.status_code == 400
    assert response.json()["fields"]["password"]


def test_token_for_good_credentials(anonymous, alice):
    response = anonymous.post("/api/auth/token/",
                              {"username": "alice", "password": "a long table password"},
                              format="json")
    assert response.status_code == 200
    assert response.json()["token"]


def test_token_refused_for_bad_credentials(anonymous, alice):
    response = anonymous.post("/api/auth/token/", {"username": "alice", "password": "nope"},
                              format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "That user name and password do not match."


def test_token_for_the_user_name_in_another_case(anonymous, alice):
    response = anonymous.post("/api/auth/token/",
                              {"username": "Alice", "password": "a long table password"},
                              format="json")
    assert response.status_code == 200 and response.json()["token"]
