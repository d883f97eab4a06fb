"""A learned whole-sheet correction for the multi-column games (issue 28, item 2).

The multi-column bot (:mod:`pasch.bots._multi`) values a sheet as its points plus the sum of exact
single-column values. That sum cannot see how the columns compete for the same throw. The learned value is

    V(sheet) = points + sum_c V_c(column c) + [two or more columns open] * w . phi(sheet)

a linear correction ``w . phi`` on top of the exact per-column sum, fitted by fitted value iteration on
afterstates from self-play (:mod:`pasch.bots._train`, ``pasch train``). The features ``phi`` see every
column's open boxes, upper total and bonus slack, the turns left and, per box kind, how many columns still
compete for it (see :func:`features`). **The correction is zero by construction when at most one column is
open**, so there the value is the exact column value (the per-column sum; a test checks it against the
solver).

Trained weights ship as ``pasch/bots/data/<rules>.json``: the weights, the command and seed that made them
and a SHA-256 over the rest of the file; :func:`load_model` recomputes it and refuses a file whose checksum
does not match (:class:`pasch.errors.ModelFileError`). Inference is numpy only.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pasch.errors import ModelFileError
from pasch.rules import RuleSet

__all__ = ["SheetModel", "checksum", "feature_names", "features", "load_model", "model_path", "save_model"]

F64 = npt.NDArray[np.float64]
FORMAT = 1


@dataclass(frozen=True)
class _Shape:
    n_columns: int
    n_boxes: int  # per column
    threshold: int
    upper: tuple[int, ...]  # category indices of the upper boxes
    faces: tuple[int, ...]  # their faces


_SHAPES: dict[str, _Shape] = {}


def _shape(rules: RuleSet) -> _Shape:
    got = _SHAPES.get(rules.cache_key)
    if got is None:
        got = _SHAPES[rules.cache_key] = _make_shape(rules)
    return got


def _make_shape(rules: RuleSet) -> _Shape:
    upper = tuple(rules.upper_indices)
    faces = tuple(int(rules.categories[i].scorer.face) for i in upper)
    return _Shape(rules.n_columns, len(rules.categories), int(rules.bonus_threshold or 0), upper, faces)


def feature_names(rules: RuleSet) -> list[str]:
    """The names of :func:`features`' columns, in order."""
    sh = _shape(rules)
    names = ["one", "turns", "turns2"]
    for kind in ("open", "open_x_elsewhere", "bonus_live", "bonus_slack"):
        names += [f"{kind}[{c}]" for c in range(sh.n_columns)]
    names += [f"pairs[{cat.id}]" for cat in rules.categories]
    return names


def features(rules: RuleSet, open_: npt.NDArray[np.bool_], upper: npt.NDArray[np.int64]) -> F64:
    """The features of a batch of sheets: ``open_[b, c, k]`` (box ``k`` of column ``c`` open), ``upper[b, c]``.

    Per sheet: 1, the share of turns left ``T / N`` and its square; per column the share of its boxes open,
    that share times the share of turns that must go elsewhere, whether its bonus is still open (upper total
    below the threshold and upper boxes left) and its bonus slack (three of each open upper box's face beyond
    what the bonus still needs, over the threshold); per box kind the share of column pairs that both still
    have it open. Every row is multiplied by [two or more columns open], so the correction vanishes where one
    column is left.
    """
    sh = _shape(rules)
    o = np.asarray(open_, dtype=bool)
    b = o.shape[0]
    n_c = o.sum(axis=2).astype(np.float64)  # [b, c]
    total = n_c.sum(axis=1)  # [b]
    big_n = float(sh.n_columns * sh.n_boxes)
    t = total / big_n
    live = ((n_c > 0).sum(axis=1) >= 2).astype(np.float64)
    cols = [np.ones(b), t, t * t]
    share = n_c / sh.n_boxes
    cols += list(share.T)
    cols += list((share * (total[:, None] - n_c) / big_n).T)
    if sh.threshold > 0 and sh.upper:
        up_open = o[:, :, list(sh.upper)]  # [b, c, u]
        par = (up_open * (3 * np.asarray(sh.faces, dtype=np.float64))).sum(axis=2)
        need = np.maximum(sh.threshold - np.minimum(np.asarray(upper, dtype=np.float64), sh.threshold), 0)
        bonus_live = ((need > 0) & up_open.any(axis=2)).astype(np.float64)
        cols += list(bonus_live.T)
        cols += list((bonus_live * (par - need) / sh.threshold).T)
    else:
        cols += [np.zeros(b)] * (2 * sh.n_columns)
    m = o.sum(axis=1).astype(np.float64)  # [b, k]
    pairs = max(sh.n_columns * (sh.n_columns - 1), 1)
    cols += list((m * (m - 1) / pairs).T)
    out: F64 = np.stack(cols, axis=1) * live[:, None]
    return out


