"""A bot for the multi-column sheet games (jetsi, kniffel-3, kniffel-4) built on the exact solver.

Exact play is out of reach (the state is the product of three or four columns), so the bot combines
exact single-column tables with an exact search over the current turn:

1. **Column values.** Each column gets the exact table of its own fill order under the game's base
   rules: a top-down column the ``+forced`` table, a bottom-up column the ``+upward`` table, a free
   column the free table. The announced column of kniffel-4 is valued with its exact slack table
   (:func:`pasch.solver.announced_table`: the column alone, announcing after the first throw or passing; credited
   ``announced_slack`` of its slack as in step 2), corrected per entry (step 3). ``announced_slack=0``
   values it with the free table instead (an optimistic approximation: a free column may choose its box
   after the last throw, an announced one must choose after the first), as the bot did until 2026-11-27
   (see :data:`TUNED`).
2. **Slack of every column.** Played alone, a column must take every turn's dice;
   in a multi-column game ``s = T - n`` of the ``T`` turns left go elsewhere, so it can wait for dice that
   suit it. A top-down or bottom-up column is valued with its exact *slack table* ``W[k, flag, upper, s]``
   (:class:`pasch.solver.SlackTable`: every turn thrown for the column, entered in its next box or passed,
   at most ``s`` passes), the free column with its *slack levels* ``L[s, mask, flag, upper]``
   (:func:`pasch.solver.free_slack_levels`: the same for any box, the solver's table build with a "pass"
   floor, one build per level), the announced column with its table ``W[mask, upper, s]``
   (:func:`pasch.solver.announced_table`). The model's passes are optimistic (a passed turn was really thrown for
   another column, and every column counts the same turn as its pass), so each column is credited
   ``slack_factor * s`` (``free_slack * s``, ``announced_slack * s``) passes, read between the two levels around it
   (``interpolate``): every turn that goes elsewhere costs a column the same share of a level, where
   rounding down made every third or so turn cost a whole level at once and so swung the bot's choice of
   column from turn to turn.
3. **Turn-end evaluation.** Entering the final dice in box ``i`` of column ``c`` is worth
   ``delta = points + V_c(column after) - V_c(column before)`` (upper bonus included when the entry
   reaches it): the gain of that column measured against what it expects from its remaining turns.
   For a column valued with slack "before" is its value with one pass fewer (entering elsewhere would have
   used one of its passes): ``delta = points + W[k + 1, ..., s] - W[k, ..., s - 1]``. The announced
   column's entries get ``-announced_slot * T / N`` on top (``N`` boxes in all), a tuned correction
   that makes the bot use the announced column earlier. The grand value
   is the sum of the column values, so the best entry is the one with the largest ``delta``.
4. **Within the turn: exact expectimax.** Given the turn-end evaluation ``T[roll]`` the bot solves the
   turn exactly over every keep (462 keeps, 252 throws, ``+sharp`` tracked): the value with ``L``
   throws left is ``max(T[roll], max over keeps of E[next throw with L - 1 left])``.
5. **Announcements (kniffel-4).** Right after the first throw the bot compares the turn's value
   without an announcement (announced column unusable) with, for every open box ``b`` of the
   announced column, the turn's value when ``b`` is announced: at the end of such a turn the dice go
   into ``b`` (its ``delta``) or the cheapest cross-out elsewhere (0 points, best ``delta``),
   whichever is worth more. It announces the best ``b`` when that beats not announcing.

6. **Learned whole-sheet correction (issue 28).** Where a model ships for the rule set
   (``pasch/bots/data/<rules>.json``, checked by its SHA-256), every turn-end value also gets the change of
   a linear correction ``w . phi(sheet)`` of the per-column sum (:mod:`pasch.bots._sheetvalue`): zero where one
   column is open, fitted by ``pasch train`` on self-play. ``learned=False`` plays without it. Measured on 2,000
   paired seeded games (``bench/learned.py``): the full fit loses in every game (jetsi -3.5, kniffel-3 -21,
   kniffel-4 -43 points); a third of the first fit (``--scale 0.3``) wins in jetsi (+1.6 +- 0.5) and
   kniffel-3 (+2.5 +- 0.5) and loses in kniffel-4 (-3.6 +- 0.7): jetsi and kniffel-3 ship a model. A sweep
   of the damping on games 0-999 (0.1, 0.2, 0.3, 0.5 of the fit; kniffel-4 0.1, 0.2, 0.3) kept 0.3 for jetsi
   (+2.5 +- 0.8; 0.1/0.2/0.5: +1.4, +1.5, +1.5) and kniffel-3 (+2.7 +- 0.8; +0.9, +1.8, +2.7) and picked 0.1
   for kniffel-4 (+0.5 +- 0.8; 0.2: -1.2), which games 1000-1999 did not confirm (+0.4 +- 0.8): kniffel-4 ships
   none. Retrained on 2026-11-28 with kniffel-4's current settings (the announced column's table in), on its games
   0-399, paired: one generation of 4,000 games (seed 1) at 0.1, 0.2, 0.3 and 0.5 of the fit -0.4 +- 0.9,
   +0.1 +- 0.9, -2.3 +- 1.1, -5.3 +- 1.1; three generations of 2,000 games at 0.3 (seed 2) -0.6 +- 1.1. The
   fit halves the error of the per-column sum's prediction of the final score (26 to 13 points) and still chooses
   no better: kniffel-4 still ships none.

The tuned settings per game (``TUNED``) were chosen on seeded solo self-play (2,000 games per setting,
``bench/bots.py``); what else was tried and did not help is in the docstring of :data:`TUNED`.

Every chosen action is checked against the engine's legal actions; should the model ever disagree
with the engine, the bot falls back to the legal entry paying most now (``fallbacks`` counts them).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pasch.bots._base import Bot
from pasch.bots._columns import _NEG, _TABLES, F64, _Blend, _Column, _frozen
from pasch.bots._sheetvalue import SheetModel, load_model, sheet_arrays
from pasch.dice import keep_groups, space, transition_tables
from pasch.engine import Action, Announce, GameState, Keep, Roll, Score, State
from pasch.errors import IllegalActionError, ModelFileError, RuleSetError
from pasch.rules import GameKind, Order, RuleSet

if TYPE_CHECKING:
    from pasch.solver import SlackTable

__all__ = ["MultiColumnBot"]


@dataclass(frozen=True)
class Settings:
    """Tuned knobs of the multi-column bot (see the module docstring)."""

    slack_factor: float = 0.3  # share of a fixed-order column's slack credited (0: plain forced tables)
    announced_slot: float = -10.0  # points per announced box, scaled by the share of boxes still open
    announced_slack: float = 0.0  # share of the announced column's slack credited (0: its free table instead)
    free_slack: float = 0.3  # share of the free column's slack credited (0: its exact table)
    interpolate: bool = True  # credited slack read between levels (False: rounded down, as before issue 28)


TUNED: dict[str, Settings] = {
    "kniffel-4": Settings(slack_factor=0.3, free_slack=0.3, announced_slot=-5.0, announced_slack=0.3),
    "kniffel-3": Settings(slack_factor=0.3, free_slack=0.3),
    "jetsi": Settings(slack_factor=0.3, free_slack=0.3),
}
"""Settings per catalogue game (issue 28), chosen on ``bench/learned.py``'s games 0-399 (seed 2029, paired and
luck-adjusted against the settings before: fixed-order slack 0.7, kniffel-4 0.5, rounded down, the free column
its plain table) and confirmed on games 400-1999:

    settings (slack, free slack)          jetsi          kniffel-3      kniffel-4
    0.7 / 0 rounded (before)              0              0              0
    0.7 / 0.3 rounded                     -4.8 +- 1.5    -3.9 +- 1.4    -5.2 +- 1.7
    0.7 / 0.15 rounded                    -9.5 +- 1.5    -9.4 +- 1.4
    0.7 / 0 read between levels           +2.5 +- 1.3    +2.8 +- 1.2
    0.7 / 0.3 read between levels         +7.7 +- 1.7    +7.5 +- 1.5    +9.7 +- 1.8 (slack 0.5)
    0.7 / 0.4 read between levels         +6.7 +- 1.7    +7.6 +- 1.4
    0.5 / 0.3 read between levels         +13.3 +- 1.5   +14.1 +- 1.4
    0.3 / 0.3 read between levels (kept)  +18.5 +- 1.6   +18.5 +- 1.5   +17.5 +- 1.8
    0.3 / 0.4 read between levels         +18.0          +18.8          (paired against 0.3 / 0.3: -0.4, +0.2)
    0.2 / 0.2 read between levels         +17.8          +17.9          +15.5
    games 400-1999, 0.3 / 0.3             +15.8 +- 0.7   +15.3 +- 0.6   +18.5 +- 0.7

