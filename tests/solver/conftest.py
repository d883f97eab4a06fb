"""Solver tests never touch the user's cache directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path_factory.getbasetemp() / "pasch-cache"
    monkeypatch.setenv("PASCH_CACHE_DIR", str(path))
    yield path