def sheet_arrays(
    rules: RuleSet, cols: tuple[tuple[int | None, ...], ...]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """``(open_[c, k], upper[c])`` of one sheet's columns of scores (upper totals capped at the threshold)."""
    open_ = np.array([[v is None for v in col] for col in cols], dtype=bool)
    thr = int(rules.bonus_threshold or 0)
    ups = [sum(col[i] or 0 for i in rules.upper_indices) for col in cols]
    upper = np.array([min(u, thr) if thr else u for u in ups], dtype=np.int64)
    return open_, upper


@dataclass
class SheetModel:
    """The linear correction of one rule set: ``weights`` over :func:`features`, and where they came from."""

    rules: RuleSet
    weights: F64
    meta: dict[str, Any] = field(default_factory=dict)
    sha256: str | None = None
    """The checksum of the file it was read from (None: made in memory, not read)."""

    def __post_init__(self) -> None:
        n = len(feature_names(self.rules))
        if self.weights.shape != (n,):
            raise ModelFileError(f"{self.rules.id}: {self.weights.shape[0]} weights where the features need {n}")

    def values(self, open_: npt.NDArray[np.bool_], upper: npt.NDArray[np.int64]) -> F64:
        """The correction of a batch of sheets (see :func:`features`)."""
        return features(self.rules, open_, upper) @ self.weights

    def value(self, cols: tuple[tuple[int | None, ...], ...]) -> float:
        """The correction of one sheet given its columns of scores (0 where at most one column is open)."""
        open_, upper = sheet_arrays(self.rules, cols)
        return float(self.values(open_[None], upper[None])[0])

    def after_entries(
        self, open_: npt.NDArray[np.bool_], upper: npt.NDArray[np.int64], c: int, boxes: list[int]
    ) -> F64:
        """``tab[j, u]``: the correction after entering box ``boxes[j]`` of column ``c`` with ``u`` upper points.

        ``u`` runs over 0 ... 30 (five sixes), more than any entry adds; only the values an entry can add are
        computed (0 for a lower box, multiples of the face for an upper one), the rest of a row repeats ``u = 0``.
        """
        n_up = 31
        sh = _shape(self.rules)
        face = dict(zip(sh.upper, sh.faces, strict=True))
        which: list[tuple[int, int]] = []  # (j, u) per row
        for j, box in enumerate(boxes):
            f = face.get(box)
            which += [(j, 0)] if f is None else [(j, m * f) for m in range(6) if m * f < n_up]
        js = np.array([j for j, _ in which], dtype=np.int64)
        us = np.array([u for _, u in which], dtype=np.int64)
        o = np.repeat(open_[None], len(which), axis=0)
        o[np.arange(len(which)), c, np.asarray(boxes, dtype=np.int64)[js]] = False
        up = np.repeat(upper[None], len(which), axis=0)
        up[:, c] = up[:, c] + us
        if sh.threshold:
            up = np.minimum(up, sh.threshold)
        got = self.values(o, up)
        tab = np.repeat(got[us == 0][:, None], n_up, axis=1)
        tab[js, us] = got
        return tab


def checksum(payload: dict[str, Any]) -> str:
    """The SHA-256 of a model file's payload (everything but ``sha256``), over canonical JSON."""
    body = {k: v for k, v in payload.items() if k != "sha256"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def data_file(name: str) -> Path:
    """A file of the package's data folder (shipped models and calibrations), whether or not it exists."""
    return Path(str(resources.files("pasch.bots") / "data" / name))


def model_path(rules_id: str) -> Path:
    """Where the shipped model of a rule set lives (whether or not it exists)."""
    return data_file(f"{rules_id}.json")


def save_model(model: SheetModel, path: Path) -> str:
    """Write a model file (weights, meta, checksum); returns the checksum."""
    payload: dict[str, Any] = {
        "format": FORMAT,
        "rules": model.rules.id,
        "features": feature_names(model.rules),
        "weights": [float(x) for x in model.weights],
        "meta": model.meta,
    }
    return write_checked(payload, path)


def write_checked(payload: dict[str, Any], path: Path) -> str:
    """Write ``payload`` as JSON with a SHA-256 over the rest (:func:`checksum`); returns the checksum."""
    payload = {**payload, "sha256": checksum(payload)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n")
    return str(payload["sha256"])


def read_checked(path: Path, what: str, remedy: str) -> dict[str, Any]:
    """A file written by :func:`write_checked`, its checksum verified.

    Args:
        path: the file.
        what: what it holds, for the messages ("model", "calibration").
        remedy: how to make a good one, for the message of a damaged file.

    Raises:
        ModelFileError: unreadable, not such a file, or its checksum does not match its contents.
    """
    try:
        payload = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ModelFileError(f"{path}: not a readable {what} file ({exc})") from None
    if not isinstance(payload, dict) or "sha256" not in payload:
        raise ModelFileError(f"{path}: not a {what} file (no sha256)")
    got = checksum(payload)
    if got != payload["sha256"]:
        raise ModelFileError(
            f"{path}: checksum mismatch (the file records {str(payload['sha256'])[:12]}..., its contents give "
            f"{got[:12]}...): the file was damaged or edited; {remedy}"
        )
    return payload


def read_model(rules: RuleSet, path: Path) -> SheetModel:
    """Read and check a model file.

    Raises:
        ModelFileError: unreadable, for other rules or features, or its checksum does not match its contents.
    """
    payload = read_checked(path, "model", "retrain it with 'pasch train'")
    if payload.get("format") != FORMAT or payload.get("rules") != rules.id:
        raise ModelFileError(f"{path}: a model of format {payload.get('format')} for {payload.get('rules')!r}")
    if payload.get("features") != feature_names(rules):
        raise ModelFileError(f"{path}: made for other features than this version computes; retrain it")
    weights = np.asarray(payload["weights"], dtype=np.float64)
    return SheetModel(rules, weights, dict(payload.get("meta") or {}), str(payload["sha256"]))


def load_model(rules: RuleSet) -> SheetModel | None:
    """The shipped model of a rule set, checked (None: none ships).

    Raises:
        ModelFileError: the shipped file fails its checks (see :func:`read_model`).
    """
    if rules.cache_key != rules.id:
        return None  # a custom rule set that merely shares a catalogue id: the catalogue's model is not its own
    path = model_path(rules.id)
    if not path.is_file():
        return None
    return read_model(rules, path)
