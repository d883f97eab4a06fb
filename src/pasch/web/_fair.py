"""Provably fair dice: a CSPRNG seed, its SHA-256 commitment, the players' own seeds, the throw stream, and
verification.

At room creation the server draws 32 bytes from :mod:`secrets` and publishes ``sha256(seed)`` at once. Rooms
created since the dice version ``pasch-dice-v2`` (:data:`DICE_V2`) then take a 32-byte random contribution
from every seated player's page (``contribute``) until the first throw, and derive every throw with
HMAC-SHA-256 from the seed and those contributions (:class:`HmacDice`, specified in docs/protocol.md); the
seed is revealed when the game ends. Older rooms and logs (no ``dice`` field in the log's meta, version 1)
drew their throws from ``numpy.random.default_rng(int(seed))`` (:class:`DiceStream`) and stay verifiable.
Anyone holding the log and the seed recomputes every throw (:func:`verify`, ``pasch verify LOG``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pasch.dice import DiceTuple, SeededDice
from pasch.engine import Action, GameLog, Throw, new_game
from pasch.errors import PaschError

__all__ = [
    "DICE_V1",
    "DICE_V2",
    "DiceStream",
    "FairReport",
    "HmacDice",
    "check_contribution",
    "commitment_of",
    "dice_key",
    "dice_stream",
    "new_seed",
    "verify",
]

DICE_V1 = "pasch-dice-v1"
"""Throws from ``numpy.random.default_rng(int(seed, 16))`` (PCG64); the seed is the server's alone."""
DICE_V2 = "pasch-dice-v2"
"""Throws from HMAC-SHA-256 in counter mode, keyed by the seed and the players' contributions."""
_HEX = frozenset("0123456789abcdef")


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


def check_contribution(text: Any) -> str:
    """A player's seed contribution: exactly 32 bytes as 64 hexadecimal digits, returned in lower case.

    Raises:
        PaschError: anything else.
    """
    value = text.strip().lower() if isinstance(text, str) else ""
    if len(value) != 64 or not set(value) <= _HEX:
        raise PaschError("a seed contribution is 32 random bytes as 64 hexadecimal digits")
    return value


def dice_key(seed: str, contributions: Sequence[str | None]) -> bytes:
    """The key of a ``pasch-dice-v2`` game: ``HMAC-SHA-256(key=seed bytes, msg=ASCII text)`` where the text is
    ``"pasch-dice-v2:"`` followed by the seats' contributions in seat order, lower-case hex, joined by ``","``
    (an empty string for a seat that contributed none).

    Raises:
        ValueError: the seed is not hexadecimal.
    """
    message = DICE_V2 + ":" + ",".join(c or "" for c in contributions)
    return hmac.digest(bytes.fromhex(seed), message.encode("ascii"), "sha256")


_FACES: dict[int, tuple[bytes, bytes]] = {}


def _faces_table(faces: int) -> tuple[bytes, bytes]:
    """For ``bytes.translate``: each byte ``b`` as the die ``b % faces + 1``, and the bytes at or above the largest
    multiple of ``faces`` (rejected, so that every face is equally likely)."""
    got = _FACES.get(faces)
    if got is None:
        limit = 256 - 256 % faces
        got = _FACES[faces] = (bytes(b % faces + 1 for b in range(256)), bytes(range(limit, 256)))
    return got


