"""JSON of the websocket frames: :mod:`orjson` (about ten times faster than :mod:`json` on an ``update``
frame), with :mod:`json` for what orjson refuses, so that both give the same answers.

* :func:`dumps` is compact JSON text. orjson writes non-ASCII characters as they are (:mod:`json` escapes
  them; the same JSON to a parser); an integer beyond 64 bits or a string with a lone surrogate is left to
  :mod:`json`.
* :func:`loads` also says whether every string of the value is valid Unicode: orjson refuses lone surrogates
  (``"\\ud800"``), :mod:`json` decodes them, and a frame holding one is refused by the caller. An integer
  beyond 64 bits reads as a float with orjson (so a handler wanting an integer refuses it, as it refuses any
  number it cannot use).
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; json alone gives the same frames
    orjson = None  # type: ignore[assignment]

__all__ = ["dumps", "loads"]


def dumps(value: Any) -> str:
    """Compact JSON text of ``value`` (dict keys that are not strings become strings, as in :mod:`json`)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # a big integer, a lone surrogate, a type orjson has no rule for
            pass
    return json.dumps(value, separators=(",", ":"))


def loads(text: str) -> tuple[Any, bool]:
    """The value of JSON ``text`` and whether all its strings are valid Unicode (False: lone surrogates).

    Raises:
        ValueError: not JSON.
        RecursionError: nested too deeply for :mod:`json`.
    """
    if orjson is not None:
        try:
            return orjson.loads(text), True
        except orjson.JSONDecodeError:  # not JSON, or JSON orjson refuses (surrogates, NaN, big integers)
            pass
    value = json.loads(text)
    return value, _unicode(value)


def _unicode(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True
