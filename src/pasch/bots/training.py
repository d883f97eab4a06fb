"""The learned whole-sheet correction of the multi-column bot, for ``pasch train`` and scripts (issue 28).

A public face of :mod:`pasch.bots._sheetvalue` (the model and its checked files) and :mod:`pasch.bots._train`
(fitted value iteration on self-play). Importing it imports no training framework; Ray only by
:func:`ray_runner`.
"""

from __future__ import annotations

from pasch.bots._sheetvalue import SheetModel, feature_names, load_model, model_path, read_model, save_model
from pasch.bots._train import (
    Generation,
    TrainResult,
    first_throw_mean,
    local_runner,
    ray_runner,
    throw_value,
    train,
)

__all__ = [
    "Generation",
    "SheetModel",
    "TrainResult",
    "feature_names",
    "first_throw_mean",
    "load_model",
    "local_runner",
    "model_path",
    "ray_runner",
    "read_model",
    "save_model",
    "throw_value",
    "train",
]