class HmacDice:
    """The ``pasch-dice-v2`` throw stream: throw number ``t`` (0 for the game's first throw) reads the bytes
    of ``HMAC-SHA-256(key, "throw:{t}:{j}")`` for ``j = 0, 1, ...`` (ASCII, decimal numbers) one after the
    other; a byte ``b`` below ``256 - 256 % faces`` is the die ``b % faces + 1``, larger bytes are skipped
    (so every face is exactly equally likely); the throw is its ``n`` dice, sorted. ``key`` is
    :func:`dice_key`. The contributions may change until the first throw; the server refuses them after.

    Args:
        seed: the server's seed (64 hex digits).
        contributions: per seat, the player's contribution or None (the list is read at every throw).
    """

    __slots__ = ("_key", "contributions", "count", "seed")

    def __init__(self, seed: str, contributions: list[str | None] | None = None) -> None:
        bytes.fromhex(seed)  # fail early on a bad seed
        self.seed = seed
        self.contributions: list[str | None] = contributions if contributions is not None else []
        self.count = 0
        self._key: tuple[tuple[str | None, ...], bytes, Any, Any] | None = None

    def key(self) -> bytes:
        """:func:`dice_key` of the seed and the contributions as they are now (derived again when they changed)."""
        return self._keyed()[1]

    def _keyed(self) -> tuple[tuple[str | None, ...], bytes, Any, Any]:
        """The contributions, the key and the key's HMAC-SHA-256 inner and outer hashes (RFC 2104: the key padded
        to SHA-256's block, xor 0x36 and 0x5c), hashed once per key: each throw's HMAC copies them instead of
        setting up an HMAC (which makes OpenSSL 3 look its algorithm up again, every throw)."""
        now = tuple(self.contributions)
        keyed = self._key
        if keyed is None or keyed[0] != now:
            key = dice_key(self.seed, now)
            block = key.ljust(64, b"\0")  # a SHA-256 digest (32 bytes) fits the 64-byte block
            inner = hashlib.sha256(bytes(b ^ 0x36 for b in block))
            outer = hashlib.sha256(bytes(b ^ 0x5C for b in block))
            keyed = self._key = (now, key, inner, outer)
        return keyed

    def throw(self, n: int, faces: int) -> tuple[int, ...]:
        """The next throw: ``n`` dice with ``faces`` faces, sorted.

        Raises:
            ValueError: a die of more than 256 faces.
        """
        if not 1 <= faces <= 256:
            raise ValueError(f"dice of {faces} faces cannot be drawn from bytes")
        _, _, inner_key, outer_key = self._keyed()
        table, rejected = _faces_table(faces)
        dice: list[int] = []
        block = 0
        while len(dice) < n:
            inner = inner_key.copy()
            inner.update(f"throw:{self.count}:{block}".encode("ascii"))
            outer = outer_key.copy()
            outer.update(inner.digest())
            data = outer.digest()  # HMAC-SHA-256(key, "throw:{t}:{j}")
            dice.extend(data.translate(table, rejected))  # each byte below the limit, in order, as b % faces + 1
            block += 1
        self.count += 1
        return tuple(sorted(dice[:n]))

    def mark(self) -> object:
        """The stream's position, for :meth:`rewind`."""
        return self.count

    def rewind(self, mark: object) -> None:
        """Go back to a position from :meth:`mark`.

        Raises:
            TypeError: not a position from :meth:`mark`.
        """
        if not isinstance(mark, int):
            raise TypeError("not a position of this dice stream")
        self.count = mark


