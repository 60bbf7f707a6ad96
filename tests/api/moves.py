"""Playing moves through the API in tests: the one `play` and the one `refused` every API test
file uses."""

from companion.models import Session


def moves_url(session, tail="moves/"):
    return f"/api/sessions/{session.pk}/{tail}"


def snapshot(session):
    """What a refusal must leave as it was: the version, the state and the log."""
    found = Session.objects.get(pk=session.pk)
    return found.version, found.state, list(found.moves.values_list("seq", "undone"))


# The helpers' own arguments have names no move's field has (moves have a `status`, a `field`).

def play(client, session, type, *, answers=201, **fields):  # noqa: A002 (the move's own name)
    """Post the move `type` with its fields; the answer's body (its HTTP status checked)."""
    response = client.post(moves_url(session), {"type": type, **fields}, format="json")
    assert response.status_code == answers, response.json()
    return response.json()


def refused(client, session, type, match=None, *, code=None, answers=400,  # noqa: A002
            about=None, **fields):
    """The move is refused with HTTP status `answers` and `code` ("rule" by default for a 400),
    with a sentence containing `match` about the field `about`, and changes nothing. Returns
    the answer's body."""
    before = snapshot(session)
    body = play(client, session, type, answers=answers, **fields)
    if code is None and answers == 400:
        code = "rule"
    if code is not None:
        assert body["code"] == code, body
    if match is not None:
        assert match in body["detail"], body["detail"]
    if about is not None:
        assert about in body["fields"], body
    assert snapshot(session) == before
    return body
