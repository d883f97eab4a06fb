"""Provably fair dice: a CSPRNG seed, its SHA-256 commitment, the throw stream, and verification.

At room creation the server draws 32 bytes from :mod:`secrets`; it publishes ``sha256(seed)`` at once and
reveals the seed when the game ends. Every throw of the game is drawn, in order, from
``numpy.random.default_rng(int(seed))`` with :func:`pasch.dice.throw`, so anyone holding the log and the
seed recomputes every throw (:func:`verify`, ``pasch verify LOG``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field

from pasch.dice import DiceTuple, SeededDice
from pasch.engine import Action, GameLog, Throw, new_game
from pasch.errors import PaschError

__all__ = ["DiceStream", "FairReport", "commitment_of", "new_seed", "verify"]


def new_seed() -> str:
    """A fresh seed from the operating system's CSPRNG, as 64 hex digits."""
    return secrets.token_hex(32)


def commitment_of(seed: str) -> str:
    """The published commitment of a seed: SHA-256 of its bytes, as hex.

    Raises:
        ValueError: the seed is not hex.
    """
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


class DiceStream(SeededDice):
    """The sequence of throws a room's seed gives: a seeded dice source (:class:`pasch.dice.SeededDice`)
    whose generator is ``numpy.random.default_rng(int(seed, 16))``, so anyone with the seed recomputes every
    throw; ``count`` is the number of throws drawn. A room's :class:`pasch.app.Match` throws from it, and the
    server rewinds it when a throw's event was not written, so the stream stays in step with the log.
    """

    __slots__ = ("count",)

    def __init__(self, seed: str) -> None:
        super().__init__(int(seed, 16))
        self.count = 0

    def throw(self, n: int, faces: int) -> DiceTuple:
        """The next throw: ``n`` dice with ``faces`` faces, sorted."""
        self.count += 1
        return super().throw(n, faces)

    def mark(self) -> object:
        """The stream's position, for :meth:`rewind`."""
        return super().mark(), self.count

    def rewind(self, mark: object) -> None:
        """Go back to a position from :meth:`mark`.

        Raises:
            TypeError: not a position from :meth:`mark`.
        """
        if not (isinstance(mark, tuple) and len(mark) == 2):
            raise TypeError("not a position of this dice stream")
        super().rewind(mark[0])
        self.count = mark[1]


@dataclass(slots=True)
class FairReport:
    """The result of :func:`verify`.

    Attributes:
        fair: every throw matches the seed and the seed matches the commitment.
        throws: number of throws checked.
        problems: one line per mismatch (empty when fair); the first mismatching throw comes first.
        commitment: the commitment checked against (None: none was known).
        commitment_source: where it came from: ``given`` (what the player saw) or ``log``.
        seed: the seed the throws were recomputed from.
    """

    fair: bool
    throws: int
    problems: list[str] = field(default_factory=list)
    commitment: str | None = None
    commitment_source: str | None = None
    seed: str | None = None


def verify(log: GameLog, seed: str | None = None, commitment: str | None = None) -> FairReport:
    """Recompute every throw of ``log`` from the seed and compare.

    The seed defaults to the log's ``meta["seed"]``; the commitment to check is the one given (what the
    player saw before the first throw: a server cannot rewrite that one), else the log's ``meta["commitment"]``.
    A throw that differs from the seed's makes the game UNFAIR even when, after it, the log no longer replays
    (the tampered throw changed what was legal).

    Raises:
        PaschError: the log has no served dice seed, the seed or commitment is not hexadecimal, or an action
            cannot be replayed although every throw before it matched.
    """
    raw_seed = seed if seed is not None else log.meta.get("seed")
    if isinstance(raw_seed, int) and not isinstance(raw_seed, bool):
        raise PaschError(
            f"this log is a local game (meta.seed {raw_seed} is the seed of 'pasch play --seed', not a served "
            "game's dice seed); verify checks games served by pasch serve"
        )
    if not isinstance(raw_seed, str) or not raw_seed:
        raise PaschError("the log reveals no dice seed (meta.seed); the game is unfinished or not from pasch serve")
    seed = raw_seed
    source = "given" if commitment is not None else ("log" if log.meta.get("commitment") else None)
    commitment = commitment if commitment is not None else log.meta.get("commitment")
    try:
        digest = commitment_of(seed)
    except ValueError:
        raise PaschError(f"the seed {seed[:16]!r}... is not hexadecimal") from None
    report = FairReport(fair=True, throws=0, commitment=commitment, commitment_source=source, seed=seed)
    if commitment is not None:
        given = str(commitment).strip().lower()
        if len(given) != 64 or any(c not in "0123456789abcdef" for c in given):
            raise PaschError(f"the commitment {str(commitment)[:20]!r} is not 64 hexadecimal digits")
        report.commitment = given
        if digest != given:
            report.fair = False
            report.problems.append(f"sha256(seed) is {digest}, but the commitment ({source}) is {given}")
    state = new_game(log.rules, log.players, keeper=log.keeper)
    stream = DiceStream(seed)
    for n, text in enumerate(log.actions, start=1):
        try:
            action = Action.parse(text)
        except PaschError as exc:
            if not report.fair:
                break
            raise PaschError(f"action {n} ({text!r}) cannot be read: {exc}") from None
        if isinstance(action, Throw):
            expected = stream.throw(state.pending, state.rules.faces)
            report.throws += 1
            if tuple(sorted(action.dice)) != expected:
                report.fair = False
                report.problems.append(
                    f"action {n}: logged {text!r}, the seed throws 'throw {' '.join(map(str, expected))}'"
                )
        try:
            state = state.apply(action)
        except PaschError as exc:
            if not report.fair:
                report.problems.append(f"action {n} ({text!r}) no longer replays after the mismatch: {exc}")
                break
            raise PaschError(f"action {n} ({text!r}) cannot be replayed: {exc}") from None
    return report
