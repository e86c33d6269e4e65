"""Replacing spans of a text in one pass: the splice of segment edits and of HTML attribute edits."""

from __future__ import annotations

from collections.abc import Iterable


def apply_edits(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, replacement)`` span replaced, in one linear pass over
    the text (edits sorted by position; they must not overlap)."""
    parts: list[str] = []
    cursor = 0
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1])):
        parts.append(text[cursor:start])
        parts.append(replacement)
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)
