from companion.models import Move, Session


def post(client, game, headers=None, **body):
    return client.post(f"/api/sessions/{game.pk}/moves/", {"type": "add", **body},
                       format="json", **(headers or {}))


def snapshot(game):
    session = Session.objects.get(pk=game.pk)
    return session.version, session.state, list(session.moves.values_list("seq", "undone"))


def test_a_move_answers_201_with_seq_summary_and_session(as_alice, game):
    response = post(as_alice, game, seat=0, points=4)
    assert response.status_code == 201
    body = response.json()
    assert (body["seq"], body["type"], body["summary"]) == (1, "add", "Vanessa +4")
    assert body["session"]["version"] == 1
    assert body["session"]["state"]["scores"] == [4, 0]
    assert body["session"]["standings"][0] == {"seat": 0, "name": "Vanessa", "score": 4,
                                               "rank": 1, "winner": False,
                                               "leader": True, "details": {}}


def test_a_rule_refusal_is_400_rule_and_changes_nothing(as_alice, game):
    before = snapshot(game)
    response = post(as_alice, game, seat=0, points=7)
    assert response.status_code == 400
    assert response.json() == {"detail": "Seven is unlucky: the rules refuse it.",
                               "code": "rule", "fields": {"points": [
                                   "Seven is unlucky: the rules refuse it."]}}
    assert snapshot(game) == before


def test_a_shape_refusal_is_400_invalid_with_fields(as_alice, game):
    before = snapshot(game)
    response = post(as_alice, game, seat="left", points=2)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and "seat" in body["fields"]
    assert body["detail"].startswith("seat:")
    assert snapshot(game) == before


def test_an_unknown_move_type_is_400(as_alice, game):
    response = as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "fly"}, format="json")
    assert response.status_code == 400
    assert "no move called 'fly'" in response.json()["detail"]
    response = as_alice.post(f"/api/sessions/{game.pk}/moves/", {}, format="json")
    assert response.status_code == 400 and response.json()["fields"]["type"]


def test_if_match_stale_is_412_with_the_current_session(as_alice, game):
    post(as_alice, game, seat=0, points=1)
    response = post(as_alice, game, headers={"HTTP_IF_MATCH": '"0"'}, seat=1, points=1)
    assert response.status_code == 412
    body = response.json()
    # The body is the Session as it is now: its code is the table's join code (a client
    # refreshes from it), with the sentence beside it.
    assert body["version"] == 1 and body["id"] == game.pk and body["code"] == game.code
    assert body["detail"].startswith("Someone at the table changed this")
    assert body["state"]["scores"] == [1, 0]
    assert post(as_alice, game, headers={"HTTP_IF_MATCH": '"1"'}, seat=1,
                points=1).status_code == 201


def test_if_match_star_is_any_version(as_alice, game):
    """RFC 9110: `If-Match: *` holds for a resource that exists (it was a 400)."""
    post(as_alice, game, seat=0, points=2)
    assert post(as_alice, game, headers={"HTTP_IF_MATCH": "*"}, seat=1,
                points=1).status_code == 201
    assert as_alice.post(f"/api/sessions/{game.pk}/undo/", HTTP_IF_MATCH="*").status_code == 200


def test_a_malformed_if_match_is_400(as_alice, game):
    response = post(as_alice, game, headers={"HTTP_IF_MATCH": "soon"}, seat=1, points=1)
    assert response.status_code == 400


def test_idempotency_key_repeat_returns_the_first_answer(as_alice, game):
    headers = {"HTTP_IDEMPOTENCY_KEY": "6f1c3c1e-2b1f-4a53-9a57-1d2c1f3a0b11"}
    first = post(as_alice, game, headers=headers, seat=0, points=2)
    post(as_alice, game, seat=1, points=3)  # the table moves on
    again = post(as_alice, game, headers=headers, seat=0, points=2)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Move.objects.filter(session=game).count() == 2


def test_idempotency_key_with_another_body_is_422(as_alice, game):
    headers = {"HTTP_IDEMPOTENCY_KEY": "k-1"}
    post(as_alice, game, headers=headers, seat=0, points=2)
    response = post(as_alice, game, headers=headers, seat=0, points=3)
    assert response.status_code == 422
    assert Move.objects.filter(session=game).count() == 1


def test_a_finished_session_refuses_moves_with_409(as_alice, game):
    post(as_alice, game, seat=0, points=10)
    post(as_alice, game, seat=0, points=10)
    response = post(as_alice, game, seat=1, points=1)
    assert response.status_code == 409
    assert "over" in response.json()["detail"]


