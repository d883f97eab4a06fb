"""The event log's writer lives in :mod:`pasch.storage` (the one place with SQL); re-exported here."""

from __future__ import annotations

from pasch.storage import CHANNEL, Append, ConflictError, EventWriter

__all__ = ["CHANNEL", "Append", "ConflictError", "EventWriter"]
