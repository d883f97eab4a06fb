"""The page's string tables: every language has every key, and every key the page uses exists."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "pasch" / "web" / "static"
LANGS = ("en", "de", "es", "it")


def _tables() -> dict[str, dict[str, str]]:
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        block = re.search(rf"\n  {lang}: \{{(.*?)\n  \}}", text, re.S)
        assert block is not None, lang
        pairs = re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', block.group(1))
        out[lang] = dict(pairs)
    return out


def test_every_language_has_every_key_and_the_same_placeholders() -> None:
    tables = _tables()
    en = tables["en"]
    assert len(en) > 90
    for lang in LANGS[1:]:
        assert set(tables[lang]) == set(en), lang
        for key, text in en.items():
            assert set(re.findall(r"\{\w+\}", tables[lang][key])) == set(re.findall(r"\{\w+\}", text)), (lang, key)
        # Translated, not copied: most strings differ from English (names like "Bonus" may not).
        same = [k for k in en if tables[lang][k] == en[k]]
        assert len(same) < len(en) // 5, (lang, same)


def test_every_key_the_page_uses_is_in_the_table() -> None:
    en = _tables()["en"]
    js = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.rglob("*.js")) if p.name != "i18n.js")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("(\w+)"', js)) | set(re.findall(r'data-t="(\w+)"', html))
    used |= {"order_" + o for o in ("free", "down", "up", "announced")}
    missing = sorted(k for k in used if k not in en and not k.endswith("_"))  # "order_" + kind: listed above
    assert not missing, missing
