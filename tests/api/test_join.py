from companion.models import Guest


def test_join_answers_a_token(anonymous, game):
    response = anonymous.post("/api/join/", {"code": game.code, "seat": 1}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["session"] == game.pk
    assert Guest.objects.get(token=body["token"]).seat == 1


def test_join_without_a_seat_and_in_lower_case(anonymous, game):
    response = anonymous.post("/api/join/", {"code": game.code.lower(), "seat": None},
                              format="json")
    assert response.status_code == 201
    assert Guest.objects.get(token=response.json()["token"]).seat is None


def test_join_unknown_code_is_404(anonymous, db):
    assert anonymous.post("/api/join/", {"code": "ZZZZZZ"}, format="json").status_code == 404


def test_join_finished_code_is_404(anonymous, as_alice, game):
    for _ in range(2):
        as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": 0, "points": 10},
                      format="json")
    assert anonymous.post("/api/join/", {"code": game.code}, format="json").status_code == 404


def test_join_a_claimed_seat_is_409(anonymous, game, bob):
    response = anonymous.post("/api/join/", {"code": game.code, "seat": 1}, format="json")
    assert response.status_code == 409
    assert Guest.objects.filter(session=game).count() == 1  # nothing half-made


def test_join_an_unknown_seat_is_400(anonymous, game):
    response = anonymous.post("/api/join/", {"code": game.code, "seat": 5}, format="json")
    assert response.status_code == 400
    assert not Guest.objects.exists()
