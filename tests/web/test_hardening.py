"""Hardening of the server against a stranger's input (issue #13): headers, origins, text that is not
Unicode, deeply nested frames, HEAD, one name limit, and no broadcast storm from repeated joins."""

from __future__ import annotations

import json
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from ._support import WAIT, Client, Server


def _headers(server: Server, path: str, method: str = "GET") -> tuple[int, dict[str, str]]:
    req = urllib.request.Request(f"{server.http}{path}", method=method)
    with urllib.request.urlopen(req, timeout=WAIT) as r:
        return r.status, {k.lower(): v for k, v in r.headers.items()}


def test_pages_and_api_carry_the_security_headers_and_answer_head(server: Server) -> None:
    for path in ("/", "/r/ABCDEF", "/api/health", "/api/rules", "/static/app.js"):
        status, headers = _headers(server, path)
        assert status == 200
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    for page in ("/", "/r/ABCDEF"):
        assert _headers(server, page, "HEAD")[0] == 200
    status, _ = server.request("GET", "/docs")
    assert status == 404  # the CDN-loading documentation page is off unless --api-docs


def test_text_that_is_not_unicode_is_a_422_not_a_server_error(server: Server) -> None:
    status, body = server.request("POST", "/api/rooms", {"seats": [{"name": "\ud800"}]})
    assert status == 422, body
    status, body = server.request("POST", "/api/rooms", {"rules": "kniffel\udfff"})
    assert status == 422, body
    status, body = server.request("POST", "/api/rooms", {"seats": [{"name": "x" * 41}]})
    assert status == 422, body
    created = server.create([{"name": "N" * 40}])
    status, body = server.request("GET", f"/api/rooms/{created['code']}")
    assert body["room"]["seats"][0]["name"] == "N" * 40  # one limit: what the API accepts is kept whole


def test_nested_and_unencodable_frames_are_refused_and_the_connection_lives(server: Server) -> None:
    created = server.create([{"name": "Ada"}])
    ada = Client(server, created["code"], created["token"])
    ada.send("[" * 2000)
    assert ada.recv_type("error")["code"] == "bad_json"
    ada.send('{"type": "act", "action": "\\ud800"}')
    assert ada.recv_type("error")["code"] == "bad_message"
    ada.send({"type": "ping", "id": 1})
    assert ada.recv_type("pong")["id"] == 1
    assert ada.act("roll")["type"] == "ack"
    assert "Traceback" not in server.output()


def test_a_page_of_another_origin_cannot_open_a_websocket(server: Server) -> None:
    created = server.create([{"name": "Ada"}])
    url = f"{server.ws}/ws/{created['code']}"
    with pytest.raises(InvalidStatus) as exc:
        connect(url, origin="http://evil.example", open_timeout=WAIT)
    assert exc.value.response.status_code == 403
    host = server.http.removeprefix("http://")
    with connect(url, origin=f"http://{host}", open_timeout=WAIT) as ws:
        assert json.loads(ws.recv(timeout=WAIT))["type"] == "welcome"


def test_repeated_joins_do_not_broadcast_the_seats_again(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    bob = server.join(code)
    watcher = Client(server, code)
    ada = Client(server, code, created["token"])
    watcher.recv_type("seats")  # Ada came online: one seats frame
    for _ in range(20):
        ada.send({"type": "join", "token": created["token"]})
        ada.recv_type("welcome")
    Client(server, code, bob["token"])  # Bob comes online: the next seats frame
    seats = watcher.recv_type("seats")
    assert [s["online"] for s in seats["seats"]] == [True, True]
    assert sum(1 for m in watcher.seen if m["type"] == "seats") == 2
