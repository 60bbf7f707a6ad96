"""Playing moves through the API in tests: the one `play` and the one `refused` every API test
file uses."""

from companion.models import Session


def moves_url(session, tail="moves/"):
    return f"/api/sessions/{session.pk}/{tail}"


def snapshot(session):
    """What a refusal must leave as it was: the version, the state and the log."""
    found = Session.objects.get(pk=session.pk)
    return found.version, found.state, list(found.moves.values_list("seq", "undone"))


def play(client, session, move_type, *, status=201, **fields):
    """Post the move `move_type` with its fields; the answer's body (its status checked)."""
    response = client.post(moves_url(session), {"type": move_type, **fields}, format="json")
    assert response.status_code == status, response.json()
    return response.json()


def refused(client, session, move_type, match=None, *, code="rule", status=400, field=None,
            **fields):
    """The move is refused with `status` and `code` (and a sentence containing `match`, about
    `field`), and changes nothing. Returns the answer's body."""
    before = snapshot(session)
    body = play(client, session, move_type, status=status, **fields)
    assert body["code"] == code, body
    if match is not None:
        assert match in body["detail"], body["detail"]
    if field is not None:
        assert field in body["fields"], body
    assert snapshot(session) == before
    return body
