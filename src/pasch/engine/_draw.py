"""Plain-text drawings of a position: ``str(state)`` (every sheet or grid, the dice, whose turn)."""

from __future__ import annotations

from pasch.engine._knaster import KnasterState
from pasch.engine._state import GameState

__all__ = ["draw_game", "draw_knaster"]

_ORDER_LABEL = {"free": "free", "down": "down", "up": "up", "announced": "ann."}


def _dice(dice: tuple[int, ...]) -> str:
    return " ".join(str(d) for d in dice)


def _game_status(state: GameState) -> str:
    if state.is_terminal:
        out = state.outcome()
        return "game over; won by " + ", ".join(out.winners) + f" with {max(out.totals)}"
    where = f"round {state.round}, {state.current_name} to act"
    if state.dice is None:
        what = "enter the dice" if state.keeper else "roll"
    elif state.pending:
        kept = f"kept {_dice(state.dice)}, " if state.dice else ""
        what = f"{kept}{state.pending} dice in the air (throw {state.throws + 1} of {state.rules.throws})"
    else:
        what = f"dice {_dice(state.dice)}" + (" sharp" if state.sharp and state.rules.sharp else "")
        if not state.keeper:
            what += f" (throw {state.throws} of {state.rules.throws})"
    if state.announced is not None:
        what += f"; announced {state.rules.categories[state.announced].id}"
    return f"{where}: {what}"


def draw_game(state: GameState) -> str:
    """Every player's sheet (boxes, sums, bonus, extra points, totals), then the dice and whose turn it is.

    Open boxes show ``-``; ``*`` marks a box doubled by ``+sharp``; ``>`` marks the player to act.
    """
    rules = state.rules
    n_cols = rules.n_columns
    cells: list[tuple[int, int]] = [(p, c) for p in range(len(state.players)) for c in range(n_cols)]
    totals = {(p, c): state.column_totals(p, c) for p, c in cells}
    rows: list[tuple[str, list[str]]] = []

    def box(p: int, c: int, i: int) -> str:
        col = state.sheets[p].columns[c]
        s = col.scores[i]
        if s is None:
            return "-"
        return f"{s}*" if i in col.doubled else str(s)

    upper = rules.upper_indices
    lower = [i for i in range(len(rules.categories)) if i not in upper]
    for i in upper:
        rows.append((rules.categories[i].id, [box(p, c, i) for p, c in cells]))
    if upper:
        rows.append(("upper sum", [str(totals[k].upper) for k in cells]))
        if rules.bonus_threshold is not None:
            rows.append((f"bonus ({rules.bonus} at {rules.bonus_threshold})", [str(totals[k].bonus) for k in cells]))
    for i in lower:
        rows.append((rules.categories[i].id, [box(p, c, i) for p, c in cells]))
    rows.append(("lower sum", [str(totals[k].lower) for k in cells]))
    if any(totals[k].extra for k in cells) or rules.extra.value != "none":
        rows.append(("extra", [str(totals[k].extra) for k in cells]))
    rows.append(("total", [str(totals[k].total) for k in cells]))
    if n_cols > 1:
        rows.append(("grand total", [str(state.total(p)) if c == n_cols - 1 else "" for p, c in cells]))

    mark = "" if state.is_terminal else ">"
    names = [(mark if p == state.current else "") + name for p, name in enumerate(state.players)]
    width = max(5, *(len(v) for _, vals in rows for v in vals))
    if n_cols == 1:
        width = max(width, *(len(n) for n in names))
    label = max(len(r[0]) for r in rows)
    header = [" " * label + "".join(f" {n:>{width * n_cols + n_cols - 1}}" for n in names)]
    if n_cols > 1:
        orders = [_ORDER_LABEL[o.value] for o in rules.columns]
        header.append(" " * label + "".join(f" {orders[c]:>{width}}" for _, c in cells))
    body = [f"{name:<{label}}" + "".join(f" {v:>{width}}" for v in vals) for name, vals in rows]
    title = f"{rules.name} ({rules.id})" + (", score keeper" if state.keeper else "")
    return "\n".join([title, *header, *body, _game_status(state)])


def draw_knaster(state: KnasterState) -> str:
    """Every player's grid with line values and totals, then the called number, whose turn and duties."""
    kn = state.knaster
    parts = [f"{state.rules.name} ({state.rules.id})" + (", score keeper" if state.keeper else "")]
    for p, name in enumerate(state.players):
        mark = ">" if p == state.current and not state.over else ""
        parts.append(f"{mark}{name}\n{state.grids[p].render(kn)}")
    if state.over:
        out = state.outcome()
        status = "game over; won by " + ", ".join(out.winners) + f" with {max(out.totals)}"
    else:
        last = " (the last number)" if state.end_announced else ""
        thrower = state.players[state.thrower]
        if state.pending:
            status = f"{thrower} throws{last}: {state.pending} dice in the air"
        elif state.number is None or state.dice is None:
            status = f"{thrower} to roll{last}"
        else:
            status = (
                f"number {state.number} ({_dice(state.dice)}){last}, thrown by {thrower}; {state.current_name} to act"
            )
            if state.duties:
                status += "; must first circle " + "; ".join(str(d) for d in state.duties)
    parts.append(status)
    return "\n".join(parts)
