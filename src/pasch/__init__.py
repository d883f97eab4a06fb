"""pasch: Kniffel / Yahtzee / Yatzy family dice games and Knaster — play, keep score, analyse."""

from __future__ import annotations

from pasch.errors import IllegalActionError, InvalidActionError, PaschError, RuleSetError

__version__ = "0.1.0"

__all__ = ["IllegalActionError", "InvalidActionError", "PaschError", "RuleSetError", "__version__"]
