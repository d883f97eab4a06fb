"""The catalogue of rule sets and modifiers, and the parser of rule-set text.

``get("kniffel-classic+forced+sharp")`` is the single entry point. A rule-set text is a base id followed
by ``+modifier`` items (``forced``, ``upward``, ``strict``, ``sharp``) and ``+key=value`` parameters
(``joker=``, ``extra=``, ``bonus=``, and for Knaster ``rows=``, ``cols=``, ``diags=``). The canonical
text lists the modifiers in a fixed order, then the parameters sorted by key.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

from pasch.errors import RuleSetError
from pasch.rules._ruleset import (
    Category,
    ExtraPolicy,
    GameKind,
    JokerPolicy,
    KnasterRules,
    Order,
    RuleSet,
)
from pasch.rules._scorers import Scorer, ScorerKind

__all__ = ["BASES", "MODIFIERS", "canonical", "get", "names"]

K = ScorerKind
UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")


def _upper() -> tuple[Category, ...]:
    return tuple(Category(cid, Scorer(K.FACE, face=f)) for f, cid in enumerate(UPPER_IDS, start=1))


YAHTZEE_SHEET: tuple[Category, ...] = (
    *_upper(),
    Category("three_of_a_kind", Scorer(K.N_KIND, n=3)),
    Category("four_of_a_kind", Scorer(K.N_KIND, n=4)),
    Category("full_house", Scorer(K.FULL_HOUSE, points=25)),
    Category("small_straight", Scorer(K.STRAIGHT, n=4, points=30)),
    Category("large_straight", Scorer(K.STRAIGHT, n=5, points=40)),
    Category("yahtzee", Scorer(K.ALL_ALIKE, points=50)),
    Category("chance", Scorer(K.CHANCE)),
)

YATZY_SHEET: tuple[Category, ...] = (
    *_upper(),
    Category("one_pair", Scorer(K.ONE_PAIR)),
    Category("two_pairs", Scorer(K.TWO_PAIRS)),
    Category("three_of_a_kind", Scorer(K.N_KIND, n=3, total=False)),
    Category("four_of_a_kind", Scorer(K.N_KIND, n=4, total=False)),
    Category("small_straight", Scorer(K.EXACT, faces=(1, 2, 3, 4, 5), points=15)),
    Category("large_straight", Scorer(K.EXACT, faces=(2, 3, 4, 5, 6), points=20)),
    Category("full_house", Scorer(K.FULL_HOUSE)),
    Category("chance", Scorer(K.CHANCE)),
    Category("yahtzee", Scorer(K.ALL_ALIKE, points=50)),
)

YACHT_SHEET: tuple[Category, ...] = (
    *_upper(),
    Category("full_house", Scorer(K.FULL_HOUSE)),
    Category("four_of_a_kind", Scorer(K.N_KIND, n=4, total=False)),
    Category("small_straight", Scorer(K.EXACT, faces=(1, 2, 3, 4, 5), points=30)),
    Category("large_straight", Scorer(K.EXACT, faces=(2, 3, 4, 5, 6), points=30)),
    Category("chance", Scorer(K.CHANCE)),
    Category("yahtzee", Scorer(K.ALL_ALIKE, points=50)),
)


@dataclass(frozen=True, slots=True)
class Base:
    """A catalogue entry: the unmodified rule set and the modifiers it accepts."""

    rules: RuleSet
    accepts: frozenset[str]
    source: str


def _sheet(
    rid: str,
    name: str,
    description: str,
    source: str,
    accepts: frozenset[str],
    **kw: object,
) -> Base:
    return Base(RuleSet(id=rid, name=name, description=description, base=rid, **kw), accepts, source)  # type: ignore[arg-type]


_SINGLE = frozenset({"forced", "upward", "sharp"})
OPEN_MAX_PLAYERS = 20
"""The most players of the rule sets whose seed sets no maximum (yatzy 001, yahtzee and jetsi 002, knaster
004); the others keep the default 8 (kniffel: seed 000 says 2-8; kniffel-classic, its columns and yacht:
RULES.md's default)."""
_MULTI = frozenset({"sharp"})

BASES: dict[str, Base] = {
    b.rules.id: b
    for b in (
        _sheet(
            "kniffel",
            "Kniffel",
            "Kniffel (Schmidt rules): extra Kniffel +50 in its upper box, joker in the lower section",
            "seed 000",
            _SINGLE,
            categories=YAHTZEE_SHEET,
            bonus_threshold=63,
            bonus=35,
            joker=JokerPolicy.SCHMIDT,
            extra=ExtraPolicy.UPPER_50,
            min_players=1,
        ),
        _sheet(
            "yahtzee",
            "Yahtzee",
            "Yahtzee (Hasbro / Italian): 100-point Yahtzee bonus and the official forced joker",
            "seed 002 + Hasbro rules",
            _SINGLE,
            categories=YAHTZEE_SHEET,
            bonus_threshold=63,
            bonus=35,
            joker=JokerPolicy.FORCED,
            extra=ExtraPolicy.BONUS_100,
            max_players=OPEN_MAX_PLAYERS,
        ),
        _sheet(
            "kniffel-classic",
            "Kniffel (as commonly played)",
            "Kniffel as commonly played: extra Kniffel 100 flat, a crossed-out Kniffel lets five alike "
            "count as full house",
            "seed 003",
            _SINGLE | {"strict"},
            categories=YAHTZEE_SHEET,
            bonus_threshold=63,
            bonus=35,
            joker=JokerPolicy.FULL_HOUSE,
            extra=ExtraPolicy.FLAT_100,
        ),
        _sheet(
            "yatzy",
            "Yatzy",
            "Scandinavian Yatzy: pairs, exact straights, 50-point bonus at 63, no joker",
            "seed 001",
            _SINGLE,
            categories=YATZY_SHEET,
            bonus_threshold=63,
            bonus=50,
            max_players=OPEN_MAX_PLAYERS,
        ),
        _sheet(
            "yacht",
            "Yacht",
            "Classic Yacht: no bonuses, exact straights for 30, full house pays the dice",
            "classic Yacht",
            _SINGLE,
            categories=YACHT_SHEET,
        ),
        _sheet(
            "jetsi",
            "Jetsi",
            "Jetsi: three Yahtzee columns at once — free, top-down, bottom-up (39 turns)",
            "seed 002",
            _MULTI,
            categories=YAHTZEE_SHEET,
            bonus_threshold=63,
            bonus=35,
            joker=JokerPolicy.FORCED,
            extra=ExtraPolicy.BONUS_100,
            columns=(Order.FREE, Order.DOWN, Order.UP),
            max_players=OPEN_MAX_PLAYERS,
        ),
        _sheet(
            "kniffel-3",
            "Kniffel, three columns",
            "Three Kniffel columns at once — down, up, free (800 is the magic border)",
            "seed 003",
            _MULTI,
            categories=YAHTZEE_SHEET,
            bonus_threshold=63,
            bonus=35,
            joker=JokerPolicy.FULL_HOUSE,
            extra=ExtraPolicy.FLAT_100,
            columns=(Order.DOWN, Order.UP, Order.FREE),
        ),
        _sheet(
            "kniffel-4",
            "Kniffel, four columns",
            "Four Kniffel columns — down, up, announced, free (1000 is a good result)",
            "seed 003",
            _MULTI,
            categories=YAHTZEE_SHEET,
            bonus_threshold=63,
            bonus=35,
            joker=JokerPolicy.FULL_HOUSE,
            extra=ExtraPolicy.FLAT_100,
            columns=(Order.DOWN, Order.UP, Order.ANNOUNCED, Order.FREE),
        ),
        Base(
            RuleSet(
                id="knaster",
                name="Knaster",
                description="Knaster: write the called sum of two dice into a 5x5 grid, circle lines",
                kind=GameKind.KNASTER,
                knaster=KnasterRules(),
                base="knaster",
                dice=2,
                throws=1,
                max_players=OPEN_MAX_PLAYERS,
            ),
            frozenset(),
            "seed 004",
        ),
    )
}

MODIFIERS: dict[str, str] = {
    "forced": "boxes are filled in sheet order, top to bottom",
    "upward": "boxes are filled bottom to top, the sheet's last box first (chance in kniffel and yahtzee, "
    "the five-alike box in yatzy and yacht)",
    "strict": "forced order; a five-alike before the Kniffel box counts only as what the box asks",
    "sharp": "combination boxes score double when all dice came from one throw of all five",
}
_MOD_ORDER = ("forced", "upward", "strict", "sharp")

_JOKERS = {p.value: p for p in JokerPolicy}
_EXTRAS = {p.value: p for p in ExtraPolicy}


PARAMETER_RANGE = (0, 1000)
"""Every integer parameter (``bonus=``, Knaster's ``rows=``, ``cols=``, ``diags=``) lies in this range, so
that every total fits the storage columns and the solver's tables stay exact."""
MAX_TEXT = 200
"""The longest rule-set text accepted (the stored games' ``rules`` column holds 200 characters)."""


def _ints(key: str, value: str, count: int) -> tuple[int, ...]:
    low, high = PARAMETER_RANGE
    parts = [v.strip() for v in value.split(",")]
    if any(len(v) > 6 for v in parts):  # int() of a huge digit string is slow, and out of range anyway
        raise RuleSetError(f"parameter {key}={value[:40]!r}: each value must lie in {low}..{high}")
    if not all(v.isascii() and v.isdigit() for v in parts):  # int() also takes "1_0", "+5" and other digits
        raise RuleSetError(f"parameter {key}={value!r}: expected {count} comma-separated integers (digits 0-9)")
    out = tuple(int(v) for v in parts)
    if len(out) != count:
        raise RuleSetError(f"parameter {key}={value!r}: expected {count} values, got {len(out)}")
    if any(not low <= v <= high for v in out):
        raise RuleSetError(f"parameter {key}={value!r}: each value must lie in {low}..{high}")
    return out


def _apply_param(rules: RuleSet, key: str, value: str) -> RuleSet:
    sheet = rules.kind is GameKind.SHEET
    if key == "joker" and sheet:
        if value not in _JOKERS:
            raise RuleSetError(f"joker={value!r}: choose one of {', '.join(_JOKERS)}")
        return dataclasses.replace(rules, joker=_JOKERS[value])
    if key == "extra" and sheet:
        if value not in _EXTRAS:
            raise RuleSetError(f"extra={value!r}: choose one of {', '.join(_EXTRAS)}")
        return dataclasses.replace(rules, extra=_EXTRAS[value])
    if key == "bonus" and sheet:
        if value.strip().startswith("-"):
            raise RuleSetError(f"bonus={value!r}: the upper bonus cannot be negative")
        (amount,) = _ints(key, value, 1)
        if amount == 0:
            return dataclasses.replace(rules, bonus=0, bonus_threshold=None)
        return dataclasses.replace(rules, bonus=amount, bonus_threshold=rules.bonus_threshold or 63)
    if rules.knaster is not None and key in ("rows", "cols", "diags"):
        kn = rules.knaster
        if key == "rows":
            kn = dataclasses.replace(kn, row_values=_ints(key, value, 5))
        elif key == "cols":
            kn = dataclasses.replace(kn, column_values=_ints(key, value, 5))
        else:
            d = _ints(key, value, 2)
            kn = dataclasses.replace(kn, diagonal_values=(d[0], d[1]))
        return dataclasses.replace(rules, knaster=kn)
    raise RuleSetError(f"{rules.base} has no parameter {key!r}")


def _canonical_value(rules: RuleSet, key: str) -> str:
    """The canonical text of a parameter's value, read back from the rule set it made."""
    if key == "joker":
        return rules.joker.value
    if key == "extra":
        return rules.extra.value
    if key == "bonus":
        return str(rules.bonus)
    kn = rules.knaster
    assert kn is not None  # the Knaster parameters are the only others
    values = {"rows": kn.row_values, "cols": kn.column_values, "diags": kn.diagonal_values}[key]
    return ",".join(str(v) for v in values)


def _apply_modifier(rules: RuleSet, mod: str) -> RuleSet:
    if mod == "forced":
        return dataclasses.replace(rules, columns=(Order.DOWN,))
    if mod == "upward":
        return dataclasses.replace(rules, columns=(Order.UP,))
    if mod == "strict":
        return dataclasses.replace(rules, columns=(Order.DOWN,), five_alike_full_house=True)
    if mod == "sharp":
        return dataclasses.replace(rules, sharp=True)
    raise AssertionError(mod)  # pragma: no cover


@lru_cache(maxsize=256)
def get(text: str) -> RuleSet:
    """Parse a rule-set text such as ``kniffel-classic+forced+sharp`` into a :class:`RuleSet`.

    Args:
        text: base id, then ``+modifier`` and ``+key=value`` items in any order.

    Returns:
        The rule set, whose ``id`` is the canonical text.

    Raises:
        RuleSetError: unknown base, modifier or parameter, a parameter out of :data:`PARAMETER_RANGE`, a text
            longer than :data:`MAX_TEXT`, or a combination that makes no sense.
    """
    if not isinstance(text, str) or not text.strip():
        raise RuleSetError("empty rule-set text; try one of: " + ", ".join(BASES))
    if len(text) > MAX_TEXT:
        raise RuleSetError(f"rule-set text too long ({len(text)} characters; at most {MAX_TEXT})")
    parts = [p.strip() for p in text.strip().lower().split("+")]
    base_id, items = parts[0], parts[1:]
    if base_id not in BASES:
        raise RuleSetError(f"unknown rule set {base_id!r}; known: {', '.join(BASES)}")
    base = BASES[base_id]
    mods: list[str] = []
    params: dict[str, str] = {}
    for item in items:
        if not item:
            raise RuleSetError(f"{text!r}: empty item between '+' signs")
        if "=" in item:
            key, _, value = item.partition("=")
            if key in params:
                raise RuleSetError(f"{text!r}: parameter {key!r} given twice")
            params[key.strip()] = value.strip()
            continue
        if item not in MODIFIERS:
            raise RuleSetError(f"{text!r}: unknown modifier {item!r}; known: {', '.join(MODIFIERS)}")
        if item not in base.accepts:
            allowed = ", ".join(m for m in _MOD_ORDER if m in base.accepts) or "none"
            raise RuleSetError(f"{text!r}: {base_id} does not take +{item} (it takes: {allowed})")
        if item in mods:
            raise RuleSetError(f"{text!r}: +{item} given twice")
        mods.append(item)
    orders = [m for m in mods if m in ("forced", "upward", "strict")]
    if len(orders) > 1:
        if set(orders) == {"forced", "strict"}:
            mods.remove("forced")  # strict already fills top to bottom
        else:
            raise RuleSetError(f"{text!r}: +{orders[0]} and +{orders[1]} set contradicting fill orders")
    rules = base.rules
    mods.sort(key=_MOD_ORDER.index)
    for m in mods:
        rules = _apply_modifier(rules, m)
    # One rule set, one text (it names the solver's table files): a parameter is written in its canonical
    # form (bonus=0010 and bonus=10 are one rule set), and one that changes nothing is left out.
    extras_list: list[str] = []
    for key in sorted(params):
        changed = _apply_param(rules, key, params[key])
        if changed != rules:
            extras_list.append(f"{key}={_canonical_value(changed, key)}")
        rules = changed
    extras = tuple(extras_list)
    canon = "+".join([base_id, *mods, *extras])
    name = rules.name + "".join(f" +{m}" for m in mods)
    return dataclasses.replace(rules, id=canon, name=name, modifiers=(*mods, *extras))


def canonical(text: str) -> str:
    """The canonical form of a rule-set text (raises :class:`RuleSetError` if it is invalid)."""
    return get(text).id


def names() -> tuple[str, ...]:
    """The base rule-set ids of the catalogue."""
    return tuple(BASES)