(kniffel-4 with 0.3 / 0.3, the announced column valued with the free table and slot -10, against the same with slot
-5: -8.1 +- 1.9, -15: -18.7 +- 1.8, the announced column's slack table at 0.3 and slot -10: -5.5 +- 1.8; the
announced column's table with slot -5 is what kniffel-4 plays now, below.) Rounding the credited slack down was
what made the free column's levels look useless before: with it, a factor below 1 makes most turns cost the column
nothing and every few turns a whole level. Tried before, without gain (within the 95 % interval, or worse), all
with the slack rounded down: premiums per open box and remaining-turn count fitted by approximate policy iteration
(Monte Carlo residuals, ridge least squares), per-column value scales and slot values fitted by regression, column
tables with a fourth throw, an announcement margin of +-10, a two-turn lookahead over the four best entries, larger
slack factors (1.0 starves the free column), a table of the announced column played alone (box chosen after the
first throw; exact without extra points, checked against a plain recursive reference; 950.9 +- 7.2 against 954.5 +-
7.3 over 1,000 games; see the git history).

The announced column's exact slack table (``announced_slack``, issue 28) was first measured with the settings
before (fixed-order slack 0.5 rounded down; kniffel-4's games 0-999, paired against them): factor 0.5 with the
slot -10 -1.0 +- 1.1, with slot 0 -4.6 +- 1.1, with slot -20 -23.1 +- 1.3 (800 games); factor 1.0 with slot
-10 0.0 +- 1.2, so it stayed off, although the table predicts the column's mean in play well (W = 242.3 at the
start, credited slack 19; the column scores 241-243 in play) where the free table says 253.3. With every other
column credited 0.3 of its slack between levels it pays. On the small games of kniffel-4's shape
(``bench/multi_exact.py``'s ``k4-plain`` and ``k4-kind``, 1,500 games, adjusted, against 191.3 and 216.5 with the
free table and slot -10; optimum 201.9 and 229.8) the table with slot 0 scored 192.8 / 220.8 at factor 0.3,
194.7 / 222.6 at 0.6 and 195.9 / 224.4 at 1.0 (the free table with slot 0: 192.5 / 219.6). On kniffel-4 itself
(games 0-399, paired against the free table with slot -10, the settings of that morning; 800 games where
stated):

    announced slack / slot     0             -3            -5            -7            -10
    0.3                                                    +9.4 +- 1.1
    0.4                                      +8.4 +- 1.1   +9.1 +- 1.1
    0.6                        +3.2 +- 0.8   +8.1 +- 1.2   +9.2 +- 1.2   +4.4 +- 1.2   -2.4 +- 1.2
    0.8                        +1.4 +- 1.2
    1.0                        +1.3 +- 1.2                 +4.8 +- 1.2                 -1.3 +- 1.2

0.3 / -5 is kept (the plateau's smallest table: 12 levels, 25 MB, built in about 5 s on first use),
confirmed on games 400-1999: +7.6 +- 0.6 (games 0-1999: 980.1 +- 0.4 against 972.2 +- 0.4). Rule sets
outside this table (a kniffel-4 with modifiers) keep the defaults, the free table and slot -10; ``+sharp``
has no announced table.

Whether to announce at all is at its best as it is: a margin that announcing must win by, scaled like the slot by
the share of boxes still open (``m * t_after / N`` added to the value of not announcing; a scratch setting, not
kept), on kniffel-4's games 0-399 paired against these settings (2026-11-28): m = 4 -5.6 +- 1.1, 2 -0.7 +- 1.1,
1 +0.9 +- 0.9, -1 -3.2 +- 0.9, -4 -17.3 +- 1.0. In play (300 seeded games) the columns score 199.6 (down), 212.9
(up), 250.9 (announced) and 318.9 (free), with 15.2 announcements a game. With the announced column's table in,
the other columns' credited slack is still at its best (the same games and pairing): ``slack_factor`` 0.2 -0.8 +-
1.0, 0.4 -5.7 +- 1.0; ``free_slack`` 0.2 -0.6 +- 0.8, 0.4 -1.5 +- 0.7, 0.5 -2.1 +- 0.9.

Jetsi's free column is used as much as it should be, as far as a premium can tell. The rollout yardstick
(``bench/rollout.py``) read +2.7 +- 1.3 points on its first 94 jetsi games, and most of its switches moved an entry
from a fixed-order column to the free one. A premium for every free-column entry (points, scaled like the announced
slot by the share of boxes still open, ``p * t_after / N``; a scratch setting, not kept), on jetsi's games 0-399
paired against these settings (2026-11-28, ``bench/learned.py``, the shipped model): p = 1.5 -0.1 +- 0.7, 3 -0.4 +-
0.8, 6 -9.1 +- 0.9, -2 -3.2 +- 0.6, -4 -7.4 +- 0.8; growing instead as the sheet fills (``p * (1 - t_after / N)``):
p = 1 -0.6 +- 0.4, 2 -1.1 +- 0.5, -1 -1.4 +- 0.4. The switches are no more than chance gives (``--report``'s
decisions table: 117 alternatives above two standard errors of 8,976 rolled out, where 205 would be if every
alternative were as good as the bot's choice).

The settings sit on a plateau in two more directions (2026-11-28, kniffel-4's games 0-399, seed 2029, paired and
luck-adjusted against these settings; scratch settings, not kept). A factor of its own for the bottom-up column
(down / up): 0.3 / 0.2 +0.5 +- 0.9, 0.4 / 0.3 +0.1 +- 0.9, 0.4 / 0.2 -0.2 +- 0.9, 0.2 / 0.3 -2.7 +- 1.0, 0.2 / 0.4
-6.0 +- 1.1, 0.3 / 0.4 -6.3 +- 1.0 (in play the down column scores 199.6 where its table expects 218.8 at the first
turn's credited slack, the up column 212.9 where it expects 225.3: both fall short, the down column more). Every
credited slack scaled with the game's phase, ``1 + k * (t_after / N - 0.5)``, on tables half as deep again so that
the first turns are not clipped at the deepest level: k = 0 -0.1 +- 0.7 (the deeper tables alone), +0.3 -1.1 +-
0.9, +0.6 -1.9 +- 1.0, -0.3 -2.0 +- 0.9, -0.6 -2.6 +- 1.0.

Late announcements, the same games: the kniffel-4 rollout yardstick at ``--z 2`` (``bench/rollout.py``) left the
bot's announcement of the announced column's last box (four of a kind, after a weak first throw) in 5 of its first
20 switches, so a margin that announcing must win by there was tried (scratch settings, not kept): when that column
has one box left, 2 points -0.3 +- 0.1, 4 -1.2 +- 0.2, 8 -2.8 +- 0.2; growing as the sheet fills,
``c * (1 - t_after / N)``, c = 3 -2.9 +- 0.8, 6 -11.0 +- 1.0; a constant 1 point -0.6 +- 1.0. The switches of a few
games are not a rule.

A bonus for a lagging announced column (2026-11-29; a scratch subclass, not kept): its entries credited ``c2 * (open
announced boxes - turns left / 4)`` points beside the slot, so that announcing is pressed when the column falls
behind its share of the turns. On ``bench/multi_exact.py``'s small games of kniffel-4's shape, whose exact optimum
shows where the announcements lose (with these settings 6.3 points a game on ``k4-kind``, nearly all of it
announcing where the optimum does not, two thirds in the first five turns; the slot at 0 splits it into 4.5 too
often and 2.3 too rarely and scores less), ``c2 = 2`` gained +1.0 (``k4-plain``) and +1.7 (``k4-kind``) over 400
games each; on kniffel-4 itself (games 0-299 of ``bench/learned.py``'s dice, seed 2029, paired and luck-adjusted) it
lost -0.96 +- 1.17. The small games' tuning does not carry over to the full game."""


@dataclass
class _Plan:
    """The turn's evaluation under one announcement choice: turn-end values and keep values per throw count."""

    end: F64  # [s, r]
    keeps: dict[int, F64]  # throws left -> keep values E[k]
    reach: dict[int, F64]  # throws left -> value of a throw [s, r]


class MultiColumnBot(Bot):
    """Plays jetsi, kniffel-3 and kniffel-4 (and any sheet rule set) from exact per-column tables.

    See the module docstring for the method.

    Args:
        announce_margin: points by which announcing must beat not announcing (kniffel-4).
        learned: the learned whole-sheet correction (:mod:`pasch.bots._sheetvalue`, issue 28): None uses the
            model shipped for the rule set when there is one, False never (the plain per-column sum), True
            requires a shipped one.
        model: a model to use instead of the shipped one (training, tests); implies ``learned``.
    """

    name = "multi"

    def __init__(
        self,
        announce_margin: float = 0.0,
        *,
        slack_factor: float | None = None,
        announced_slot: float | None = None,
        announced_slack: float | None = None,
        free_slack: float | None = None,
        interpolate: bool | None = None,
        learned: bool | None = None,
        model: SheetModel | None = None,
    ) -> None:
        self.announce_margin = announce_margin
        self.learned = learned
        self._model = model
        self._models: dict[str, SheetModel | None] = {}
        self.slack_factor = slack_factor
        self.announced_slot = announced_slot
        self.announced_slack = announced_slack
        self.free_slack = free_slack
        self.interpolate = interpolate
        self.fallbacks = 0
        self._cache: dict[tuple[object, ...], Any] = {}
        self._last_turn: tuple[object, RuleSet, dict[str, Any]] | None = None

    def forget(self) -> None:
        """Drop the turn plans computed so far (after the model or the settings changed)."""
        self._cache.clear()
        self._last_turn = None

    def settings(self, rules: RuleSet) -> Settings:
        """The settings used for a rule set: the tuned ones of its game, overridden by the constructor's."""
        base = TUNED.get(rules.id, Settings())
        return Settings(
            base.slack_factor if self.slack_factor is None else self.slack_factor,
            base.announced_slot if self.announced_slot is None else self.announced_slot,
            base.announced_slack if self.announced_slack is None else self.announced_slack,
            base.free_slack if self.free_slack is None else self.free_slack,
            base.interpolate if self.interpolate is None else self.interpolate,
        )

    def model(self, rules: RuleSet) -> SheetModel | None:
        """The learned correction used for a rule set (None: the plain per-column sum).

        Raises:
            ModelFileError: the shipped file fails its checksum, or ``learned=True`` and none ships.
        """
        if self._model is not None:
            return self._model if self._model.rules.cache_key == rules.cache_key else None
        if self.learned is False or rules.n_columns < 2:
            return None
        if rules.cache_key not in self._models:
            got = load_model(rules)
            if got is None and self.learned:
                raise ModelFileError(f"{rules.id}: no learned model ships for these rules")
            self._models[rules.cache_key] = got
        return self._models[rules.cache_key]

    # -- tables -----------------------------------------------------------------------------------
    def _column(self, rules: RuleSet, order: Order) -> _Column:
        from pasch.solver import Solver

        key = self._column_key(rules, order)
        table_order = key[2]

        def make() -> _Column:
            single = rules
            if rules.columns != (table_order,):
                single = dataclasses.replace(rules, columns=(table_order,), id=f"{rules.id}.{table_order.value}")
            return _Column(Solver.load(single))

        return _TABLES.get(key, make)

    @staticmethod
    def _column_key(rules: RuleSet, order: Order) -> tuple[str, str, Order]:
        # The announced column is valued with the free column's exact table (and its own slack table).
        return ("column", rules.cache_key, Order.FREE if order is Order.ANNOUNCED else order)

    def _slack(self, rules: RuleSet, order: Order) -> SlackTable | None:
        """The slack table of a fixed-order column of a multi-column game (None: not used).

        Not used with ``+sharp`` (the slack tables model ordinary throws only) or a slack factor of 0.
        """
        key = self._slack_key(rules, order)
        if key is None:
            return None
        most = key[3]

        def make() -> SlackTable:
            from pasch.solver import slack_table

            table = slack_table(self._column(rules, order).solver, most)
            _frozen(table.values)
            return table

        return _TABLES.get(key, make)

    def _slack_key(self, rules: RuleSet, order: Order) -> tuple[str, str, Order, int] | None:
        if order not in (Order.DOWN, Order.UP) or rules.n_columns < 2 or rules.sharp:
            return None
        factor = self.settings(rules).slack_factor
        if not factor:
            return None
        # The most slack ever credited: a column with one open box when all others are open too.
        return ("slack", rules.cache_key, order, int(factor * (rules.n_columns - 1) * len(rules.categories)))

    def _free_levels(self, rules: RuleSet, order: Order) -> npt.NDArray[np.float32] | None:
        """The slack levels of a free column of a multi-column game (:func:`pasch.solver.free_slack_levels`),
        None where not used (``free_slack`` 0, ``+sharp``, one column, not a free column)."""
        key = self._levels_key(rules, order)
        if key is None:
            return None

        def make() -> npt.NDArray[np.float32]:
            from pasch.solver import free_slack_levels

            return _frozen(free_slack_levels(self._column(rules, order).solver, key[2]))

        return _TABLES.get(key, make)

    def _levels_key(self, rules: RuleSet, order: Order) -> tuple[str, str, int] | None:
        factor = self.settings(rules).free_slack
        if order is not Order.FREE or rules.n_columns < 2 or rules.sharp or not factor:
            return None
        return ("levels", rules.cache_key, int(factor * (rules.n_columns - 1) * len(rules.categories)))

    @staticmethod
    def _blend(levels: npt.NDArray[Any], factor: float, s_raw: int, interpolate: bool) -> _Blend:
        """A column's value at the credited slack ``factor * s_raw`` (clipped to the levels kept): with
        ``interpolate`` read between the two levels around it, so each turn passed costs the column ``factor``
        of a level, not a whole level every ``1 / factor`` turns; else rounded down (as before issue 28)."""
        x = factor * s_raw if interpolate else float(int(factor * s_raw))
        return _Blend(levels, min(max(x, 0.0), len(levels) - 1.0))

    def _credited(
        self, levels: npt.NDArray[Any], factor: float, s_raw: int, interpolate: bool
    ) -> tuple[_Blend, _Blend]:
        """The column's values for an entry here and for one elsewhere: entering here keeps its slack
        ``s_raw`` (one turn and one box fewer), entering elsewhere costs it a pass (``s_raw - 1``)."""
        after = self._blend(levels, factor, s_raw, interpolate)
        return after, (self._blend(levels, factor, s_raw - 1, interpolate) if s_raw > 0 else after)

    def _slack_entries(
        self, rules: RuleSet, slack: SlackTable, scores: tuple[int | None, ...], t_open: int
    ) -> tuple[F64, list[int], tuple[int, float], npt.NDArray[np.int64]]:
        """Entry values of a fixed-order column valued with its slack table (see :class:`pasch.solver.SlackTable`).

        Entering now keeps the column's slack ``s = T - n`` (one turn and one box fewer); entering
        elsewhere would cost it a pass (slack ``s - 1``), so an entry is worth
        ``points + W[k + 1, ..., s] - W[k, ..., s - 1]``. The credited slack is ``slack_factor * s``.
        Returns the entries and upper points as :meth:`_Column.entries` does, and the cross-out ``(box, value)``.
        """
        _, flag, upper = self._column(rules, slack.order).key(scores)
        k = slack.filled(scores)
        s_raw = t_open - (len(scores) - k)
        settings = self.settings(rules)
        levels = np.moveaxis(slack.values, 3, 0)  # [s, k, flag, upper]: a view
        after, now = self._credited(levels, settings.slack_factor, s_raw, settings.interpolate)
        p = slack.p
        points, up, nf = slack.fill_arrays(k, flag)
        thr = p.threshold
        u = min(upper, thr)
        u2 = np.minimum(upper + up, thr)
        bonus = np.where((upper < thr) & (upper + up >= thr), p.bonus, 0) if thr > 0 else 0
        before = now[k, flag, u]
        d = points + bonus + after[k + 1, nf, u2] - before
        box = slack.seq[k]
        zero = (box, float(after[k + 1, slack.zero_flag(k, flag), u] - before))
        up_arr = np.asarray(up, dtype=np.int64)[None, :, None]
        return np.asarray(d, dtype=np.float64)[None, :, None], [box], zero, up_arr

    def _announced_table(self, rules: RuleSet) -> npt.NDArray[np.float32] | None:
        """The announced column's slack table (:func:`pasch.solver.announced_table`), None where not used."""
        key = self._announced_key(rules)
        if key is None:
            return None

        def make() -> npt.NDArray[np.float32]:
            from pasch.solver import announced_table

            return _frozen(announced_table(self._column(rules, Order.ANNOUNCED).solver, key[2]))

        return _TABLES.get(key, make)

    def _announced_key(self, rules: RuleSet) -> tuple[str, str, int] | None:
        factor = self.settings(rules).announced_slack
        if rules.announced_column is None or not factor or rules.sharp:
            return None
        return ("announced", rules.cache_key, int(factor * (rules.n_columns - 1) * len(rules.categories)))

    def _table_keys(self, rules: RuleSet) -> list[tuple[Any, ...]]:
        """The keys in :data:`_TABLES` of every table this bot reads for ``rules``."""
        keys: list[tuple[Any, ...]] = []
        for order in dict.fromkeys(rules.columns):
            keys.append(self._column_key(rules, order))
            keys.extend(k for k in (self._slack_key(rules, order), self._levels_key(rules, order)) if k is not None)
        if (key := self._announced_key(rules)) is not None:
            keys.append(key)
        return list(dict.fromkeys(keys))

    def prepare(self, rules: RuleSet) -> None:
        """Load (or, on a machine whose cache directory lacks them, build) every table the bot reads for
        ``rules`` and the learned model, so that its next decision does not wait: a fraction of a second from
        the cache, about 20 s to build kniffel-4's on a shared two-core machine. The tables are shared by every
        bot of the process and built once (a second caller waits for the first one's build).

        Raises:
            RuleSetError: not a sheet game.
            ModelFileError: the shipped model fails its checksum.
        """
        if rules.kind is not GameKind.SHEET:
            raise RuleSetError(f"{rules.id}: the multi-column bot plays sheet games")
        for order in dict.fromkeys(rules.columns):
            self._column(rules, order)
            self._slack(rules, order)
            self._free_levels(rules, order)
        self._announced_table(rules)
        self.model(rules)

    def ready(self, rules: RuleSet) -> bool:
        """Whether every table the bot reads for ``rules`` is in memory (a decision does not wait for one)."""
        return all(_TABLES.holds(k) for k in self._table_keys(rules))

    def _announced_entries(
        self, rules: RuleSet, w: npt.NDArray[np.float32], scores: tuple[int | None, ...], t_open: int
    ) -> tuple[F64, list[int], npt.NDArray[np.int64]]:
        """Entry values of the announced column valued with its slack table, as :meth:`_slack_entries` does:
        ``points + W[after, s] - W[before, s - 1]`` with ``s`` the credited slack (``announced_slack`` of the
        turns left beyond its open boxes)."""
        col = self._column(rules, Order.ANNOUNCED)
        p = col.p
        mask, flag, upper = col.key(scores)
        open_boxes = [i for i, v in enumerate(scores) if v is None]
        ob = np.array(open_boxes, np.int64)
        s_raw = t_open - len(open_boxes)
        settings = self.settings(rules)
        levels = np.moveaxis(w, 2, 0)  # [s, mask, upper]: a view
        after_t, now_t = self._credited(levels, settings.announced_slack, s_raw, settings.interpolate)
        ctx, _ = col.solver.contexts(mask, flag)
        r_idx = np.arange(col.n_rolls)[:, None]
        sel = (ctx[:, None], 0, r_idx, ob[None, :])
        up = p.row_up[p.rowsel[sel]].astype(np.int64)
        gain = (up + p.cval[sel]).astype(np.float64)
        thr = p.threshold
        if thr > 0 and upper < thr:
            gain = gain + np.where(upper + up >= thr, p.bonus, 0)
        after = after_t[mask | (1 << ob)[None, :], np.minimum(upper + up, thr)]
        d = gain + after - float(now_t[mask, upper])
        return d[None, :, :], open_boxes, up[None, :, :]

    # -- the turn -------------------------------------------------------------------------------
    def _plan(self, rules: RuleSet, end: F64) -> _Plan:
        trans, _, _, empty = transition_tables(rules.dice, rules.faces)
        flat, starts = keep_groups(rules.dice, rules.faces)
        n_sharp = end.shape[0]
        keeps: dict[int, F64] = {}
        reach: dict[int, F64] = {0: end}
        for left in range(1, rules.throws):
            prev = reach[left - 1]
            e = trans @ prev[0]
            if n_sharp == 2:
                e[empty] = trans[empty] @ prev[1]
            keeps[left] = e
            best_keep = np.maximum.reduceat(e[flat], starts)
            reach[left] = np.maximum(end, best_keep[None, :])
        return _Plan(end, keeps, reach)

    def _turn(self, state: GameState) -> dict[str, Any]:
        sheet = state.sheets[state.current]
        last = self._last_turn  # the states of one turn share their sheet: no key to build and hash again
        if last is not None and last[0] is sheet and last[1] is state.rules:
            return last[2]
        turn = self._turn_sheet(state.rules, tuple(c.scores for c in sheet.columns))
        self._last_turn = (sheet, state.rules, turn)
        return turn

    def _turn_sheet(self, rules: RuleSet, cols: tuple[tuple[int | None, ...], ...]) -> dict[str, Any]:
        key = (rules.cache_key, cols)
        got = self._cache.get(key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        if len(self._cache) > 256:
            self._cache.clear()
        ann = rules.announced_column
        n_sharp = 2 if rules.sharp else 1
        n_rolls = len(space(rules.dice, rules.faces).rolls)
        deltas: dict[int, tuple[F64, list[int]]] = {}
        best = np.full((n_sharp, n_rolls), _NEG)
        where = np.full((n_sharp, n_rolls, 2), -1, np.int64)
        cross: tuple[float, int, int] = (_NEG, -1, -1)
        crossings: dict[tuple[int, int], float] = {}
        n_boxes = rules.n_columns * len(rules.categories)
        t_after = sum(col.count(None) for col in cols) - 1
        settings = self.settings(rules)
        model = self.model(rules)
        if model is not None:
            open_now, upper_now = sheet_arrays(rules, cols)
            corr_now = float(model.values(open_now[None], upper_now[None])[0])
        for c, order in enumerate(rules.columns):
            scores = cols[c]
            if all(v is not None for v in scores):
                continue
            col = self._column(rules, order)
            slack = self._slack(rules, order)
            table = self._announced_table(rules) if c == ann else None
            if slack is not None:
                d, open_boxes, zero, up = self._slack_entries(rules, slack, scores, t_after + 1)
                zeros = [zero]
            elif table is not None:
                d, open_boxes, up = self._announced_entries(rules, table, scores, t_after + 1)
                zeros = []
            elif (levels := self._free_levels(rules, order)) is not None:
                s_raw = t_after + 1 - scores.count(None)
                after, now = self._credited(levels, settings.free_slack, s_raw, settings.interpolate)
                d, open_boxes, up = col.entries(scores, after, now)
                zeros = col.zero_entries(scores, after, now)
            else:
                d, open_boxes, up = col.entries(scores)
                zeros = col.zero_entries(scores) if c != ann else []
            if model is not None:
                # The learned correction of the sheet after each entry, less the sheet's now (issue 28).
                tab = model.after_entries(open_now, upper_now, c, open_boxes) - corr_now
                after = tab[np.arange(len(open_boxes))[None, None, :], np.minimum(up, tab.shape[1] - 1)]
                d = np.where(d > _NEG / 2, d + after, _NEG)
                zeros = [(i, z + float(tab[open_boxes.index(i), 0])) for i, z in zeros]
            if c == ann and settings.announced_slot:
                d = np.where(d > _NEG / 2, d - settings.announced_slot * t_after / n_boxes, _NEG)
            deltas[c] = (d, open_boxes)
            if c == ann:
                continue
            j = d.argmax(axis=2)
            v = np.take_along_axis(d, j[..., None], axis=2)[..., 0]
            better = v > best
            best = np.where(better, v, best)
            where[..., 0] = np.where(better, c, where[..., 0])
            where[..., 1] = np.where(better, np.asarray(open_boxes)[j], where[..., 1])
            for i, z in zeros:
                crossings[c, i] = z
                if z > cross[0]:
                    cross = (z, c, i)
        turn: dict[str, Any] = {"deltas": deltas, "where": where, "cross": cross, "crossings": crossings, "plans": {}}
        turn["plans"][None] = self._plan(rules, best) if best.max() > _NEG / 2 else None
        self._cache[key] = turn
        return turn

    def _announced_plan(self, state: GameState, turn: dict[str, Any], box: int) -> _Plan:
        rules = state.rules
        plans = turn["plans"]
        if box not in plans:
            ann = rules.announced_column
            d, open_boxes = turn["deltas"][ann]
            mine = d[..., open_boxes.index(box)]
            plans[box] = self._plan(rules, np.maximum(mine, turn["cross"][0]))
        return plans[box]  # type: ignore[no-any-return]

    # -- estimates ------------------------------------------------------------------------------
    def sheet_value(self, state: GameState) -> float:
        """The bot's estimate of the final total of the player to act, at the start of a turn.

        The points on the sheet plus each open column's value at the slack it is credited now (see
        :meth:`_slack_entries`; a column valued without slack its exact table's, kniffel-4's announced column
        with ``announced_slack=0`` its free table's), without the announced column's per-entry correction, plus
        the learned whole-sheet correction where one is used (:meth:`model`; zero where one column is open). An
        estimate, not an expected score.

        Raises:
            RuleSetError: not a sheet game.
        """
        rules = state.rules
        if rules.kind is not GameKind.SHEET:
            raise RuleSetError(f"{rules.id}: the multi-column bot plays sheet games")
        me = state.current
        cols = [c.scores for c in state.sheets[me].columns]
        t_open = sum(c.count(None) for c in cols)
        settings = self.settings(rules)
        total = float(state.total(me))
        for order, scores in zip(rules.columns, cols, strict=True):
            if all(v is not None for v in scores):
                continue
            col = self._column(rules, order)
            mask, flag, upper = col.key(scores)
            slack = self._slack(rules, order)
            table = self._announced_table(rules) if order is Order.ANNOUNCED else None
            s_raw = t_open - scores.count(None)
            if table is not None:
                by_slack = np.moveaxis(table, 2, 0)  # [s, mask, upper]: a view
                blend = self._blend(by_slack, settings.announced_slack, s_raw, settings.interpolate)
                total += float(blend[mask, upper])
                continue
            levels = self._free_levels(rules, order)
            if levels is not None:
                total += float(self._blend(levels, settings.free_slack, s_raw, settings.interpolate)[mask, flag, upper])
                continue
            if slack is None:
                total += float(col.values[mask, flag, upper])
                continue
            blend = self._blend(np.moveaxis(slack.values, 3, 0), settings.slack_factor, s_raw, settings.interpolate)
            total += float(blend[slack.filled(scores), flag, min(upper, slack.p.threshold)])
        model = self.model(rules)
        if model is not None:
            total += model.value(tuple(cols))
        return total

    def rank(self, state: GameState) -> tuple[tuple[Action, float | None], ...]:
        """Every legal action after a throw with the bot's estimate of the final total after it, its choice first.

        The values the bot decides by (see the module docstring), added to :meth:`sheet_value`: a keep is the
        expectation of the turn's best end after throwing again, an entry its value now (points plus the
        change of its column's value; a cross-out of an announced turn alike), an announcement (kniffel-4,
        after the first throw) the value of the turn played for that box. Comparable within one decision;
        estimates, not exact expected scores. An action the model has no value for (should the engine allow
        one it does not know) comes last with None.

        Raises:
            IllegalActionError: no dice on the table, a chance node or the game is over.
            RuleSetError: not a sheet game.
        """
        if state.is_terminal or state.is_chance_node or state.dice is None:
            raise IllegalActionError("nothing to rank: no dice on the table")
        rules = state.rules
        if rules.kind is not GameKind.SHEET:
            raise RuleSetError(f"{rules.id}: the multi-column bot plays sheet games")
        chosen = self.choose(state, np.random.default_rng(0))
        turn = self._turn(state)
        sp = space(rules.dice, rules.faces)
        r = sp.roll_index[tuple(sorted(state.dice))]
        s = 1 if rules.sharp and state.sharp else 0
        left = state.throws_left
        ann = rules.announced_column
        box = state.announced
        plan: _Plan | None = turn["plans"][None] if box is None else self._announced_plan(state, turn, box)
        index = {c.id: i for i, c in enumerate(rules.categories)}
        base = self.sheet_value(state)
        out: list[tuple[Action, float | None]] = []
        for a in state.legal_actions():
            v: float | None = None
            if isinstance(a, Keep):
                if plan is not None and left > 0:
                    v = float(plan.keeps[left][sp.keep_index[a.dice]])
            elif isinstance(a, Announce):
                v = float(self._announced_plan(state, turn, index[a.category]).reach[left][s, r])
            elif isinstance(a, Score):
                c, i = (a.column or 1) - 1, index[a.category]
                got = turn["deltas"].get(c)
                if box is not None and (c, i) != (ann, box):
                    v = turn["crossings"].get((c, i))
                elif got is not None and i in got[1]:
                    d = got[0][min(s, got[0].shape[0] - 1), r, got[1].index(i)]
                    v = float(d) if d > _NEG / 2 else None
            out.append((a, None if v is None else base + v))
        known = sorted((x for x in out if x[1] is not None and x[0] != chosen), key=lambda x: -float(x[1] or 0.0))
        mine = [x for x in out if x[0] == chosen] or [(chosen, None)]
        return tuple(mine + known + [x for x in out if x[1] is None and x[0] != chosen])

    # -- choosing -------------------------------------------------------------------------------
    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """The action of the turn's best plan (see the module docstring).

        Raises:
            IllegalActionError: the state is a chance node or the game is over.
            RuleSetError: not a sheet game.
        """
        if state.is_terminal or state.is_chance_node:
            raise IllegalActionError("no decision to make: the game is over or dice are in the air")
        rules = state.rules
        if rules.kind is not GameKind.SHEET or not isinstance(state, GameState):
            raise RuleSetError(f"{rules.id}: the multi-column bot plays sheet games")
        legal = state.legal_actions()
        if state.dice is None:
            return next((a for a in legal if isinstance(a, Roll)), legal[0])
        action = self._decide(state)
        if action in legal:
            return action
        self.fallbacks += 1
        return self._fallback(state, legal)

    def _decide(self, state: GameState) -> Action:
        rules = state.rules
        turn = self._turn(state)
        sp = space(rules.dice, rules.faces)
        r = sp.roll_index[tuple(sorted(state.dice or ()))]
        s = 1 if rules.sharp and state.sharp else 0
        left = state.throws_left
        ann = rules.announced_column
        box = state.announced
        if box is None and ann is not None and left == rules.throws - 1 and ann in turn["deltas"]:
            free_plan: _Plan | None = turn["plans"][None]
            base = free_plan.reach[left][s, r] if free_plan is not None else _NEG
            choice, value = None, base + self.announce_margin
            for b in turn["deltas"][ann][1]:
                v = self._announced_plan(state, turn, b).reach[left][s, r]
                if v > value or (free_plan is None and choice is None):
                    choice, value = b, v
            if choice is not None:
                return Announce(rules.categories[choice].id)
        plan = turn["plans"][None] if box is None else self._announced_plan(state, turn, box)
        return self._best_keep(state, plan, s, r) or self._entry(state, turn, box, s, r)

    @staticmethod
    def _best_keep(state: GameState, plan: _Plan, s: int, r: int) -> Keep | None:
        """The plan's best keep of throw ``r`` when throwing again beats entering now, else None."""
        left = state.throws_left
        if left == 0:
            return None
        rules = state.rules
        _, rsub, valid, _ = transition_tables(rules.dice, rules.faces)
        ks = rsub[r][valid[r]]
        e = plan.keeps[left][ks]
        q = int(e.argmax())
        if e[q] > plan.end[s, r] + 1e-9:
            return Keep(space(rules.dice, rules.faces).keeps[int(ks[q])])
        return None

    def _entry(self, state: GameState, turn: dict[str, Any], box: int | None, s: int, r: int) -> Action:
        rules = state.rules
        multi = rules.n_columns > 1

        def score(c: int, i: int) -> Score:
            return Score(rules.categories[i].id, c + 1 if multi else None)

        if box is None:
            c, i = (int(x) for x in turn["where"][s, r])
            return score(c, i)
        ann = rules.announced_column
        assert ann is not None
        d, open_boxes = turn["deltas"][ann]
        mine = float(d[s, r, open_boxes.index(box)])
        z, c, i = turn["cross"]
        if mine >= z or c < 0:
            return score(ann, box)
        return score(c, i)

    @staticmethod
    def _fallback(state: GameState, legal: tuple[Action, ...]) -> Action:
        best: Action | None = None
        points = -1
        for column, option in state.score_options():
            if option.total > points:
                points, best = option.total, state.score_action(column, option.index)
        if best is not None and best in legal:
            return best
        return next((a for a in legal if isinstance(a, Score)), legal[0])
