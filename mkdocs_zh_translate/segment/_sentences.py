"""Split long segments into sentences so the model sees one sentence at a time.

syntok is pure Python and works offline. A boundary is dropped when it would fall inside a
placeholder or inside a ``<gN>…</gN>`` pair: each piece must validate on its own.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ._placeholders import TAG_RE

# A hard line break in a segment's text: two spaces (or more) before the newline.
_HARD_BREAK_RE = re.compile(r" {2,}\n")


@lru_cache(maxsize=1)
def _syntok() -> tuple[Any, Any]:
    """syntok (and the ``regex`` module it needs) only load when a long segment needs splitting."""
    from syntok import segmenter, tokenizer

    return segmenter, tokenizer.Tokenizer()


def _allowed(text: str) -> list[bool]:
    """allowed[i]: a sentence may start at offset i (outside tags and pairs)."""
    allowed = [True] * (len(text) + 1)
    depth = 0
    pos = 0
    for m in TAG_RE.finditer(text):
        for i in range(pos, m.start() + 1):
            allowed[i] = depth == 0
        for i in range(m.start() + 1, m.end()):
            allowed[i] = False
        if m.group(2):
            depth += 1
        elif m.group(3):
            depth = max(0, depth - 1)
        pos = m.end()
    for i in range(pos, len(text) + 1):
        allowed[i] = depth == 0
    return allowed


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``; joined they give ``text`` back exactly (whitespace stays with the
    sentence before it)."""
    if not text.strip():
        return [text]
    allowed = _allowed(text)
    segmenter, tokenizer = _syntok()
    starts = []
    for sentence in segmenter.split(tokenizer.tokenize(text)):
        if sentence:
            starts.append(sentence[0].offset)
    cuts = [s for s in starts[1:] if 0 < s < len(text) and allowed[s]]
    pieces = []
    prev = 0
    for cut in cuts:
        if cut > prev:
            pieces.append(text[prev:cut])
            prev = cut
    pieces.append(text[prev:])
    return pieces


def split_lines(text: str) -> list[str]:
    """``text`` cut after every hard line break (``  \\n``) outside tags and pairs: a line break
    is a sentence boundary, whatever the length. A paragraph of broken lines is often a list
    written without list syntax (``To calculate this:`` / ``1. Identify…`` / ``2. Check…``): as one
    text, each number went with the sentence before it. Joined, the pieces give ``text`` back
    exactly (the break stays with the line it ends)."""
    if "  \n" not in text:
        return [text]
    allowed = _allowed(text)
    pieces = []
    prev = 0
    for m in _HARD_BREAK_RE.finditer(text):
        if allowed[m.end()] and m.end() < len(text):
            pieces.append(text[prev : m.end()])
            prev = m.end()
    pieces.append(text[prev:])
    return pieces