def test_moves_list(as_alice, game):
    post(as_alice, game, seat=0, points=2)
    post(as_alice, game, seat=1, points=3)
    as_alice.post(f"/api/sessions/{game.pk}/undo/")
    moves = as_alice.get(f"/api/sessions/{game.pk}/moves/").json()
    assert [(m["seq"], m["type"], m["data"], m["seat"], m["summary"], m["undone"])
            for m in moves] == [(1, "add", {"seat": 0, "points": 2}, 0, "Vanessa +2", False),
                                (2, "add", {"seat": 1, "points": 3}, 1, "Peter +3", True)]
    assert all(m["created_at"] for m in moves)


def test_undo_answers_the_session_and_409_when_nothing_is_left(as_alice, game):
    post(as_alice, game, seat=0, points=2)
    response = as_alice.post(f"/api/sessions/{game.pk}/undo/")
    assert response.status_code == 200
    assert response.json()["state"]["scores"] == [0, 0] and response.json()["version"] == 2
    assert as_alice.post(f"/api/sessions/{game.pk}/undo/").status_code == 409


def test_undo_with_stale_if_match_is_412(as_alice, game):
    post(as_alice, game, seat=0, points=2)
    response = as_alice.post(f"/api/sessions/{game.pk}/undo/", HTTP_IF_MATCH='"0"')
    assert response.status_code == 412
    assert (response.json()["version"], response.json()["code"]) == (1, game.code)


def test_undo_reopens_a_finished_session(as_alice, game):
    post(as_alice, game, seat=0, points=10)
    post(as_alice, game, seat=0, points=10)
    assert as_alice.get(f"/api/sessions/{game.pk}/").json()["status"] == "finished"
    body = as_alice.post(f"/api/sessions/{game.pk}/undo/").json()
    assert body["status"] == "active" and body["finished_at"] is None


def test_a_repeat_from_another_device_gets_its_own_view_of_the_session(as_alice, as_bob, game):
    headers = {"HTTP_IDEMPOTENCY_KEY": "shared-key"}
    first = post(as_bob, game, headers=headers, seat=1, points=2)
    again = post(as_alice, game, headers=headers, seat=1, points=2)
    assert again.status_code == 201
    assert {k: again.json()[k] for k in ("seq", "type", "summary")} == \
        {k: first.json()[k] for k in ("seq", "type", "summary")}
    assert Move.objects.filter(session=game).count() == 1


def test_the_moves_list_comes_in_pages_with_a_link_to_the_next(as_alice, game):
    for points in (1, 2, 3, 4, 5):
        post(as_alice, game, seat=0, points=points)
    first = as_alice.get(f"/api/sessions/{game.pk}/moves/?limit=2")
    assert [move["seq"] for move in first.json()] == [1, 2]
    assert first["Link"].endswith('moves/?after=2&limit=2>; rel="next"')
    last = as_alice.get(f"/api/sessions/{game.pk}/moves/?after=4&limit=2")
    assert [move["seq"] for move in last.json()] == [5]
    assert "Link" not in last
    assert len(as_alice.get(f"/api/sessions/{game.pk}/moves/").json()) == 5
    assert as_alice.get(f"/api/sessions/{game.pk}/moves/?after=²").status_code == 400


def test_a_repeat_says_its_summary_in_the_repeats_language(as_alice, alice):
    """The answer is the first one, its sentence said as the repeat asked: a summary stored in
    English came back labelled Content-Language: es."""
    from tests.factories import session_for

    pad = session_for(alice, game="pad")
    headers = {"HTTP_IDEMPOTENCY_KEY": "5d0c9a1e-7c1f-4e53-8a57-2d2c1f3a0b12"}
    body = {"type": "score", "seat": 0, "points": 5}
    first = as_alice.post(f"/api/sessions/{pad.pk}/moves/", body, format="json", **headers)
    again = as_alice.post(f"/api/sessions/{pad.pk}/moves/", body, format="json",
                          HTTP_ACCEPT_LANGUAGE="es", **headers)
    assert first.status_code == again.status_code == 201
    assert again["Content-Language"] == "es"
    assert again.json()["summary"] != first.json()["summary"]
    assert again.json()["seq"] == first.json()["seq"]
    english = as_alice.post(f"/api/sessions/{pad.pk}/moves/", body, format="json", **headers)
    assert english.json() == first.json()
