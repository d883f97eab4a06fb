"""The application layer: what the terminal app, the command line and the web server share.

Each concern lives here once, and the interfaces only render and route:

- :mod:`seats <pasch.app._seats>`: seat kinds (``human``, ``bot:optimal``, ...) and the one bot registry;
- :class:`Match`: a game in progress (state, log, dice source, seats, undo policy);
- :func:`advise`: the advice for the player to act, for every game kind;
- :func:`sheet_layout`: the score sheet's view model (rows, sums, bonus progress, totals);
- :func:`play_bots`: the bot-turn loop (async, with a delay for people to follow);
- :class:`Recorder`: every step of a local game written to the games database the moment it is made;
- :func:`review`: a game's decisions against the exact solver (points lost, luck);
- :func:`duel`: head-to-head matches of two bots (win rates, 95 % intervals);
- :func:`game_summary`: the end of a game (sections, ranking, comparison with earlier games);
- :func:`win_tables` / :func:`prepare_win_tables`: the tables behind "P(win)" in hints (asked for, never
  built unasked).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pasch._lazy import lazy_exports

if TYPE_CHECKING:  # the names below, for type checkers and readers; imported on first use
    from pasch.app._advice import Advice, AdviceOption, advise
    from pasch.app._botloop import play_bots
    from pasch.app._boxes import BOX_ALIASES, find_box, norm_box
    from pasch.app._card import CardBox, RulesCard, box_rule, combination_name, order_words, rules_card
    from pasch.app._duel import DuelResult, DuelSide, duel
    from pasch.app._layout import (
        BonusProgress,
        ColumnLayout,
        LayoutCache,
        LayoutRow,
        RowKind,
        SheetLayout,
        sheet_layout,
        sheet_rows,
    )
    from pasch.app._match import BotTurn, Match, Pending, UndoStep
    from pasch.app._record import TABLE_KEY, Recorder, TableDice, table_of
    from pasch.app._review import Decision, Review, percentile_cached, review, reviewable
    from pasch.app._seats import (
        BOT_KINDS,
        HUMAN,
        Bot,
        BotKind,
        Seat,
        bot_kinds_for,
        bot_tables_ready,
        check_bot,
        make_bot,
        parse_seats,
        prepare_bot_tables,
        seat_kind,
        seat_kinds,
        seat_label,
        uses_bot_tables,
    )
    from pasch.app._settings import (
        SETTINGS_FILE,
        Settings,
        confirm_question,
        load_settings,
        needs_confirmation,
        save_settings,
    )
    from pasch.app._summary import GameSummary, PlayerSummary, game_summary
    from pasch.app._wintables import (
        WinTables,
        WinTablesTooBigError,
        available_megabytes,
        prepare_win_tables,
        win_applies,
        win_tables,
        win_tables_ready,
    )

__all__ = [
    "BOT_KINDS",
    "BOX_ALIASES",
    "HUMAN",
    "SETTINGS_FILE",
    "TABLE_KEY",
    "Advice",
    "AdviceOption",
    "BonusProgress",
    "Bot",
    "BotKind",
    "BotTurn",
    "CardBox",
    "ColumnLayout",
    "Decision",
    "DuelResult",
    "DuelSide",
    "GameSummary",
    "LayoutCache",
    "LayoutRow",
    "Match",
    "Pending",
    "PlayerSummary",
    "Recorder",
    "Review",
    "RowKind",
    "RulesCard",
    "Seat",
    "Settings",
    "SheetLayout",
    "TableDice",
    "UndoStep",
    "WinTables",
    "WinTablesTooBigError",
    "advise",
    "available_megabytes",
    "bot_kinds_for",
    "bot_tables_ready",
    "box_rule",
    "check_bot",
    "combination_name",
    "confirm_question",
    "duel",
    "find_box",
    "game_summary",
    "load_settings",
    "make_bot",
    "needs_confirmation",
    "norm_box",
    "order_words",
    "parse_seats",
    "percentile_cached",
    "play_bots",
    "prepare_bot_tables",
    "prepare_win_tables",
    "review",
    "reviewable",
    "rules_card",
    "save_settings",
    "seat_kind",
    "seat_kinds",
    "seat_label",
    "sheet_layout",
    "sheet_rows",
    "table_of",
    "uses_bot_tables",
    "win_applies",
    "win_tables",
    "win_tables_ready",
]

# Imported on first use (pasch._lazy): the command line's `solve` needs none of this layer, and
# `score` only the sheet layout.
_EXPORTS = {
    **dict.fromkeys(("Advice", "AdviceOption", "advise"), "pasch.app._advice"),
    "play_bots": "pasch.app._botloop",
    **dict.fromkeys(("BOX_ALIASES", "find_box", "norm_box"), "pasch.app._boxes"),
    **dict.fromkeys(
        ("CardBox", "RulesCard", "box_rule", "combination_name", "order_words", "rules_card"), "pasch.app._card"
    ),
    **dict.fromkeys(("DuelResult", "DuelSide", "duel"), "pasch.app._duel"),
    **dict.fromkeys(
        (
            "BonusProgress",
            "ColumnLayout",
            "LayoutCache",
            "LayoutRow",
            "RowKind",
            "SheetLayout",
            "sheet_layout",
            "sheet_rows",
        ),
        "pasch.app._layout",
    ),
    **dict.fromkeys(("BotTurn", "Match", "Pending", "UndoStep"), "pasch.app._match"),
    **dict.fromkeys(("TABLE_KEY", "Recorder", "TableDice", "table_of"), "pasch.app._record"),
    **dict.fromkeys(("Decision", "Review", "percentile_cached", "review", "reviewable"), "pasch.app._review"),
    **dict.fromkeys(
        (
            "BOT_KINDS",
            "HUMAN",
            "Bot",
            "BotKind",
            "Seat",
            "bot_kinds_for",
            "bot_tables_ready",
            "check_bot",
            "make_bot",
            "needs_confirmation",
            "parse_seats",
            "prepare_bot_tables",
            "seat_kind",
            "seat_kinds",
            "seat_label",
            "uses_bot_tables",
        ),
        "pasch.app._seats",
    ),
    **dict.fromkeys(
        ("SETTINGS_FILE", "Settings", "confirm_question", "load_settings", "needs_confirmation", "save_settings"),
        "pasch.app._settings",
    ),
    **dict.fromkeys(("GameSummary", "PlayerSummary", "game_summary"), "pasch.app._summary"),
    **dict.fromkeys(
        (
            "WinTables",
            "WinTablesTooBigError",
            "available_megabytes",
            "prepare_win_tables",
            "win_applies",
            "win_tables",
            "win_tables_ready",
        ),
        "pasch.app._wintables",
    ),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
