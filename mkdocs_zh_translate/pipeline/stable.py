"""Stable texts of configuration values, for cache keys that must outlive the process.

MkDocs loads mkdocs.yml afresh for every build (and every ``mkdocs serve`` reload): a
``!!python/name:`` function is the same object, but ``pymdownx.slugs.slugify(case="lower")``
is a new ``functools.partial`` each time, and the ``repr`` of most objects names an address.
A key built from :func:`stable_text` is equal exactly when the configured values are equal.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from typing import Any


def stable_text(value: Any, depth: int = 0) -> str:
    """A text for ``value`` that is the same in every process and every load of mkdocs.yml
    (no ``at 0x…`` addresses; functions by name, with a partial's or closure's options)."""
    if depth > 8:
        return "…"
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return repr(value)
    if isinstance(value, dict):
        items = sorted((stable_text(k, depth + 1), stable_text(v, depth + 1)) for k, v in value.items())
        return "{" + ",".join(f"{k}:{v}" for k, v in items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(stable_text(v, depth + 1) for v in value) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(stable_text(v, depth + 1) for v in value)) + "}"
    if isinstance(value, functools.partial):  # pymdownx.slugs.slugify(case=...) is one
        parts = (value.func, value.args, value.keywords)
        return "partial(" + ",".join(stable_text(part, depth + 1) for part in parts) + ")"
    if callable(value) and hasattr(value, "__qualname__"):
        cells = getattr(value, "__closure__", None) or ()  # a closure's captured options
        captured = [stable_text(cell.cell_contents, depth + 1) for cell in cells if _filled(cell)]
        name = f"{getattr(value, '__module__', '')}.{value.__qualname__}"
        return f"{name}[{','.join(captured)}]" if captured else name
    kind = type(value)
    name = f"{kind.__module__}.{kind.__qualname__}"
    configs = getattr(value, "getConfigs", None)  # a Python-Markdown Extension instance
    if callable(configs):
        try:
            return f"{name}({stable_text(configs(), depth + 1)})"
        except Exception:
            return name
    text = repr(value)
    return name if " at 0x" in text else f"{name}({text})"


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018  # an empty cell raises
    except ValueError:
        return False
    return True


def parts_key(parts: Iterable[str]) -> str:
    """The SHA-256 hex digest of ``parts``, each ended by a NUL (so ``["ab", "c"]`` and
    ``["a", "bc"]`` differ); lone surrogates from odd file names are kept, not an error. The
    one key form of the memos and stored verdicts: keys already on disk depend on these bytes."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()
