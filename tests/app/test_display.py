"""The display model every interface renders (issue 29): the sheet's rows, the seat kinds, the rules card."""

from __future__ import annotations

from pasch.app import RowKind, rules_card, seat_kinds, seat_label, sheet_layout, sheet_rows
from pasch.engine import new_game
from pasch.i18n import set_language
from pasch.rules import get


def test_rows_are_the_rule_sets_own() -> None:
    """Yatzy has no extra points and no lower sum; Kniffel has extra points; several columns a grand total."""
    yatzy = [r.kind for r in sheet_rows(get("yatzy"))]
    assert RowKind.EXTRA not in yatzy and RowKind.GRAND_TOTAL not in yatzy
    assert yatzy.count(RowKind.BOX) == 15 and yatzy[6:8] == [RowKind.UPPER_SUM, RowKind.BONUS]
    assert RowKind.EXTRA in [r.kind for r in sheet_rows(get("kniffel"))]
    assert [r.kind for r in sheet_rows(get("yacht"))][-1] is RowKind.TOTAL
    assert RowKind.BONUS not in [r.kind for r in sheet_rows(get("yacht"))]
    assert [r.kind for r in sheet_rows(get("kniffel-4"))][-1] is RowKind.GRAND_TOTAL
    state = new_game("yatzy", ["Ada"])
    assert sheet_layout(state).rows == sheet_rows(get("yatzy"))


def test_seat_kinds_in_display_order_with_words() -> None:
    assert seat_kinds() == ("human", "bot:optimal", "bot:greedy", "bot:random")
    assert seat_kinds(get("knaster"))[0] == "human" and "bot:knaster" not in seat_kinds(get("knaster"))  # not offered
    set_language("de")
    try:
        assert [seat_label(k) for k in seat_kinds()][:2] == ["Mensch", "Bot: optimal"]
    finally:
        set_language("en")


def test_the_card_is_data_in_the_language() -> None:
    card = rules_card(get("kniffel-classic+sharp"))
    assert card.head == ("box", "asks", "pays") and len(card.rows) == len(card.boxes) == 13
    assert card.boxes[8].id == "full_house" and card.boxes[8].sharp_doubles and "(×2 sharp)" in card.boxes[8].pays
    data = card.to_dict()
    assert data["title"] == card.title and data["rows"][0] == list(card.rows[0])
    set_language("it")
    try:
        italian = rules_card(get("kniffel-4"))
        assert italian.name == "Kniffel, quattro colonne" and "Colonne" in " ".join(italian.turn)
    finally:
        set_language("en")
