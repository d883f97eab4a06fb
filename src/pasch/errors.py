"""The exceptions pasch raises. Every message quotes the input and says why it was refused."""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "LogError",
    "ModelFileError",
    "PaschError",
    "PositionError",
    "RuleSetError",
]


class PaschError(Exception):
    """Base class of every error pasch raises on purpose."""


class InvalidActionError(PaschError, ValueError):
    """Malformed input: text that is not an action, a die that is not 1-6, an unknown box."""


class IllegalActionError(PaschError, ValueError):
    """A well-formed action that the rules do not allow in the current situation."""


class RuleSetError(PaschError, ValueError):
    """An unknown rule set, modifier or parameter, or a combination that makes no sense."""


class LogError(PaschError, ValueError):
    """A game log that cannot be read or replayed; the message names the entry at fault."""


class PositionError(PaschError, ValueError):
    """A position text (``pasch1 ...``) that cannot be read; the message names the field at fault."""


class ModelFileError(PaschError, ValueError):
    """A learned model file that cannot be used: unreadable, made for other rules, or failing its checksum."""
