"""Online play in the browser (``pasch serve``): rooms, seats, spectators, bots, provably fair dice.

A thin adapter: the engine decides every rule; the server validates actions with it, appends them to an
event log (SQLAlchemy; SQLite by default, PostgreSQL for larger installs) and broadcasts the new state.
"""

from __future__ import annotations

from pasch.web._app import MAX_MESSAGE, create_app
from pasch.web._fair import DiceStream, FairReport, commitment_of, new_seed, verify
from pasch.web._limits import Limits

__all__ = ["MAX_MESSAGE", "DiceStream", "FairReport", "Limits", "commitment_of", "create_app", "new_seed", "verify"]
