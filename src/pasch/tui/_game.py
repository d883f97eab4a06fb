"""The sheet game's screen: the keys and clicks that play (throw, hold, choose and enter a box, announce,
hints, undo) on the board of :class:`~pasch.tui._sheetboard.SheetBoard`. Every step goes through the
session and is saved at once (:meth:`~pasch.tui._base.GameScreen.after_change`); the board's watchers draw
it. The Knaster screen (:mod:`pasch.tui._knaster`) is the other game screen.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from textual.binding import Binding
from textual.events import Key

from pasch.app import confirm_question, needs_confirmation
from pasch.engine import Action, Announce, Keep, Roll, Score, State
from pasch.i18n import N_, _, box_name
from pasch.rules import Order
from pasch.tui._base import GameScreen
from pasch.tui._confirm import ConfirmScreen
from pasch.tui._hintpanel import HintPanel
from pasch.tui._sheet import column_choice, initial_choice, move_choice, picked_choice
from pasch.tui._sheetboard import Choice, SheetBoard
from pasch.tui._sheetview import SheetView
from pasch.tui._widgets import Die

__all__ = ["GameScreen", "SheetGameScreen"]


class SheetGameScreen(SheetBoard):
    """Dice, score sheet, turn and bonus info, hints (with P(win) in games of several players: ``w``)."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("space,r", "throw", N_("throw")),
        Binding("1", "hold(0)", N_("hold 1-5")),
        *(Binding(str(k + 1), f"hold({k})", "", show=False) for k in range(1, 6)),
        Binding("up,k", "move(-1)", N_("box"), show=False),
        Binding("down,j", "move(1)", "", show=False),
        Binding("left", "column(-1)", "", show=False),
        Binding("right", "column(1)", "", show=False),
        Binding("enter", "score", N_("score")),
        Binding("a", "announce", N_("announce")),
        Binding("escape", "cancel", "", show=False),
        Binding("h", "hints", N_("hints")),
        Binding("b", "apply_hint", N_("play hint")),
        Binding("m", "more_hints", "", show=False),
        Binding("u", "undo", N_("undo")),
        Binding("w", "win_tables", N_("P(win)")),
        Binding("tab", "next_player", N_("other players"), show=False),
    ]

    # -- actions --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys that do not apply to this game (or no longer, once it is over)."""
        if action == "announce" and not any(o is Order.ANNOUNCED for o in self.session.match.rules.columns):
            return False
        if action == "win_tables":
            return self.win_key_applies()
        return super().check_action(action, parameters)

    def _play(self, action: Action | None = None) -> None:
        """Throw (``action`` None: re-throw the dice not held) or keep and throw; announce if it must."""
        if action is None and self.state.dice is not None and self.state.throws_left <= 0:
            self.say(_("No throws left: choose a box and press Enter."), error=True)
            return
        self.announcing = False
        self.selected = None  # the new dice choose their own best box
        step = self.session.throw if action is None else (lambda: self.session.act(action))
        if self.attempt(step):
            self.say("")
            self.after_change()
            if self.state.must_announce():
                self.announcing = True

    def action_throw(self) -> None:
        """Throw (first throw, or re-throw the dice not held)."""
        if self._human_only():
            self._play()

    def action_hold(self, position: int) -> None:
        """Hold or release a die (a step of its own: saved, and undone by ``u``)."""
        if not self._human_only() or position >= self.session.match.rules.dice:
            return
        if self.state.dice is None:
            self.say(_("Throw first (space)."), error=True)
        elif not self.session.toggle_hold(position):
            self.say(_("No throws left: holding makes no difference now."), error=True)
        else:
            self.say("")
            self.app_save()  # a hold is saved too: --resume lays the dice out held as they were
            self.table = self.session.layout

    def on_die_clicked(self, event: Die.Clicked) -> None:
        """A click on a die holds it."""
        self.action_hold(event.position)

    def action_move(self, step: int) -> None:
        """Move the cursor to the previous or next box of the column."""
        if self.selected is not None and self.human_turn:
            self.selected = move_choice(self.choices(), self.selected, step)

    def action_column(self, step: int) -> None:
        """Move the cursor to the nearest box of the previous or next column."""
        if self.selected is not None and self.human_turn:
            self.selected = column_choice(self.choices(), self.selected, step)

    def action_next_player(self) -> None:
        """Tab: the next players' columns, when not every player's fit; at an end too tight for the table
        and the sheet side by side, the table, then the sheet page by page, then the table again."""
        sheet = self.query_one(SheetView)
        players = len(self.state.players)
        last = bool(sheet.shown) and sheet.shown[-1] == players - 1
        if self.has_class("tight-end") and (not self.show_sheet or last):
            self.show_sheet = not self.show_sheet
            sheet.first = 0
        elif len(sheet.shown) < players:
            sheet.first = (sheet.shown[-1] + 1) % players

    def action_score(self, one_step: bool = False, asked: bool = False) -> None:
        """Enter the dice in the chosen box (or announce it, when announcing); a likely slip asks first.

        Args:
            one_step: asked for in one click on a box's name (no box chosen first).
            asked: the player has confirmed it already.
        """
        if not self._human_only():
            return
        st = self.state
        if st.dice is None or self.selected is None:
            self.say(_("Throw first (space).") if st.dice is None else _("No box can take these dice."), error=True)
            return
        col, box = self.selected
        if self.announcing or st.must_announce():
            if self.attempt(self.session.act, Announce(st.rules.categories[box].id)):
                self.announcing = False
                self.say(_("Announced: {box}").format(box=box_name(st.rules, box)))
                self.after_change()
            return
        reason = None
        if not asked and self.app.settings.confirm and (col, box) in self.choices():
            reason = needs_confirmation(st, st.score_action(col, box), one_step=one_step)
        if reason is not None:
            question = confirm_question(st, reason, col, box)
            self.app.push_screen(ConfirmScreen(question), lambda answer: self._confirmed(answer, st, (col, box)))
            return
        opt = self.model.options.get((col, box)) if self.model else None
        said = _("{name} entered {points} in {box}.").format(
            name=self.session.match.seat.name, points=opt.total if opt else 0, box=box_name(st.rules, box)
        )
        if self.attempt(self.session.score, col, box):
            self.selected = None
            self.say(said)
            self.after_change(scored=True)

    def _confirmed(self, answer: str | None, state: State, choice: Choice) -> None:
        """The answer to the second chance: enter the box (and maybe stop asking), or leave it."""
        if answer not in ("yes", "always") or self.session.match.state is not state:
            self.say(_("Not entered."))
            return
        if answer == "always":
            self.app.remember(dataclasses.replace(self.app.settings, confirm=False))
        self.selected = choice
        self.action_score(asked=True)

    def action_announce(self) -> None:
        """kniffel-4: choose a box of the announced column (right after the first throw)."""
        if not self._human_only():
            return
        if not any(isinstance(a, Announce) for a in self.state.legal_actions()):
            self.say(_("You can announce only right after the first throw."), error=True)
            return
        self.announcing = True

    def action_cancel(self) -> None:
        """Leave announcing mode."""
        if self.announcing and not self.state.must_announce():
            self.announcing = False

    def action_hints(self) -> None:
        """Show or hide the hints."""
        self.hints_shown = not self.hints_shown

    def action_more_hints(self) -> None:
        """Show every option in the hint list, or the best five again."""
        self.hints_all = not self.hints_all

    def action_apply_hint(self) -> None:
        """Play the hint: keep the advised dice and throw, or enter the dice in the advised box."""
        if not self._human_only():
            return
        hints = self.current_hints()
        if hints is None or hints.suggested is None:
            self.hints_shown = True
            self.say(_("The hint is being computed; press b again when it shows."), error=True)
            return
        action = hints.suggested
        if isinstance(action, Score) and hints.score is not None:
            self.announcing = False
            self.selected = hints.score
            self.action_score(asked=True)  # the hint's own box: played knowingly, no second chance asked
        elif isinstance(action, Roll | Keep):
            self._play(action)
        elif self.attempt(self.session.act, action):
            self.announcing = False
            self.say("")
            self.after_change()

    def action_win_tables(self) -> None:
        """Open the win tables (building them once if they are not stored) and show P(win) in the hints."""
        if self.win_key_applies():
            self.hints_shown = True
            hints = self.current_hints()
            self.query_one(HintPanel).build_win_tables(self.session.match.rules, hints.win_tables if hints else None)

    def action_undo(self) -> None:
        """Undo, then leave announcing mode."""
        self.announcing = False
        super().action_undo()

    # -- the mouse and letters ------------------------------------------------------------------
    def on_sheet_view_picked(self, event: SheetView.Picked) -> None:
        """A click on a box chooses it; a click on its name (or a second click) enters the dice there."""
        choice = picked_choice(self.choices(), self.selected, event.column, event.box) if self.human_turn else None
        if choice is not None:
            self.selected = choice
            if event.enter:
                self.action_score(one_step=event.column is None)

    def on_key(self, event: Key) -> None:
        """A letter that is no key of the game jumps to the next box whose name starts with it."""
        char = event.character
        if not char or not char.isalpha() or len(char) != 1 or event.key in self._bindings.key_to_bindings:
            return
        if self.jump_to_initial(char):
            event.stop()

    def jump_to_initial(self, letter: str) -> bool:
        """Move the cursor to the next legal box (of the cursor's column) whose name starts with ``letter``."""
        if not self.human_turn or self.selected is None:
            return False
        choice = initial_choice(self.session.match.rules, self.choices(), self.selected, letter)
        if choice is not None:
            self.selected = choice
        return choice is not None
