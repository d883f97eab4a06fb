"""The end of a game in the terminal: the summary (sections, ranking, earlier games) and the review of the
play against the exact solver, worded from :func:`pasch.app.game_summary` and :func:`pasch.app.review`.

The review needs the solver's table, so the screen computes it in a worker; :class:`ReviewScreen` shows it
decision by decision.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pasch.app import GameSummary, PlayerSummary, Review
from pasch.engine import Action
from pasch.errors import PaschError
from pasch.i18n import N_, _, ngettext
from pasch.rules import RuleSet
from pasch.tui._common import translate_bindings
from pasch.tui._hints import hint_label, signed
from pasch.tui._sheet import short_name

__all__ = ["ReviewScreen", "decision_lines", "review_lines", "summary_lines"]


def _num(value: int | None) -> str:
    return "" if value is None else str(value)


def _history(p: PlayerSummary) -> str:
    """``new best (was 231)``, ``best 250 · average 212.4 (+18.6)`` or ``first game``."""
    if p.best_before is None or p.average_before is None:
        return _("first game")
    avg = _("average {avg:.1f} ({diff})").format(avg=p.average_before, diff=signed(p.vs_average or 0.0))
    if p.personal_best:
        return _("new personal best (was {best})").format(best=p.best_before) + " · " + avg
    return _("best {best}").format(best=p.best_before) + " · " + avg


def summary_lines(summary: GameSummary) -> list[str]:
    """The end of a game as text lines: a headline, a table of sections and totals, the earlier games.

    A solo game has no winner; sheet games split each total into upper, bonus, lower and extra points.
    """
    players = summary.standings()
    if summary.solo:
        head = _("Game over. Your total: {total}").format(total=players[0].total)
    elif summary.is_tie:
        head = _("Game over. Tie for first place: {names}").format(names=", ".join(summary.winners))
    else:
        head = _("Game over. Winner: {names}").format(names=", ".join(summary.winners))
    lines = [head, ""]
    sections = players[0].upper is not None
    name_w = max(6, *(len(short_name(p.name, 14)) for p in players))
    if sections:
        cols = [_("upper"), _("bonus"), _("lower"), _("extra"), _("total")]
        lines.append(f"{'':>3} {_('player'):<{name_w}} " + " ".join(f"{c:>6}" for c in cols))
    for p in players:
        name = short_name(p.name, 14)
        if sections:
            vals = [_num(p.upper), _num(p.bonus), _num(p.lower), _num(p.extra), str(p.total)]
            lines.append(f"{p.rank:>2}. {name:<{name_w}} " + " ".join(f"{v:>6}" for v in vals))
        else:
            lines.append(f"{p.rank:>2}. {name:<{name_w}} {p.total:>6}")
    lines.append("")
    for p in players:
        lines.append(f"{short_name(p.name, 14)}: {_history(p)}")
    return lines


def review_lines(review: Review, seats: list[int] | None = None) -> list[str]:
    """Each player's play against optimal, one line per player: expected points lost, luck, and the share of
    best decisions (a table: it fits the end screen's column at 80x24)."""
    if review.estimated:
        lines = [_("Your play vs the strongest bot's estimate (not exact):")]
    else:
        lines = [_("Your play vs optimal (expected points):")]
    players = seats if seats is not None else list(range(len(review.players)))
    name_w = max(6, *(len(short_name(review.players[p], 14)) for p in players))
    cols = [_("lost"), _("luck"), _("best")]
    widths = [max(6, len(c)) for c in cols]
    lines.append(f"  {_('player'):<{name_w}} " + " ".join(f"{c:>{w}}" for c, w in zip(cols, widths, strict=True)))
    for p in players:
        luck, acc = review.luck(p), review.accuracy(p)
        vals = [
            f"{review.lost[p]:.1f}",
            signed(luck) if luck is not None else "",
            f"{100 * acc:.0f} %" if acc is not None else "",
        ]
        name = short_name(review.players[p], 14)
        lines.append(f"  {name:<{name_w}} " + " ".join(f"{v:>{w}}" for v, w in zip(vals, widths, strict=True)))
    if review.estimated:
        note = _(
            "The bot estimates {start:.1f} from the start; lost: against its best option by its own estimate; "
            "best: the share of best decisions."
        )
    else:
        note = _("Optimal play expects {start:.1f}; total = expected − lost + luck; best: the share of best decisions.")
    lines.append(note.format(start=review.expected_start))
    return lines


def _words(rules: RuleSet, text: str) -> str:
    try:
        return hint_label(rules, Action.parse(text))
    except PaschError:
        return text


def decision_lines(review: Review) -> list[str]:
    """The review move by move: each decision with the dice, what was played and, when it cost, the best."""
    lines: list[str] = []
    rules = review.rules
    several = len(review.players) > 1
    for d in review.decisions:
        who = f"{short_name(review.players[d.player], 12)} · " if several else ""
        dice = " ".join(map(str, d.dice))
        where = ngettext(
            "turn {turn}, {dice}, {n} throw left", "turn {turn}, {dice}, {n} throws left", d.throws_left
        ).format(turn=d.turn + 1, dice=dice, n=d.throws_left)
        played = _words(rules, d.played)
        if d.is_best:
            lines.append(f"{who}{where}: {played} ✓")
        else:
            lines.append(
                f"{who}{where}: {played} "
                + _("(−{loss:.1f}; best: {best})").format(loss=d.loss, best=_words(rules, d.best))
            )
    return lines


class ReviewScreen(ModalScreen[None]):
    """The review of a finished game, decision by decision (Escape closes it)."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > VerticalScroll {
        width: 90%; max-width: 110; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,v,q", "close", N_("close"))
    ]

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """Summary lines, then every decision."""
        with VerticalScroll():
            text = "\n".join([*review_lines(self.review), "", *decision_lines(self.review)])
            yield Static(Text(text), id="review-text")

    def on_mount(self) -> None:
        """Title the box."""
        self.query_one(VerticalScroll).border_title = _("Review of your play (Escape closes)")

    def action_close(self) -> None:
        """Close the review."""
        self.dismiss(None)
