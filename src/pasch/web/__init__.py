"""Online play in the browser (``pasch serve``): rooms, seats, spectators, bots, provably fair dice.

A thin adapter: the engine decides every rule; the server validates actions with it, appends them to an
event log (SQLAlchemy; SQLite by default, PostgreSQL for larger installs) and broadcasts the new state.
"""

from __future__ import annotations

from pasch.web._app import MAX_MESSAGE, create_app
from pasch.web._db import check_database, default_url
from pasch.web._fair import DICE_V1, DICE_V2, DiceStream, FairReport, HmacDice, commitment_of, new_seed, verify
from pasch.web._limits import Limits
from pasch.web._transport import TransportGuard, direct_websocket_protocol, guarded_protocol

__all__ = [
    "DICE_V1",
    "DICE_V2",
    "MAX_MESSAGE",
    "DiceStream",
    "FairReport",
    "HmacDice",
    "Limits",
    "TransportGuard",
    "check_database",
    "commitment_of",
    "create_app",
    "default_url",
    "direct_websocket_protocol",
    "guarded_protocol",
    "new_seed",
    "verify",
]
