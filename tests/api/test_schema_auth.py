"""The schema says what each operation needs, as the server checks it: the public ones (register,
token, health, games, join) no credentials at all, a host's a token or the pages' cookie (never
nothing), and a session's a token, the cookie or a guest's X-Guest-Token header; and where DRF
refuses before a view runs (406, 415). A generated client can then call each operation as the
server expects it."""

import pytest
import yaml
from django.core.management import call_command

PUBLIC = {("post", "/api/auth/register/"), ("post", "/api/auth/token/"),
          ("get", "/api/health/"), ("get", "/api/games/"), ("post", "/api/join/")}
HOST = [{"knoxApiToken": []}, {"cookieAuth": []}]


@pytest.fixture(scope="module")
def operations(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", "--file", str(path))
    schema = yaml.safe_load(path.read_text())
    assert set(schema["components"]["securitySchemes"]) >= {"knoxApiToken", "cookieAuth"}
    return {(method, path): operation for path, item in schema["paths"].items()
            for method, operation in item.items() if isinstance(operation, dict)}


def test_the_public_operations_need_no_credentials(operations):
    assert {key for key, operation in operations.items() if "security" not in operation} \
        == PUBLIC


def test_every_other_operation_names_what_it_needs(operations):
    for key, operation in operations.items():
        if key not in PUBLIC:
            schemes = {name for requirement in operation["security"] for name in requirement}
            assert schemes <= {"knoxApiToken", "cookieAuth"}, key


@pytest.mark.django_db
def test_an_operation_that_needs_a_host_refuses_nobody_with_the_sentence(operations, client):
    needs_host = [(method, path) for (method, path), operation in operations.items()
                  if operation.get("security") == HOST]
    assert len(needs_host) == 35  # 17, a player's own history's 5 and groups' 13 (issue 51)
    for method, path in needs_host:
        url = (path.replace("{id}", "1").replace("{slug}", "pad").replace("{device}", "x")
               .replace("{username}", "ana").replace("{player}", "1"))
        answer = getattr(client, method)(url, content_type="application/json")
        assert answer.status_code == 401, (method, path, answer.status_code)
        assert answer.json()["detail"] == "Sign in: send Authorization: Token <token>."


@pytest.mark.django_db
def test_a_public_operation_answers_whatever_token_comes(client):
    ended = {"HTTP_AUTHORIZATION": "Token a-token-that-ended-long-ago"}
    assert client.get("/api/games/", **ended).status_code == 200
    assert client.get("/api/health/", **ended).status_code == 200


def test_the_refusals_before_a_view_are_documented_where_they_happen(operations):
    for (method, path), operation in operations.items():
        if operation["operationId"] == "sessions_events":
            continue
        assert "406" in operation["responses"], (method, path)
        assert ("415" in operation["responses"]) == ("requestBody" in operation), (method, path)


@pytest.mark.django_db
def test_the_server_gives_them_as_documented(client):
    refused = client.get("/api/games/", HTTP_ACCEPT="application/xml")
    assert refused.status_code == 406 and set(refused.json()) == {"detail", "code"}
    refused = client.post("/api/join/", "code=ABC", content_type="text/plain")
    assert refused.status_code == 415 and set(refused.json()) == {"detail", "code"}
