"""The JSON view of a game state that the server broadcasts (see ``docs/protocol.md``).

Everything here is read from the engine: the client draws it and never computes a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pasch.app import ColumnLayout, LayoutCache, seat_kinds, sheet_layout, sheet_rows
from pasch.engine import GameState, KnasterState, Roll, State, cell_name
from pasch.rules import BoxOption

__all__ = ["ViewCache", "rules_info", "state_view"]


class ViewCache:
    """The views of a room's sheet columns, kept between states.

    Columns are immutable and a new state shares the columns an action did not touch, so the layout of a
    column seen before is the same object (:class:`pasch.app.LayoutCache`) and so is its JSON: only the
    written column is recomputed per action. The cached dicts are shared between frames and must not be
    modified. ``actions`` holds the text of each box's score action (a room's rule set never changes).
    """

    __slots__ = ("actions", "columns", "layouts", "sheets")

    def __init__(self) -> None:
        self.layouts = LayoutCache()
        self.columns: dict[tuple[int, int], tuple[ColumnLayout, dict[str, Any]]] = {}
        self.actions: dict[tuple[int, int], str] = {}
        self.sheets: tuple[object, list[list[dict[str, Any]]], tuple[int, ...]] | None = None
        """The sheets last laid out (the state's ``sheets`` object), their views and grand totals: a roll or a keep
        leaves every sheet as it was, and the state after it the same ``sheets`` object."""


def rules_info(rules: Any) -> dict[str, Any]:
    """The static description of a rule set the page needs (boxes, columns, bonus), with the sheet's rows in
    drawing order (:func:`pasch.app.sheet_rows`: the page lays out no row of its own) and the seat kinds the
    room form offers (:func:`pasch.app.seat_kinds`)."""
    sheet = rules.kind.value == "sheet"
    return {
        "id": rules.id,
        "name": rules.name,
        "kind": rules.kind.value,
        "dice": rules.dice,
        "faces": rules.faces,
        "throws": rules.throws,
        "boxes": [{"id": c.id, "upper": c.is_upper} for c in rules.categories],
        "columns": [o.value for o in rules.columns],
        "bonus_threshold": rules.bonus_threshold,
        "bonus": rules.bonus,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "knaster": _knaster_info(rules.knaster) if rules.knaster is not None else None,
        "rows": [{"kind": r.kind.value, "box": r.box} for r in sheet_rows(rules)] if sheet else [],
        "seat_kinds": list(seat_kinds(rules)),
    }


def _knaster_info(kn: Any) -> dict[str, Any]:
    """Knaster's lines in the engine's line order (rows 1-5, columns a-e, diagonal a1-e5, diagonal e1-a5)."""
    n = kn.size
    cells = [
        *([r * n + c for c in range(n)] for r in range(n)),
        *([r * n + c for r in range(n)] for c in range(n)),
        [i * n + i for i in range(n)],
        [i * n + (n - 1 - i) for i in range(n)],
    ]
    values = [*kn.row_values, *kn.column_values, *kn.diagonal_values]
    return {"size": n, "lines": [{"cells": c, "value": v} for c, v in zip(cells, values, strict=True)]}


def _column_view(col: ColumnLayout) -> dict[str, Any]:
    return {
        "scores": list(col.scores),
        "doubled": sorted(col.doubled),
        "upper": col.upper,
        "bonus": col.bonus,
        "lower": col.lower,
        "extra": col.extra,
        "total": col.total,
        "upper_open": col.upper_open,
    }


def _sheet_view(state: GameState, cache: ViewCache | None) -> tuple[dict[str, Any], tuple[int, ...]]:
    """The sheet part of the view, and each player's grand total."""
    seen = cache.sheets if cache is not None else None
    if seen is not None and seen[0] is state.sheets:  # nothing written since: only the dice and what they pay
        sheets, grand = seen[1], seen[2]
        boxes: Mapping[tuple[int, int], BoxOption] = {(c, o.index): o for c, o in state.score_options()}
    else:
        layout = sheet_layout(state, cache.layouts if cache is not None else None)
        sheets = [[] for _ in layout.players]
        for col in layout.columns:
            key = (col.player, col.column)
            hit = cache.columns.get(key) if cache is not None else None
            if hit is not None and hit[0] is col:
                view = hit[1]
            else:
                view = _column_view(col)
                if cache is not None:
                    cache.columns[key] = (col, view)
            sheets[col.player].append(view)
        grand, boxes = layout.grand_totals, layout.options
        if cache is not None:
            cache.sheets = (state.sheets, sheets, grand)
    texts = cache.actions if cache is not None else {}
    options = []
    for (c, i), o in boxes.items():
        text = texts.get((c, i))
        if text is None:
            text = texts[(c, i)] = str(state.score_action(c, i))
        options.append({"column": c, "box": i, "points": o.total, "action": text})
    # The engine's answers without listing every legal action (after a throw that is every keep: a third of the
    # view's time on a five-dice sheet); only a rule set with an announced column can hold announcements.
    announce = [str(a) for a in state.announcements()] if state.rules.announced_column is not None else []
    return {
        "sheets": sheets,
        "dice": list(state.dice) if state.dice is not None else None,
        "throws": state.throws,
        "throws_left": state.throws_left,
        "sharp": state.sharp,
        "announced": state.announced,
        "options": options,
        "can_roll": state.can_roll,
        "can_keep": state.can_keep,
        "announce": announce,
        "can_enter": state.keeper and state.dice is None and not state.is_terminal,
    }, grand


def _knaster_view(state: KnasterState) -> dict[str, Any]:
    kn = state.knaster
    n_lines = 2 * kn.size + 2
    grids = []
    for g in state.grids:
        grids.append(
            {
                "numbers": list(g.numbers),
                "circled": [bool(g.circled >> i & 1) for i in range(25)],
                "complete": [k for k in range(n_lines) if g.is_complete(k)],
                "scored": [k for k in range(n_lines) if g.is_scored(k)],
                "line_points": g.line_points(kn),
                "circles": g.circles,
            }
        )
    legal = state.legal_actions() if not state.is_chance_node else ()
    return {
        "grids": grids,
        "cells": [cell_name(r, c) for r in range(5) for c in range(5)],
        "dice": list(state.dice) if state.dice is not None else None,
        "number": state.number,
        "duties": [str(d) for d in state.duties],
        "duty_lines": [{"line": d.line, "owed": d.owed, "combination": d.combination} for d in state.duties],
        "legal": [str(a) for a in legal],
        "can_roll": any(isinstance(a, Roll) for a in legal),
        "last_number": state.end_announced,
    }


def state_view(state: State, seq: int, cache: ViewCache | None = None) -> dict[str, Any]:
    """The whole public state after event ``seq`` (the number of events applied).

    Args:
        state: the game state.
        seq: events applied to reach it.
        cache: the room's column views, reused where a column did not change.
    """
    terminal = bool(state.is_terminal)
    view: dict[str, Any] = {
        "seq": seq,
        "players": list(state.players),
        "current": state.current_player,
        "round": state.round,
        "terminal": terminal,
        "pending": state.pending,
        "keeper": bool(state.keeper),
    }
    if isinstance(state, KnasterState):
        view["totals"] = list(state.totals())
        view["kind"] = "knaster"
        view.update(_knaster_view(state))
    elif isinstance(state, GameState):
        view["kind"] = "sheet"
        sheet, grand = _sheet_view(state, cache)
        view.update(sheet)
        view["totals"] = list(grand)
    if terminal:
        out = state.outcome()
        view["outcome"] = {"ranks": list(out.ranks), "winners": list(out.winners)}
    return view
