"""The key footer: every description in the player's language, and never cut at the right edge.

Textual's footer lays out every shown binding in one line and lets the last ones run under the docked
palette key (at 80 columns it read ``a announ▏^p paletteb``). This footer measures its keys and shows those
that fit, in the screen's order (help and quit always; ``?`` lists them all). The descriptions of Textual's
own bindings (the palette, a menu's "Dismiss menu") go through the message catalogue too; they are listed in
:data:`TEXTUAL_WORDS` so that the catalogues carry them.
"""

from __future__ import annotations

from collections import defaultdict

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from pasch.i18n import N_, _

__all__ = ["KEEP", "TEXTUAL_WORDS", "PaschFooter"]

TEXTUAL_WORDS = (N_("Dismiss menu"), N_("Show menu"), N_("Quit"), N_("Submit"), N_("Toggle"), N_("Press"))
"""Descriptions of Textual's own bindings that a footer may show (translated like ours)."""

KEEP = frozenset({"help", "quit_game", "app.quit", "close", "start"})
"""Actions whose key the footer always shows (help lists the others)."""


class PaschFooter(Footer):
    """A footer that translates every description and shows only the keys that fit its width."""

    def on_resize(self, event: Resize) -> None:
        """Lay the keys out again for the new width."""
        self.compact = event.size.width < 120
        self.call_after_refresh(self.recompose)

    def _width(self, binding: Binding, description: str) -> int:
        """Columns a key takes: compact ``key desc`` and a margin; otherwise `` key desc `` (Textual's padding)."""
        key = cell_len(self.app.get_key_display(binding))
        words = cell_len(description)
        if self.compact:
            return key + (1 + words if words else 0) + 1
        return 1 + key + 1 + (words + 1 if words else 0)

    def compose(self) -> ComposeResult:
        """The shown keys that fit, in the screen's order; help and quit first to stay."""
        if not self._bindings_ready:
            return
        active = self.screen.active_bindings
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))
        # _("") would be the catalogue's header: only a description is translated
        keys = [
            (b, enabled, tip, _(b.description) if b.description else "")
            for b, enabled, tip in (group[0] for group in by_action.values())
        ]
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            got = active.get(self.app.COMMAND_PALETTE_BINDING)
            if got is not None:
                palette = (got[1], got[2], _(got[1].description) if got[1].description else "")
        room = self.size.width or self.app.size.width
        if palette is not None:
            room -= self._width(palette[0], palette[2]) + 2  # its border and padding
        # The keys that always stay first, then every other key that still fits, in the screen's order.
        used = sum(self._width(b, d) for b, _e, _t, d in keys if b.action in KEEP)
        fitting = []
        for key in keys:
            width = self._width(key[0], key[3])
            if key[0].action in KEEP:
                fitting.append(key)
            elif used + width <= room:
                fitting.append(key)
                used += width
        keys = fitting
        for binding, enabled, tooltip, description in keys:
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
        if palette is not None:
            binding, enabled, description = palette
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                description,
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=description,
            )
