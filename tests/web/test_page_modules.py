"""The page's files (issue 27, item 1): native ES modules with no build step, each small, every import
resolving to a file that ships in the package, nothing inline that the Content-Security-Policy would block."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "pasch" / "web" / "static"
IMPORT = re.compile(r'^\s*import\s.*?from\s+"(\.{1,2}/[^"]+)";', re.M)


def modules() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*.js") if p.name != "i18n.js")


def test_index_loads_one_module_and_nothing_inline() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts == ['<script type="module" src="/static/app.js">'], scripts
    assert "<style" not in html and " style=" not in html and " on" + "click=" not in html
    for ref in re.findall(r'(?:href|src)="/static/([^"]+)"', html):
        assert (STATIC / ref).is_file(), ref


def test_every_import_resolves_and_every_module_is_small() -> None:
    assert len(modules()) >= 15
    for path in modules():
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 300, path.name
        for ref in IMPORT.findall(text):
            assert (path.parent / ref).resolve().is_file(), (path.name, ref)


def test_every_module_is_reached_from_the_entry() -> None:
    seen: set[Path] = set()
    todo = [STATIC / "app.js"]
    while todo:
        path = todo.pop().resolve()
        if path in seen:
            continue
        seen.add(path)
        todo += [path.parent / ref for ref in IMPORT.findall(path.read_text(encoding="utf-8"))]
    assert {p.resolve() for p in modules()} <= seen


def test_the_manifest_and_icons_ship() -> None:
    manifest = (STATIC / "manifest.webmanifest").read_text(encoding="utf-8")
    for icon in re.findall(r'"src": "/static/([^"]+)"', manifest):
        assert (STATIC / icon).is_file(), icon
