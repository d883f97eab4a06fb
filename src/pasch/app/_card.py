"""The rules card: a rule set's rules in words, as data every interface renders (issue 29).

:func:`rules_card` reads a :class:`pasch.rules.RuleSet` into a :class:`RulesCard` in the current language
(the message catalogues): how a turn goes, a table (the boxes, what each asks of the dice and what it pays;
for Knaster the combinations and the circles they owe) and how the game scores (bonus, joker, extra points;
for Knaster the line values). It is generated from the rule set's data, never written per game. ``pasch
rules show`` prints it, the terminal app's ``i`` shows it, and :meth:`RulesCard.to_dict` is what the web
server sends; none of them words a rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pasch.i18n import N_, _, box_name, rules_description, rules_name
from pasch.rules import BASES, ExtraPolicy, GameKind, JokerPolicy, Order, RuleSet, Scorer, ScorerKind

__all__ = ["ORDER_WORDS", "CardBox", "RulesCard", "box_rule", "combination_name", "order_words", "rules_card"]

ORDER_WORDS = {
    Order.FREE: N_("any order"),
    Order.DOWN: N_("top to bottom"),
    Order.UP: N_("bottom to top"),
    Order.ANNOUNCED: N_("announced: after the first throw, name the box; the turn ends there"),
}
"""How a column is filled, in words."""

_JOKER = {
    JokerPolicy.NONE: N_("No joker: a further five alike is entered like any other dice."),
    JokerPolicy.SCHMIDT: N_(
        "Joker: with the five-alike box scored and the matching upper box filled, a five alike goes in any "
        "lower box at full value."
    ),
    JokerPolicy.FORCED: N_(
        "Joker (forced): with the five-alike box filled, the matching upper box if open, else any lower box "
        "at full value, else an upper box for 0."
    ),
    JokerPolicy.FREE: N_(
        "Joker (free): with the five-alike box filled, any open box; lower boxes at full value once the "
        "matching upper box is filled."
    ),
    JokerPolicy.FULL_HOUSE: N_(
        "Joker: once the five-alike box is crossed out, a five alike may be entered as a full house at full value."
    ),
}
_EXTRA = {
    ExtraPolicy.NONE: N_("No extra points for a further five alike."),
    ExtraPolicy.UPPER_50: N_("A further five alike entered in its upper box: +50 extra points."),
    ExtraPolicy.BONUS_100: N_("A further five alike (five-alike box scored): +100 extra points."),
    ExtraPolicy.FLAT_100: N_("A further five alike: 100 in a lower box, or 100 + the dice in an upper box."),
}
_COMBINATIONS = {
    "three_alike": N_("three alike"),
    "four_alike": N_("four alike"),
    "five_alike": N_("five alike"),
    "two_pairs": N_("two pairs"),
    "full_house": N_("full house"),
    "straight": N_("straight"),
}


def order_words(order: Order) -> str:
    """How a column is filled, in the current language (``top to bottom``)."""
    return _(ORDER_WORDS[order])


def combination_name(combination: str) -> str:
    """A Knaster combination in the current language (``full_house`` -> ``full house``)."""
    known = _COMBINATIONS.get(combination)
    return _(known) if known else combination.replace("_", " ")


def box_rule(scorer: Scorer, dice: int) -> tuple[str, str]:
    """What a box asks of the dice and what it pays, in the current language."""
    k = scorer.kind
    pays = str(scorer.points) if scorer.points else _("sum of all dice")
    if k is ScorerKind.FACE:
        return _("any dice"), _("sum of the {face}s").format(face=scorer.face)
    if k is ScorerKind.N_KIND:
        alike = _("sum of all dice") if scorer.total else _("sum of the {n} alike").format(n=scorer.n)
        return _("at least {n} alike").format(n=scorer.n), alike
    if k is ScorerKind.ONE_PAIR:
        return _("two alike"), _("sum of the highest pair")
    if k is ScorerKind.TWO_PAIRS:
        return _("two pairs of different faces"), _("sum of those four dice")
    if k is ScorerKind.FULL_HOUSE:
        return _("three of one face and two of another"), pays
    if k is ScorerKind.STRAIGHT:
        return _("{n} in sequence").format(n=scorer.n), pays
    if k is ScorerKind.EXACT:
        return _("exactly {faces}").format(faces="-".join(map(str, scorer.faces))), pays
    if k is ScorerKind.ALL_ALIKE:
        return _("all {n} alike").format(n=dice), pays
    return _("anything"), _("sum of all dice")


@dataclass(frozen=True, slots=True)
class CardBox:
    """A box on the card: its id and name, its section, what it asks and pays, whether +sharp doubles it."""

    id: str
    name: str
    upper: bool
    asks: str
    pays: str
    sharp_doubles: bool


@dataclass(frozen=True, slots=True)
class RulesCard:
    """A rule set's rules in words (the current language), in the order a card shows them.

    Attributes:
        id: the rule set's text (``kniffel-classic+sharp``).
        name: its name.
        description: its one-line description.
        source: where its rules come from.
        modifiers: its modifiers (``sharp``), without the ``+``.
        turn: how a turn goes: dice and throws, columns or fill order; for Knaster the called number.
        head: the head of the table (box, asks, pays; for Knaster combination and circles).
        rows: the table's rows (the boxes' names with what they ask and pay, or the combinations).
        boxes: the boxes as data (sheet games; empty for Knaster).
        scoring: how the game scores: bonus, joker, extra points, crossing out; for Knaster the line values.
    """

    id: str
    name: str
    description: str
    source: str
    modifiers: tuple[str, ...]
    turn: tuple[str, ...]
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    boxes: tuple[CardBox, ...]
    scoring: tuple[str, ...]

    @property
    def title(self) -> str:
        """``Kniffel  (kniffel)``."""
        return f"{self.name}  ({self.id})"

    @property
    def modifiers_line(self) -> str:
        """``Modifiers: +forced, +sharp`` (empty without modifiers)."""
        if not self.modifiers:
            return ""
        return _("Modifiers: {mods}").format(mods=", ".join("+" + m for m in self.modifiers))

    def lines(self) -> list[str]:
        """The card as plain text lines, the table aligned (no wrapping: for tests, screen readers, pipes)."""
        out = [self.title, self.description]
        if self.modifiers:
            out.append(self.modifiers_line)
        out += ["", *self.turn, ""]
        widths = [max(len(r[k]) for r in (self.head, *self.rows)) + 2 for k in range(len(self.head) - 1)]
        for row in (self.head, *self.rows):
            out.append("".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=False)) + row[-1])
        return [*out, "", *self.scoring]

    def to_dict(self) -> dict[str, Any]:
        """The card as JSON-ready data (what the web server sends)."""
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "source": self.source,
            "modifiers": list(self.modifiers),
            "modifiers_line": self.modifiers_line,
            "turn": list(self.turn),
            "head": list(self.head),
            "rows": [list(r) for r in self.rows],
            "boxes": [
                {
                    "id": b.id,
                    "name": b.name,
                    "upper": b.upper,
                    "asks": b.asks,
                    "pays": b.pays,
                    "sharp_doubles": b.sharp_doubles,
                }
                for b in self.boxes
            ],
            "scoring": list(self.scoring),
        }


def _knaster(rules: RuleSet) -> tuple[list[str], tuple[str, ...], list[tuple[str, ...]], list[str]]:
    kn = rules.knaster
    assert kn is not None
    turn = [
        _("Each turn one player throws {dice} dice; everybody uses their sum, the called number:").format(dice=kn.dice),
        _("  write it into an empty cell of your {n}x{n} grid, or circle a cell that already holds it;").format(
            n=kn.size
        ),
        _("  pass only when neither is possible."),
        _("A line whose five cells are written may form a combination; then you must circle that many of its"),
        _("cells at once:"),
    ]
    rows: list[tuple[str, ...]] = [(combination_name(c), str(n)) for c, n in kn.combinations]
    scoring = [
        _("A fully circled line scores its value (shown beside the grid, [9] once scored):"),
        _("  rows, top to bottom:      {v}").format(v=" ".join(map(str, kn.row_values))),
        _("  columns, left to right:   {v}").format(v=" ".join(map(str, kn.column_values))),
        _("  diagonals a1-e5, e1-a5:   {v}").format(v=" ".join(map(str, kn.diagonal_values))),
        _("When someone writes their last empty cell, one more number is thrown; then the game ends."),
    ]
    head: tuple[str, ...] = (_("combination"), _("circles"))
    return turn, head, rows, scoring


def _sheet(rules: RuleSet) -> tuple[list[str], list[CardBox], list[str]]:
    turn = [
        _("{dice} dice, up to {throws} throws a turn; keep any dice between throws.").format(
            dice=rules.dice, throws=rules.throws
        )
    ]
    if rules.n_columns > 1:
        turn.append(_("Columns (each box once per column):"))
        turn += [f"  {c + 1}: {order_words(o)}" for c, o in enumerate(rules.columns)]
    elif rules.columns[0] is not Order.FREE:
        turn.append(_("Fill order: {order}").format(order=order_words(rules.columns[0])))
    boxes = []
    for i, cat in enumerate(rules.categories):
        asks, pays = box_rule(cat.scorer, rules.dice)
        doubles = rules.doubles(i)
        if doubles:
            pays += " " + _("(×2 sharp)")
        boxes.append(CardBox(cat.id, box_name(rules, i), cat.is_upper, asks, pays, doubles))
    scoring = []
    if rules.bonus_threshold is None:
        scoring.append(_("No upper bonus."))
    else:
        scoring.append(
            _("Upper bonus: +{amount} for {threshold} or more in the upper boxes.").format(
                amount=rules.bonus, threshold=rules.bonus_threshold
            )
        )
        scoring.append(
            _("The bonus row shows the upper boxes against par ({threshold} shared by face: +3 is ahead).").format(
                threshold=rules.bonus_threshold
            )
        )
    joker, extra = _JOKER.get(rules.joker), _EXTRA.get(rules.extra)
    scoring.append(_(joker) if joker else _("Joker: {policy}.").format(policy=rules.joker.value))
    scoring.append(_(extra) if extra else _("Extra points: {policy}.").format(policy=rules.extra.value))
    if rules.five_alike_full_house:
        scoring.append(_("Five alike also counts as a full house."))
    if rules.sharp:
        scoring.append(_("Sharp: boxes marked ×2 score double when all dice came from a single throw."))
    scoring.append(_("A box that the dice do not satisfy may be crossed out for 0."))
    return turn, boxes, scoring


def rules_card(rules: RuleSet) -> RulesCard:
    """The rules card of ``rules`` in the current language."""
    base = BASES.get(rules.base)
    source = base.source if base is not None else ""
    players = _("{lo} to {hi} players.").format(lo=rules.min_players, hi=rules.max_players)
    if rules.kind is GameKind.KNASTER:
        turn, head, rows, scoring = _knaster(rules)
        boxes: list[CardBox] = []
    else:
        turn, boxes, scoring = _sheet(rules)
        head = (_("box"), _("asks"), _("pays"))
        rows = [(b.name, b.asks, b.pays) for b in boxes]
    return RulesCard(
        rules.id,
        rules_name(rules),
        rules_description(rules),
        source,
        tuple(rules.modifiers),
        (players, *turn),
        head,
        tuple(rows),
        tuple(boxes),
        tuple(scoring),
    )
