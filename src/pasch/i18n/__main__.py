"""``python -m pasch.i18n [update]``: add new messages to every ``.po`` (update), then compile the ``.mo`` files."""

from __future__ import annotations

import sys

from pasch.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from pasch.i18n._extract import extract, merge_po
from pasch.i18n._msgfmt import compile_file


def main(argv: list[str]) -> None:
    """Update the catalogues (with ``update``) and compile them."""
    if "update" in argv:
        messages = extract()
        for lang in LANGUAGES:
            po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            text = po.read_text(encoding="utf-8") if po.is_file() else ""
            po.write_text(merge_po(text, messages), encoding="utf-8")
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        print(compile_file(po))


if __name__ == "__main__":
    main(sys.argv[1:])
