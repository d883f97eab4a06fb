"""The setup screen: rule set (with its one-line description), players (human or bot, with names),
language, and play or keep score."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Header, Input, Label, Select, Static

from pasch.app import HUMAN, Seat, check_bot, parse_seats, seat_kinds, seat_label
from pasch.i18n import LANGUAGES, N_, _, get_language, language_name, rules_description, rules_name
from pasch.rules import BASES, get
from pasch.tui._common import GameHost, translate_bindings
from pasch.tui._footer import PaschFooter

__all__ = ["SetupChoice", "SetupScreen"]

MAX_PLAYERS = 20
"""The most seats the screen offers; a rule set's own maximum (``RuleSet.max_players``) limits it further."""


class SetupChoice:
    """What the setup screen hands to the app."""

    def __init__(self, rules: str, seats: list[Seat], keeper: bool) -> None:
        self.rules, self.seats, self.keeper = rules, seats, keeper


def _kind_options(extra: str | None = None) -> list[tuple[str, str]]:
    """The seat kinds in their display order (:func:`pasch.app.seat_kinds`) with their words; ``extra``: a
    kind named on the command line that the list does not offer (``bot:knaster``)."""
    kinds = list(seat_kinds())
    if extra is not None and extra not in kinds:
        kinds.append(extra)
    return [(seat_label(k), k) for k in kinds]


class SetupScreen(Screen[SetupChoice]):
    """Choose the game; Start dismisses the screen with a :class:`SetupChoice`."""

    app = getters.app(GameHost)

    CSS_PATH = "setup.tcss"
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("ctrl+s", "start", N_("start")),
        Binding("escape", "app.quit", N_("quit")),
    ]

    def __init__(
        self,
        rules: str = "kniffel",
        seats: list[Seat] | None = None,
        keeper: bool = False,
    ) -> None:
        super().__init__()
        self.rules_text = rules
        self.seats = seats or [Seat(_("Player 1"))]
        self.keeper = keeper
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """Rule set and modifiers, players, language and mode, start: one screen at 80x24 for two players."""
        base, _sep, mods = self.rules_text.partition("+")
        base = base if base in BASES else "kniffel"
        yield Header()
        with VerticalScroll():
            with Horizontal(classes="row"):
                yield Label(_("Rule set"), classes="title")
                options = [(rules_name(b.rules), bid) for bid, b in BASES.items()]
                yield Select(options, value=base, allow_blank=False, id="rules")
                yield Input(
                    value=mods.replace("+", " "),
                    placeholder=_("modifiers, e.g. sharp forced (optional)"),
                    id="modifiers",
                )
            yield Static(rules_description(BASES[base].rules), id="rules-desc")
            yield Label(_("Players"), classes="heading")
            with Vertical(id="players"):
                for k, seat in enumerate(self.seats):
                    yield self._player_row(k, seat)
            with Horizontal(classes="row"):
                yield Button(_("Add player"), id="add-player")
                yield Button(_("Remove player"), id="remove-player")
                with Vertical(id="checks"):
                    yield Checkbox(_("Score keeper: we throw real dice"), value=self.keeper, id="keeper", compact=True)
                    yield Checkbox(
                        _("Ask before a 0 or a one-click entry"),
                        value=self.app.settings.confirm,
                        id="confirm",
                        compact=True,
                    )
            with Horizontal(classes="row"):
                yield Label(_("Language"), classes="title")
                yield Select(
                    [(language_name(c), c) for c in LANGUAGES], value=get_language(), allow_blank=False, id="lang"
                )
                yield Button(_("Start"), variant="primary", id="start")
            yield Static(id="setup-error")
        yield PaschFooter()

    def on_mount(self) -> None:
        """Title."""
        self.title = "pasch"
        self.sub_title = _("New game")

    def _player_row(self, k: int, seat: Seat) -> Horizontal:
        options = _kind_options(seat.kind)
        return Horizontal(
            Input(value=seat.name, placeholder=_("name"), classes="player-name", id=f"name-{k}"),
            Select(options, value=seat.kind, allow_blank=False, classes="player-kind", id=f"kind-{k}"),
            classes="row player",
        )

    def read_seats(self) -> list[Seat]:
        """The players as entered (empty names are filled in)."""
        seats = []
        for k in range(len(self.query(".player"))):
            name = self.query_one(f"#name-{k}", Input).value.strip()
            kind = str(self.query_one(f"#kind-{k}", Select).value)
            if not name:  # a bot is named as on the command line (OptimalBot), a person by their seat
                name = parse_seats([kind])[0].name if kind != HUMAN else _("Player {n}").format(n=k + 1)
            seats.append(Seat(name, kind))
        return seats

    def read_rules(self) -> str:
        """The rule-set text: base plus modifiers."""
        base = str(self.query_one("#rules", Select).value)
        mods = self.query_one("#modifiers", Input).value.replace(",", " ").replace("+", " ").split()
        return "+".join([base, *mods])

    async def on_select_changed(self, event: Select.Changed) -> None:
        """Rule set: show its description. Language: redraw everything in it."""
        if event.select.id == "rules" and event.value in BASES:
            self.query_one("#rules-desc", Static).update(rules_description(BASES[str(event.value)].rules))
        elif event.select.id == "lang" and event.value != get_language():
            self.seats = self.read_seats()
            self.rules_text = self.read_rules()
            self.keeper = self.query_one("#keeper", Checkbox).value
            self.app.switch_language(str(event.value))
            await self.recompose()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """Add or remove a player, or start."""
        if event.button.id == "add-player":
            n = len(self.query(".player"))
            try:
                limit = min(MAX_PLAYERS, get(self.read_rules()).max_players)
            except (ValueError, KeyError):  # bad modifiers are reported on Start
                limit = MAX_PLAYERS
            if n < limit:
                await self.query_one("#players", Vertical).mount(
                    self._player_row(n, Seat(_("Player {n}").format(n=n + 1)))
                )
        elif event.button.id == "remove-player":
            rows = self.query(".player")
            if len(rows) > 1:
                await rows.last().remove()
        elif event.button.id == "start":
            self.action_start()

    def action_start(self) -> None:
        """Check the choice with the engine and start."""
        from pasch.engine import new_game

        try:
            rules = get(self.read_rules())
            seats = self.read_seats()
            new_game(rules, [s.name for s in seats])
            for seat in seats:
                check_bot(seat.kind, rules)
        except (ValueError, KeyError) as exc:
            self.query_one("#setup-error", Static).update(_("Cannot start: {reason}").format(reason=exc))
            return
        confirm = self.query_one("#confirm", Checkbox).value
        if confirm != self.app.settings.confirm:
            self.app.remember(dataclasses.replace(self.app.settings, confirm=confirm))
        self.dismiss(SetupChoice(rules.id, seats, self.query_one("#keeper", Checkbox).value))
