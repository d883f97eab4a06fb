"""A seat claim can no longer break a room (issue 25): a name already seated is refused as ``name_taken`` before
anything is written, and the room plays on."""

from __future__ import annotations

import pytest

from ._support import Client, Server, play


@pytest.mark.parametrize(
    "name",
    [
        "Ada",  # the one-request breaker: a stranger claims a seat with a seated player's name
        "ada",  # a friend whose name differs only in case
        "  Ada  ",  # the same once blanks are cleaned
    ],
)
def test_a_taken_name_is_refused_and_changes_nothing(server: Server, name: str) -> None:
    created = server.create([{"name": "Ada"}, {"name": ""}, {"name": ""}])
    code = created["code"]
    before = server.request("GET", f"/api/rooms/{code}")[1]["room"]
    status, body = server.request("POST", f"/api/rooms/{code}/join", {"name": name})
    assert status == 409 and body["detail"]["code"] == "name_taken", body
    after = server.request("GET", f"/api/rooms/{code}")[1]["room"]
    assert after["seats"] == before["seats"]  # no seat claimed, no name written
    # The seat is still free for someone else, and the room plays on with both.
    status, bea = server.request("POST", f"/api/rooms/{code}/join", {"name": "Bea"})
    assert status == 200 and bea["seat"] == 1
    seats = server.request("GET", f"/api/rooms/{code}")[1]["room"]["seats"]
    assert [s["name"] for s in seats][:2] == ["Ada", "Bea"] and seats[1]["claimed"] and not seats[2]["claimed"]


def test_add_a_player_here_with_the_creators_own_name_is_refused(server: Server) -> None:
    """The page prefilled "Add a player here" with the creator's own name; clicking it broke the room."""
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    status, body = server.request("POST", f"/api/rooms/{code}/join", {"seat": 1, "name": "Ada"})
    assert status == 409 and body["detail"]["code"] == "name_taken"
    status, bob = server.request("POST", f"/api/rooms/{code}/join", {"seat": 1})  # Bob's own name: fine
    assert status == 200
    ada, bob_client = Client(server, code, created["token"]), Client(server, code, bob["token"])
    play({0: ada, 1: bob_client})  # the whole game: the room was not broken
    assert ada.state["terminal"]
