"""The relay reads a notified ``update`` frame's ``by`` and ``events`` without parsing its state."""

from __future__ import annotations

import json

import pytest

from pasch.engine._log import new_game
from pasch.web._json import dumps
from pasch.web._relay import _frame_head
from pasch.web._view import state_view


@pytest.mark.parametrize("events", [["roll", "throw 1 2 3 4 5"], ["score 3"], ['chat ,"state":x']])
def test_the_head_of_a_notified_frame_is_its_by_and_events(events: list[str]) -> None:
    view = state_view(new_game("kniffel", ["Ada", 'Bo ,"state":', "Cy"]), 7)
    frame = dumps({"type": "update", "by": 2, "events": events, "state": view})
    head = _frame_head(frame)
    assert (head["by"], head["events"]) == (2, events)


def test_other_orders_and_bad_text_are_parsed_whole() -> None:
    frame = json.dumps({"state": {"a": 1}, "events": ["roll"], "by": 0}, separators=(",", ":"))
    assert _frame_head(frame) == {"state": {"a": 1}, "events": ["roll"], "by": 0}
    # "state" first inside another object: the head lacks by/events, so the whole frame is read.
    frame = dumps({"type": "update", "x": {"y": 1, "state": 2}, "by": 1, "events": ["keep"], "state": {}})
    assert _frame_head(frame)["events"] == ["keep"]
    with pytest.raises(ValueError):
        _frame_head('{"by":1,"events":[] nope')
