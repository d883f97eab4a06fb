"""Shared by the benchmarks that time fresh processes."""

from __future__ import annotations


def byte_compile_package() -> None:
    """Write the package's bytecode (``.pyc``), as ``pip install`` does for an installed package.

    An editable install writes it on the first import, unless ``PYTHONDONTWRITEBYTECODE`` is set (as on
    some CI machines); without this, every measured process would compile pasch's sources again.
    """
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("pasch")
    for location in (spec.submodule_search_locations or []) if spec else []:
        compileall.compile_dir(location, quiet=1)