def dice_stream(seed: str, version: str, contributions: list[str | None] | None = None) -> DiceStream | HmacDice:
    """The throw stream of a room's seed under its dice version.

    Raises:
        PaschError: an unknown dice version.
        ValueError: the seed is not hexadecimal.
    """
    if version == DICE_V2:
        return HmacDice(seed, contributions)
    if version == DICE_V1:
        return DiceStream(seed)
    raise PaschError(f"unknown dice version {version[:40]!r} (this pasch knows {DICE_V1} and {DICE_V2})")


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
        version: the dice version of the log (``pasch-dice-v1`` or ``pasch-dice-v2``).
        contributions: the players' seed contributions mixed into the dice (version 2).
        mine: whether the contribution given to :func:`verify` is the one at the player's seat (or, with no
            player named, at some seat); None: none was given.
        seat: the seat of the contribution given (None: none given, or not found).
        notes: what the verdict rests on beyond the throws (seats that contributed nothing, the seat kinds
            the log records), one line each.
    """

    fair: bool
    throws: int
    problems: list[str] = field(default_factory=list)
    commitment: str | None = None
    commitment_source: str | None = None
    seed: str | None = None
    version: str = DICE_V1
    contributions: list[str | None] = field(default_factory=list)
    mine: bool | None = None
    seat: int | None = None
    notes: list[str] = field(default_factory=list)


def verify(
    log: GameLog,
    seed: str | None = None,
    commitment: str | None = None,
    contribution: str | None = None,
    player: str | None = None,
) -> FairReport:
    """Recompute every throw of ``log`` from the seed and check the whole fairness argument.

    The seed defaults to the log's ``meta["seed"]``; the commitment to check is the one given (what the
    player saw before the first throw: a server cannot rewrite that one), else the log's ``meta["commitment"]``.
    A throw that differs from the seed's makes the game UNFAIR even when, after it, the log no longer replays
    (the tampered throw changed what was legal). The log's ``meta["dice"]`` names the dice version (absent:
    version 1). Version 1 mixes nothing into the dice, so a version-1 log that lists contributions is refused.
    Version 2 mixes ``meta["contributions"]`` into the throws: exactly one entry per seat; none for a bot's
    seat (``meta["seats"]`` records the seat kinds: a contribution there would be the server's, chosen after
    seeing the players'); and ``contribution`` (the one your page made) must be at your seat (``player``,
    your name), else the game is UNFAIR for you. Each player checks their own: a server that replaced
    another player's contribution fails that player's check (docs/protocol.md, *What verify proves*).

    Raises:
        PaschError: the log has no served dice seed, the seed or commitment is not hexadecimal, ``player`` is
            not a player of the log, or an action cannot be replayed although every throw before it matched.
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
    if player is not None and player not in log.players:
        raise PaschError(f"{player!r} is not a player of this log; its players: {', '.join(log.players)}")
    version = log.meta.get("dice") or DICE_V1
    raw = log.meta.get("contributions") or []
    if not isinstance(version, str) or not isinstance(raw, list):
        raise PaschError("the log's meta.dice must be a text and meta.contributions a list")
    contributions = [None if c in (None, "") else check_contribution(c) for c in raw]
    report = FairReport(
        fair=True,
        throws=0,
        commitment=commitment,
        commitment_source=source,
        seed=seed,
        version=version,
        contributions=contributions,
    )
    try:
        stream = dice_stream(seed, version, contributions)
    except ValueError:
        raise PaschError(f"the seed {seed[:16]!r}... is not hexadecimal") from None
    _check_contributions(log, report, contribution, player)
    if commitment is not None:
        given = str(commitment).strip().lower()
        if len(given) != 64 or any(c not in "0123456789abcdef" for c in given):
            raise PaschError(f"the commitment {str(commitment)[:20]!r} is not 64 hexadecimal digits")
        report.commitment = given
        if digest != given:
            report.fair = False
            report.problems.append(f"sha256(seed) is {digest}, but the commitment ({source}) is {given}")
    state = new_game(log.rules, log.players, keeper=log.keeper)
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


def _check_contributions(log: GameLog, report: FairReport, contribution: str | None, player: str | None) -> None:
    """The contributions' part of the argument: which version mixes them, one per seat, none for bots, and
    the checking player's at their seat."""

    def unfair(problem: str) -> None:
        report.fair = False
        report.problems.append(problem)

    contributions, players = report.contributions, log.players
    given = [c for c in contributions if c]
    if report.version == DICE_V1:
        if given:
            unfair(f"{DICE_V1} mixes no contribution into the dice, yet the log lists {len(given)}: it is relabelled")
    elif len(contributions) != len(players):
        unfair(f"the log lists {len(contributions)} contributions for {len(players)} seats (one per seat)")
    kinds = log.meta.get("seats")
    if report.version != DICE_V1 and isinstance(kinds, list) and len(kinds) == len(players):
        for seat, (name, kind) in enumerate(zip(players, kinds, strict=True)):
            made = seat < len(contributions) and contributions[seat]
            if str(kind).startswith("bot") and made:
                unfair(f"seat {seat} ({name}) is a bot's, yet it contributed: the server chose that value")
            elif not str(kind).startswith("bot") and not made:
                report.notes.append(f"{name} contributed nothing: their dice rest on the commitment alone")
    elif report.version != DICE_V1:
        report.notes.append("the log does not record which seats were bots: check that no bot's seat contributed")
    if contribution is None:
        return
    value = check_contribution(contribution)
    seats = [i for i, c in enumerate(contributions) if c == value]
    report.seat = seats[0] if seats else None
    if player is not None:
        mine = players.index(player)
        report.mine = mine in seats
        if not report.mine:
            where = f"at {players[seats[0]]}'s seat" if seats else "not in the log"
            unfair(f"your contribution is {where}, not at your seat ({player}): the dice did not include it as yours")
    else:
        report.mine = bool(seats)
        if not seats:
            unfair("your contribution is not among the log's: the dice did not include it")
