"""A Griffe extension for the API reference: pasch's docstrings use Sphinx roles, mkdocstrings reads Markdown.

The docstrings name other objects the Sphinx way (``:class:`Match```, ``:func:`pasch.rules.get```,
``:mod:`seats <pasch.app._seats>```); rendered as Markdown these would show the role markup as text. This
extension rewrites each role, once the package is loaded, into a cross-reference to the page where the
object is documented (``[`Match`][pasch.app.Match]``) when the name resolves to a public object of a
documented package, and into plain inline code otherwise (a private helper, another package's object), so
that ``mkdocs build --strict`` never meets a reference it cannot resolve. A paragraph's closing ``::`` (a
reST literal block follows) becomes ``:``. The source files are not changed.

Loaded by ``mkdocs.yml`` (``extensions: [tools/griffe_roles.py]``); it is no part of the package.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

DOCUMENTED = ("pasch.rules", "pasch.engine", "pasch.app", "pasch.solver", "pasch.bots", "pasch.storage", "pasch.dice")
"""Packages with a reference page (names directly under ``pasch`` are documented on its own page)."""

_ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj):`(~?)([^`<]*?)\s*(?:<([^`>]+)>)?`")
_LITERAL = re.compile(r"(?<=\S)::$", re.MULTILINE)


def _lookup(root: griffe.Module, path: str) -> griffe.Object | griffe.Alias | None:
    """The object at a dotted path under ``pasch``, or None."""
    if path == root.path:
        return root
    if not path.startswith(root.path + "."):
        return None
    try:
        return root[path[len(root.path) + 1 :]]
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _public(root: griffe.Module, path: str) -> str | None:
    """The documented public path of the object at ``path``, or None where none is rendered.

    ``pasch.app._match.Match`` is documented as ``pasch.app.Match`` (the package re-exports it); a private
    module itself is not documented.
    """
    parts = path.split(".")
    while any(part.startswith("_") for part in parts):
        k = next(k for k, part in enumerate(parts) if part.startswith("_"))
        if k == len(parts) - 1:
            return None  # a private name (a module or a helper) has no page
        parts = parts[:k] + parts[k + 1 :]
        if _lookup(root, ".".join(parts)) is None:
            return None
    public = ".".join(parts)
    if public == root.path or public.startswith(DOCUMENTED):
        return public
    return None


def _canonical(obj: griffe.Object | griffe.Alias) -> str | None:
    try:
        return obj.final_target.path if obj.is_alias else obj.path  # type: ignore[union-attr]
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _documented(root: griffe.Module, path: str, found: griffe.Object | griffe.Alias) -> str | None:
    """Where the object ``found`` at ``path`` is documented: its package's page, else the front door's."""
    canonical = _canonical(found)
    for candidate in (path, canonical):
        public = _public(root, candidate) if candidate else None
        if public is not None:
            return public
    name = path.rsplit(".", 1)[-1]
    exported = {str(n) for n in root.exports or ()}
    top = _lookup(root, f"{root.path}.{name}") if name in exported else None
    if top is not None and canonical is not None and _canonical(top) == canonical:
        return f"{root.path}.{name}"
    return None


def _target(root: griffe.Module, obj: griffe.Object, name: str) -> str | None:
    """Resolve ``name`` as written in ``obj``'s docstring (its scope first) to a documented public path."""
    scope: griffe.Object | None = obj
    candidates: list[str] = []
    while scope is not None:
        candidates.append(f"{scope.path}.{name}")
        scope = scope.parent
    candidates.append(name)
    for path in candidates:
        found = _lookup(root, path)
        if found is not None:
            return _documented(root, path, found)
    return None


def _rewrite(root: griffe.Module, obj: griffe.Object, text: str) -> str:
    def one(match: re.Match[str]) -> str:
        tilde, written, explicit = match.group(1), match.group(2).strip(), match.group(3)
        name = explicit or written
        title = written if explicit else (name.rsplit(".", 1)[-1] if tilde else name)
        target = _target(root, obj, name)
        return f"[`{title}`][{target}]" if target else f"`{title}`"

    return _LITERAL.sub(":", _ROLE.sub(one, text))


def _walk(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            yield from _walk(member)


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles in every docstring of the loaded package (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings of every object of ``pkg`` once it is loaded."""
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = _rewrite(pkg, obj, obj.docstring.value)
