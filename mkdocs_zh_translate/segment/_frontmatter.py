"""Front matter: the YAML stays as it is, only ``title:`` and ``description:`` values are segments."""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.token import Token

from ._model import Restore, Segment
from ._placeholders import TAG_RE

_KEY_RE = re.compile(r"^(title|description):[ \t]+(.+?)[ \t]*$", re.MULTILINE)
_INDICATORS = set("|>[]{}&*!%@`#,?-:")


def _value_span(value: str) -> tuple[int, int, str] | None:
    """(start, end, quote) of the scalar's text inside ``value``; None for non-scalar forms."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return 1, len(value) - 1, value[0]
    if value[0] in _INDICATORS or value[0] in "\"'":
        return None
    comment = re.search(r"[ \t]#", value)
    end = comment.start() if comment else len(value)
    return (0, end, "") if value[:end].strip() else None


def front_matter_segments(
    text: str, norm: str, tok: Token, orig: Callable[[int], int], line_number: Callable[[int], int]
) -> list[Segment]:
    if tok.map is None:
        return []
    first, last = tok.map
    starts = [0] + [m.end() for m in re.finditer("\n", norm)]
    begin = starts[first + 1] if first + 1 < len(starts) else len(norm)
    stop = starts[last - 1] if last - 1 < len(starts) else len(norm)
    segments = []
    for m in _KEY_RE.finditer(norm, begin, stop):
        span = _value_span(m.group(2))
        if span is None:
            continue
        start = orig(m.start(2) + span[0])
        end = orig(m.start(2) + span[1])
        value = text[start:end]
        if not any(ch.isalpha() for ch in value) or TAG_RE.search(value):
            continue  # nothing to translate, or text that would read as our placeholders
        restore = Restore(single_line=True, yaml_quote=span[2], text_chars=value)
        segments.append(Segment(value, start, end, line_number(start), f"front_matter_{m.group(1)}", restore))
    return segments
