"""Plain mode of ``pasch play``: a line-based game on stdin/stdout for screen readers, pipes and scripts.

Texts go through the message catalogues (``--lang``); box names of the language are shown beside the box
ids and understood as input. The engine decides what is legal; this module parses short forms and words.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from pasch.app import BOX_ALIASES, Match, Recorder, advise, confirm_question, load_settings, needs_confirmation
from pasch.cli._common import sheet_text, standings_text, write_atomic
from pasch.engine import Action, GameState, KnasterState, Roll, Score, State
from pasch.errors import InvalidActionError, PaschError
from pasch.i18n import N_, _, box_name, get_language, rules_name
from pasch.rules import Order

__all__ = ["PLAY_TEXT", "PlainSession", "expand_command", "game_actions", "game_verbs", "resolve_box"]

PLAY_TEXT = {
    "intro": "pasch · {name} ({rules}) · {players}",
    "intro_hint": N_("Type 'help' for the commands, 'sheet' for the score sheet, 'quit' to stop."),
    "solo_hint": N_('Solo game. For hot-seat play give the names: pasch play --players "Ada,Bob"'),
    "turn_head": N_("── Round {round} of {rounds} · {name}'s turn · total {total} ──"),
    "turn_head_other": N_("── {name} to act ──"),
    "press_roll": N_("{name}, press Enter (or type 'roll') to throw."),
    "enter_dice": N_("{name}, enter the final dice thrown at the table: enter 1 3 3 5 6{sharp}"),
    "enter_sharp": " [sharp]",
    "dice": N_("Dice: {dice}   throw {throws} of {max}, {left} left{served}"),
    "served": N_("   (served: one throw of all dice)"),
    "keep_hint": N_("  keep DICE          keep these dice, throw the others again (k 335; 'k' alone throws all)"),
    "announce_hint": N_("  announce BOX       announced column: {boxes}"),
    "must_announce": N_("  Only the announced column is open: announce one of its boxes first."),
    "options_head": N_("  Score options:"),
    "option": "    {action:<{width}}  {points}",
    "option_named": "    {action:<{width}}  {name:<{name_width}}  {points}",
    "not_action": N_("{text!r} is not an action of {game}; here: {actions}; also: hint, sheet, options, help, quit"),
    "joker": N_(" (joker)"),
    "doubled": N_(" (x2 sharp)"),
    "extra": N_(" + {extra} extra"),
    "legal": N_("  Legal: {actions}"),
    "number": N_("Number called: {number}"),
    "prompt": "{name}> ",
    "bad": "  ✗ {message}",
    "scored": N_("{name} scores {points}{extra} in {box}."),
    "game_over": N_("Game over."),
    "hint_exact": N_("  Expected final score with optimal play from here (best first):"),
    "hint_row": "   {mark} {action:<{width}}  {value:8.2f}{delta}",
    "hint_delta": N_("  ({delta:+.2f} vs best)"),
    "hint_estimate": N_("  The strongest bot's estimate of the final total, not exact (best first):"),
    "hint_bot": N_("  The strongest bot would play: {action}"),
    "hint_enter": N_("  Throw the real dice and enter them (enter 1 3 3 5 6)."),
    "bot_move": N_("{name} (bot): {action}"),
    "eof": N_("(end of input: game stopped)"),
    "yes_no": N_("(y/N)"),
    "yes_word": N_("yes"),
    "not_entered": N_("Not entered."),
    "quit": N_("Game stopped."),
    "saved": N_("Game log saved to {path} (replay it: pasch replay {path})"),
    "resume": N_("Game {id} is saved: continue it with 'pasch play --resume {id}'."),
    "help": N_(
        """Commands (the engine checks every move; a refused move changes nothing):
  roll, r, or Enter        throw all dice at the start of a turn
  keep 3 3 5, k 335        keep these dice and throw the others again; 'k' alone throws all again
  score full_house         fill a box; the box alone works too: full_house, 'full house', fh, ch, 6 (sixes)
  score 2:full_house       multi-column games: the box in column 2
  announce yahtzee, a ...  kniffel-4: announce a box of the announced column after the first throw
  enter 1 3 3 5 6 [sharp]  score keeper: the final dice thrown at the table (e 13356)
  write 7 at b3, circle b3, pass    Knaster
  sheet                    show the score sheet
  options                  show the options again
  hint                     the best options with their exact values (or the strongest bot's move)
  help                     this text
  quit                     stop the game (the log is kept with --save)"""
    ),
}


def _t(key: str) -> str:
    """A plain-mode text in the current language."""
    return _(PLAY_TEXT[key])


_VERBS = {"roll", "keep", "throw", "enter", "score", "announce", "write", "circle", "pass"}
_SHORT_VERBS = {"r": "roll", "k": "keep", "e": "enter", "a": "announce", "w": "write", "c": "circle", "p": "pass"}
_HELP_WORDS = {"help", "h", "?"}
_SHEET_WORDS = {"sheet", "show"}
_OPTION_WORDS = {"options", "o"}
_QUIT_WORDS = {"quit", "q", "exit", "stop"}
_HINT_WORDS = {"hint", "?hint"}
HINT_ROWS = 5
"""Options listed by ``hint`` (best first)."""


def _norm(word: str) -> str:
    return word.strip().lower().replace(" ", "_").replace("-", "_")


def resolve_box(word: str, box_ids: Sequence[str], names: dict[str, str] | None = None) -> str | None:
    """The box id meant by ``word``: an id, a name of the language (``names``: display name -> id, e.g.
    ``Dreierpasch``), an alias (fh, ss, 6, kniffel, ...) or a unique id prefix."""
    w = _norm(word)
    if w in box_ids:
        return w
    by_name = {_norm(name): cid for name, cid in (names or {}).items()}
    if w in by_name:
        return by_name[w]
    alias = BOX_ALIASES.get(w)
    if alias in box_ids:
        return alias
    matches = [b for b in box_ids if b.startswith(w)] if len(w) >= 2 else []
    return matches[0] if len(matches) == 1 else None


def expand_command(line: str, state: State) -> str:
    """Turn what a player typed (short forms included) into an action text for the engine.

    Only spelling is handled here; whether the action is legal is the engine's decision. Text that matches
    no short form goes to the engine unchanged, so its message explains what is wrong.
    """
    words = line.strip().lower().replace(",", " ").split()
    if not words:
        return ""
    box_ids: tuple[str, ...] = state.rules.category_ids
    names = {box_name(state.rules, cid): cid for cid in box_ids} if isinstance(state, GameState) else {}
    verb, rest = words[0], words[1:]
    verb = _SHORT_VERBS.get(verb, verb) if (rest or verb in ("r", "k", "p")) else verb
    if verb in _VERBS:
        if verb in ("score", "announce") and len(rest) >= 1:
            target = "_".join(rest)
            col, sep, box = target.rpartition(":")
            found = resolve_box(box, box_ids, names)
            if found is not None:
                return f"{verb} {col}{sep}{found}"
        if verb == "write" and len(rest) == 2:
            return f"write {rest[0]} at {rest[1]}"
        return " ".join([verb, *rest])
    target = "_".join(words)
    col, sep, box = target.rpartition(":")
    found = resolve_box(box, box_ids, names)
    if found is not None and (not sep or col.isdigit()):
        return f"score {col}{sep}{found}"
    if len(words) == 1:
        # A Knaster cell alone ("b3"): the one legal move on that cell, if there is exactly one.
        fits = [str(a) for a in state.legal_actions() if str(a).endswith(f" {words[0]}")]
        if len(fits) == 1:
            return fits[0]
    return line.strip()


class PlainSession:
    """A line-based hot-seat game on stdin/stdout: prompts, short forms, help, sheet, quit, EOF.

    Every accepted action is written to the games database at once when a ``recorder`` is given (``pasch
    history`` lists the game, ``pasch play --resume`` continues it), and to the ``--save`` file when one is.
    """

    def __init__(
        self,
        match: Match,
        save: Path | None = None,
        inp: TextIO | None = None,
        out: TextIO | None = None,
        recorder: Recorder | None = None,
        confirm: bool | None = None,
    ) -> None:
        self.match = match
        self.game = match.game
        self.save_path = save
        self.recorder = recorder
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.echo = not _isatty(self.inp)
        self.confirm = (not self.echo and load_settings().confirm) if confirm is None else confirm
        """Ask before a likely slip (a bare digit with throws left, a 0 while the dice pay elsewhere): by default
        on a terminal, as the settings say; piped input (scripts) is never asked."""
        self.named = get_language() != "en"
        """Box names of the language beside the box ids (in a language other than English, whose names are
        the ids)."""

    # -- output ------------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        """Write a line (or several)."""
        self.out.write(text + "\n")
        self.out.flush()

    def save(self, announce: bool = False) -> None:
        """Write the log so far to the games database and to the ``--save`` file, if one was given.

        Raises:
            OSError: the file cannot be written.
        """
        if self.recorder is not None:
            stored = self.recorder.save(self.match)
            if stored and announce and not self.match.finished and self.match.game_id is not None:
                self.say(_t("resume").format(id=self.match.game_id))
        if self.save_path is None:
            return
        write_atomic(self.save_path, self.game.log.to_json() + "\n")
        if announce:
            self.say(_t("saved").format(path=self.save_path))

    def show_turn(self) -> None:
        """Whose turn, the dice, throws left and every option with its score."""
        state = self.game.state
        if not isinstance(state, GameState):
            self._show_other(state)
            return
        rules = state.rules
        name = state.current_name
        if state.dice is None:
            self.say()
            self.say(
                _t("turn_head").format(
                    round=state.round,
                    rounds=rules.turns_per_player,
                    name=name,
                    total=state.total(state.current_player),
                )
            )
            if state.keeper:
                self.say(_t("enter_dice").format(name=name, sharp=_t("enter_sharp") if rules.sharp else ""))
                self._show_announce(state)
            else:
                self.say(_t("press_roll").format(name=name))
            return
        served = _t("served") if state.sharp and rules.sharp else ""
        self.say(
            _t("dice").format(
                dice=" ".join(map(str, state.dice)),
                throws=state.throws,
                max=rules.throws,
                left=state.throws_left,
                served=served,
            )
        )
        legal = state.legal_actions()
        if any(str(a).startswith("keep") for a in legal):
            self.say(_t("keep_hint"))
        self._show_announce(state)
        rows: list[tuple[str, str, str]] = []
        for c, opt in state.score_options():
            action = Score(rules.categories[opt.index].id, c + 1 if rules.n_columns > 1 else None)
            points = str(opt.points)
            if opt.doubled:
                points += _t("doubled")
            if opt.extra:
                points += _t("extra").format(extra=opt.extra)
            if opt.joker:
                points += _t("joker")
            rows.append((str(action), box_name(rules, opt.index) if self.named else "", points))
        if rows:
            self.say(_t("options_head"))
            width = max(len(a) for a, _n, _p in rows)
            name_width = max(len(n) for _a, n, _p in rows)
            for action_text, name, points in rows:
                if self.named:
                    line = _t("option_named").format(
                        action=action_text, width=width, name=name, name_width=name_width, points=points
                    )
                else:
                    line = _t("option").format(action=action_text, width=width, points=points)
                self.say(line)

    def _show_announce(self, state: GameState) -> None:
        legal = [str(a) for a in state.legal_actions()]
        boxes = [a.split()[1] for a in legal if a.startswith("announce ")]
        if boxes:
            if len(boxes) == len(legal):
                self.say(_t("must_announce"))
            self.say(_t("announce_hint").format(boxes=" ".join(boxes)))

    def _show_other(self, state: State) -> None:
        """Games without a box sheet (Knaster): the state's own drawing and the legal moves."""
        self.say()
        self.say(_t("turn_head_other").format(name=state.current_name))
        if isinstance(state, KnasterState):
            self.say(state.render(state.current_player))
        else:
            self.say(sheet_text(state, localized=self.named))
        number = state.number if isinstance(state, KnasterState) else None
        if number is not None:
            self.say(_t("number").format(number=number))
        groups: dict[str, list[str]] = {}
        for a in state.legal_actions():
            head, _, last = str(a).rpartition(" ")
            groups.setdefault(head if head else str(a), []).append(last if head else "")
        parts = []
        for head, lasts in groups.items():
            parts.append(head if lasts == [""] else f"{head} " + "|".join(lasts))
        self.say(_t("legal").format(actions=", ".join(parts)))

    def prompt_name(self) -> str:
        """The name shown in the prompt: the player to act."""
        return self.game.state.current_name or "pasch"

    # -- input -------------------------------------------------------------------------------------
    def read(self) -> str | None:
        """One line from the input (None at end of input)."""
        prompt = _t("prompt").format(name=self.prompt_name())
        if self.inp is sys.stdin and not self.echo and self.out is sys.stdout:
            try:
                return input(prompt)
            except EOFError:
                self.say()
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        self.say(line.rstrip("\n"))
        return line.rstrip("\n")

    # -- the loop ----------------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game ends, the player quits or the input ends.

        Raises:
            OSError: the ``--save`` file cannot be written.
        """
        game = self.game
        rules = game.rules
        self.say(_t("intro").format(name=rules_name(rules), rules=rules.id, players=", ".join(game.state.players)))
        if len(game.state.players) == 1:
            self.say(_t("solo_hint"))
        self.say(_t("intro_hint"))
        self.save()
        shown: State | None = None
        while not game.state.is_terminal:
            if self.match.bot_to_move:
                self.bot_step()
                continue
            if game.state is not shown:
                self.show_turn()
                shown = game.state
            line = self.read()
            if line is None:
                self.say(_t("eof"))
                self.save(announce=True)
                return
            word = line.strip().lower()
            if word in _HELP_WORDS:
                self.say(_t("help"))
                continue
            if word in _SHEET_WORDS:
                self.say(sheet_text(game.state, localized=self.named))
                continue
            if word in _OPTION_WORDS:
                self.show_turn()
                continue
            if word in _HINT_WORDS:
                self.show_hint()
                continue
            if word in _QUIT_WORDS:
                self.say(_t("quit"))
                self.say(sheet_text(game.state, localized=self.named))
                self.save(announce=True)
                return
            if not word:
                if game.state.legal_actions() != (Roll(),):
                    continue
                word = "roll"
            text = expand_command(word, game.state)
            if self.second_chance(word, text):
                self.act(text)
        self.say()
        self.say(_t("game_over"))
        self.say(sheet_text(game.state, localized=self.named))
        self.say(standings_text(game.state))
        self.save(announce=True)

    def show_hint(self) -> None:
        """The advice for the player to act (:func:`pasch.app.advise`): the best options with their values."""
        state = self.game.state
        if state.is_terminal or state.is_chance_node:
            return
        advice = advise(state)
        if advice.waiting_for_dice:
            self.say(_t("hint_enter"))
        if advice.exact or advice.estimated:
            # Several columns: the bot's estimates, ranked and shown as the exact values are, headed "not exact".
            self.say(_t("hint_exact") if advice.exact else _t("hint_estimate"))
            width = max((len(str(o.action)) for o in advice.options), default=0)
            for o in advice.top(HINT_ROWS):
                mark = "*" if o.best else " "
                delta = "" if o.best or o.delta is None else _t("hint_delta").format(delta=o.delta)
                value = o.value if advice.exact else o.estimate
                if value is None:  # an option the bot could not value (none in practice): not listed
                    continue
                self.say(_t("hint_row").format(mark=mark, action=str(o.action), width=width, value=value, delta=delta))
        elif advice.suggestion is not None:
            self.say(_t("hint_bot").format(action=advice.suggestion))

    def second_chance(self, typed: str, text: str) -> bool:
        """Whether to play ``text`` (expanded from ``typed``): a likely slip asks first (y/N)."""
        state = self.game.state
        if not self.confirm or not isinstance(state, GameState):
            return True
        try:
            action = Action.parse(text)
        except PaschError:
            return True  # the engine explains a malformed action
        if not isinstance(action, Score):
            return True
        one_step = typed.strip().isdigit()  # a bare 6 for Sixes
        reason = needs_confirmation(state, action, one_step=one_step)
        if reason is None:
            return True
        column = (action.column or 1) - 1
        question = confirm_question(state, reason, column, state.rules.category_index(action.category))
        self.say(question + " " + _t("yes_no"))
        answer = self.read()
        word = _t("yes_word").lower()
        if answer is not None and answer.strip().lower() in {"y", "yes", word, word[:1]}:
            return True
        self.say(_t("not_entered"))
        return False

    def bot_step(self) -> None:
        """Let the bot to move play one action, and say what it did."""
        name = self.match.seat.name
        action = self.match.bot_action()
        self.say(_t("bot_move").format(name=name, action=action))
        self.act(str(action))

    def act(self, text: str) -> None:
        """Apply one action; a refused one prints why and leaves the game unchanged."""
        game = self.game
        before = game.state
        try:
            action = Action.parse(text)
            if str(action).split()[0] not in _kind_verbs(before):
                raise InvalidActionError(self._not_action(text))
            self.match.act(action)
        except InvalidActionError as exc:
            words = text.split()
            known = words and words[0].lower() in _kind_verbs(before)
            message = str(exc) if known else self._not_action(text)
            self.say(_t("bad").format(message=message))
            return
        except PaschError as exc:
            self.say(_t("bad").format(message=exc))
            return
        after = game.state
        if isinstance(action, Score) and isinstance(before, GameState) and isinstance(after, GameState):
            p = before.current
            c = (action.column or 1) - 1
            i = before.rules.category_index(action.category)
            new_col = after.sheets[p].columns[c]
            gained = new_col.extra - before.sheets[p].columns[c].extra
            extra = _t("extra").format(extra=gained) if gained else ""
            box = str(action).removeprefix("score ")
            if self.named:
                box = box.replace(action.category, box_name(before.rules, i))
            self.say(_t("scored").format(name=before.players[p], points=new_col.scores[i], extra=extra, box=box))
        self.save()

    def _not_action(self, text: str) -> str:
        state = self.game.state
        return _t("not_action").format(text=text.strip(), game=state.rules.name, actions=game_actions(state))


def _kind_verbs(state: State) -> frozenset[str]:
    """Every verb of this kind of game (the engine explains why one is refused now: a keeper game's 'roll')."""
    if isinstance(state, KnasterState):
        return frozenset({"roll", "write", "circle", "pass", "throw"})
    return frozenset({"roll", "keep", "score", "announce", "enter", "throw"})


def game_verbs(state: State) -> frozenset[str]:
    """The action verbs of the game being played (what the player at a prompt may type)."""
    if isinstance(state, KnasterState):
        return frozenset({"roll", "write", "circle", "pass"})
    rules = state.rules
    verbs = {"score", "enter"} if state.keeper else {"roll", "keep", "score"}
    if Order.ANNOUNCED in rules.columns:
        verbs.add("announce")
    return frozenset(verbs)


def game_actions(state: State) -> str:
    """The actions of the game being played, as the player types them: ``roll, keep DICE, score BOX``."""
    dice, box, cell = _(N_("DICE")), _(N_("BOX")), _(N_("CELL"))
    shown = {
        "roll": "roll",
        "keep": f"keep {dice}",
        "enter": f"enter {dice}" + (" [sharp]" if state.rules.sharp else ""),
        "score": f"score {box}",
        "announce": f"announce {box}",
        "write": f"write N at {cell}",
        "circle": f"circle {cell}",
        "pass": "pass",
    }
    verbs = game_verbs(state)
    return ", ".join(text for verb, text in shown.items() if verb in verbs)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
