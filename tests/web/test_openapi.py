"""Issue 32, point 6: the REST API is documented by its schema. A developer opens /docs or reads /openapi.json and
finds every route with its request and response bodies; a request that does not fit is refused with where and
what, in the API's one error format."""

from __future__ import annotations

from typing import Any

from .server_fixtures import server

ERROR_FORMAT = {"error"}


#: POST routes whose input is their path and query only
NO_BODY = {"/api/games/{key}/analysis", "/api/match/{ticket}/cancel", "/api/accounts/signout"}


def test_every_rest_route_has_its_models() -> None:
    """Read from the schema a developer reads: each operation names its answer's model (or its text), each POST
    its body's model."""
    with server() as client:
        paths: dict[str, Any] = client.get("/openapi.json").json()["paths"]
    operations = [(path, method, op) for path, ops in paths.items() for method, op in ops.items()]
    assert len(operations) >= 17
    assert all(path.startswith("/api/") or path in ("/health", "/metrics") for path, _, _ in operations)
    for path, method, op in operations:
        ok = next(code for code in op["responses"] if code.startswith("2"))
        content = op["responses"][ok].get("content", {})
        schema = content.get("application/json", {}).get("schema", {})
        assert "text/plain" in content or "$ref" in schema or "$ref" in schema.get("items", {}), (path, method)
        if method == "post" and path not in NO_BODY:
            body = op["requestBody"]["content"]["application/json"]["schema"]
            assert "$ref" in body, (path, method)


def test_the_schema_documents_bodies_and_the_error_format() -> None:
    with server() as client:
        schema: dict[str, Any] = client.get("/openapi.json").json()
        paths = schema["paths"]
        create = paths["/api/games"]["post"]
        body = create["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/NewGame"}
        fields = schema["components"]["schemas"]["NewGame"]["properties"]
        assert {"game", "options", "seats", "private", "clock"} <= set(fields)
        assert create["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("Invitations")
        assert create["responses"]["400"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
        assert "/api/games/{key}/join" in paths and "/api/match" in paths and "/api/games/{key}/analysis" in paths
        # the pages are not API
        assert "/" not in paths and "/play/{key}" not in paths
        docs = client.get("/docs")
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        assert "/openapi.json" in docs.text


def test_a_request_that_does_not_fit_says_where_and_what() -> None:
    with server() as client:
        answer = client.post("/api/games", json={"game": "laplaplace", "seats": [{"kind": "robot"}]})
        assert answer.status_code == 400
        assert set(answer.json()) == ERROR_FORMAT
        message = answer.json()["error"]["message"]
        assert "seats.0.kind" in message and "human" in message
        answer = client.post("/api/games", json={"seats": []})
        assert answer.json()["error"]["message"] == "game is missing"
        answer = client.post("/api/games/nokey/join", json={"token": 5})
        assert answer.status_code == 400 and "token" in answer.json()["error"]["message"]
        assert client.get("/api/games").json() == []


def test_a_body_too_large_is_refused_whether_declared_or_streamed() -> None:
    with server() as client:
        big = b'{"game": "' + b"x" * 20_000 + b'"}'
        answer = client.post("/api/games", content=big, headers={"content-type": "application/json"})
        assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too_large")

        def chunks() -> Any:  # no Content-Length: the body streams in pieces
            for _ in range(40):
                yield b" " * 1000

        answer = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
        assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too_large")
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
