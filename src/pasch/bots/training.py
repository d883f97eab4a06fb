"""The learned whole-sheet correction of the multi-column bot and the calibration of its estimates, for
``pasch train``, ``pasch calibrate`` and scripts (issue 28).

A public face of :mod:`pasch.bots._sheetvalue` (the model and its checked files), :mod:`pasch.bots._train`
(fitted value iteration on self-play) and :mod:`pasch.bots._calibration` (the offsets that put the estimates'
level where the bot scores). Importing it imports no training framework; Ray only by
:func:`ray_runner`.
"""

from __future__ import annotations

from pasch.bots._calibration import (
    Calibration,
    CalibrationResult,
    calibration_path,
    load_calibration,
    measure,
    read_calibration,
    save_calibration,
    settings_record,
)
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
    "Calibration",
    "CalibrationResult",
    "Generation",
    "SheetModel",
    "TrainResult",
    "calibration_path",
    "feature_names",
    "first_throw_mean",
    "load_calibration",
    "load_model",
    "local_runner",
    "measure",
    "model_path",
    "ray_runner",
    "read_calibration",
    "read_model",
    "save_calibration",
    "save_model",
    "settings_record",
    "throw_value",
    "train",
]
