"""``python -m pasch.i18n``: recompile every catalogue's ``.mo`` from its ``.po``."""

from __future__ import annotations

from pasch.i18n import DOMAIN, LOCALE_DIR
from pasch.i18n._msgfmt import compile_file


def main() -> None:
    """Compile ``locale/*/LC_MESSAGES/pasch.po`` into ``.mo`` files beside them."""
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        print(compile_file(po))


if __name__ == "__main__":
    main()
