"""The Typer application object that every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="pasch",
    help="Kniffel / Yahtzee / Yatzy family dice games and Knaster: play, keep score, analyse.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
