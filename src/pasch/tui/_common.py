"""Helpers shared by the screens: translated key bindings."""

from __future__ import annotations

import dataclasses

from textual.dom import DOMNode

from pasch.i18n import _

__all__ = ["translate_bindings"]


def translate_bindings(node: DOMNode) -> None:
    """Translate the descriptions of ``node``'s key bindings into the current language (once, at init)."""
    kb = node._bindings.key_to_bindings
    for key, bindings in kb.items():
        kb[key] = [dataclasses.replace(b, description=_(b.description)) if b.description else b for b in bindings]
