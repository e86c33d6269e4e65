"""Markup projection: put a sentence's placeholders into a translation made without them.

The ``project`` markup strategy (``markup.py``) asks the model for the *plain* sentence (pairs'
tags removed with their inner text kept, atoms removed: the model never sees a placeholder, as
the real opus-mt-en-zh never did in training) and then places every pair and atom here, from a
source–target alignment (``engine.align.Aligned``: cross-attention weights of the chosen
translation). Rules, so that the output is valid placeholder text by construction:

- a pair's target span is the contiguous range covering the target tokens aligned to the source
  tokens of its text (each target token aligned to its strongest source token; when none is,
  each source token's strongest target token);
- an atom (or a pair with no text of its own) goes after the translation of the nearest source
  word before it that the translation kept (some aligned target token), else before that of
  the nearest one after it; one before every word starts the translation, one after every word
  (punctuation included) ends it;
- a child stays inside its parent, siblings never overlap and keep their target order (source
  order on ties), leading/trailing spaces stay outside a pair.

Everything here is pure: :func:`strip_markup` and :func:`project` are tested on hand-made
alignment matrices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..segment import tokenize


@dataclass
class Node:
    """A placeholder of the source: an atom (``<xN/>``) or a pair (``<gN>…</gN>``) whose text is
    ``plain[start:end]`` of the stripped sentence (atoms: ``start == end``, where they stood)."""

    kind: str  # "atom" or "pair"
    id: int
    start: int
    end: int = -1
    children: list[Node] = field(default_factory=list)


def strip_markup(text: str) -> tuple[str, list[Node]] | None:
    """The sentence without placeholders, and its placeholder tree (top level, source order).

    Removing an atom leaves no double space. ``None`` when the text's tags do not nest (the
    ladder's own validation deals with such a source)."""
    plain: list[str] = []
    length = 0
    squeeze = False
    top: list[Node] = []
    stack: list[Node] = []
    for kind, value in tokenize(text):
        siblings = stack[-1].children if stack else top
        if kind == "text":
            chunk = str(value)
            if squeeze and (length == 0 or plain[-1][-1:].isspace()):
                chunk = chunk.lstrip()
            if chunk:
                plain.append(chunk)
                length += len(chunk)
                squeeze = False
        elif kind == "atom":
            siblings.append(Node("atom", int(value), length, length))
            squeeze = True
        elif kind == "open":
            node = Node("pair", int(value), length)
            siblings.append(node)
            stack.append(node)
        else:
            if not stack or stack[-1].id != int(value):
                return None
            stack.pop().end = length
    if stack:
        return None
    return "".join(plain), top


def project(nodes: Sequence[Node], text: str, source_spans: Sequence[tuple[int, int] | None],
            target_bounds: Sequence[int], weights: np.ndarray) -> str:
    """``text`` (the translation) with every node of ``nodes`` put back as a placeholder.

    ``source_spans``: each source token's character range in the plain sentence (``None``: not
    text); ``target_bounds``: ``n + 1`` character offsets of the ``n`` target tokens in
    ``text``; ``weights``: ``[n, len(source_spans)]`` alignment weights."""
    content = [s for s, span in enumerate(source_spans) if span is not None and span[1] > span[0]]
    n = len(target_bounds) - 1
    if not content or n <= 0 or weights.shape[0] < n:
        aligned_to = np.zeros(0, dtype=np.int64)
        best_target = np.zeros(len(content), dtype=np.int64)
    else:
        sub = np.asarray(weights[:n][:, content], dtype=np.float64)
        aligned_to = sub.argmax(axis=1)  # per target token: index into ``content``
        best_target = sub.argmax(axis=0)
    spans = [source_spans[s] for s in content]
    # Target tokens hard-aligned to each content source token (none for a word the model dropped).
    hits: list[list[int]] = [[] for _ in content]
    for t, s in enumerate(aligned_to):
        hits[int(s)].append(t)

    def boundary(token: int) -> int:
        return int(target_bounds[max(0, min(token, n))])

    def point(pos: int) -> int:
        """Character offset in ``text`` for something that stood at ``pos`` of the plain text."""
        if not aligned_to.size or not any(span is not None and span[1] <= pos for span in spans):
            return 0  # nothing before it in the source: it starts the translation too
        if not any(span is not None and span[0] >= pos for span in spans):
            return len(text)  # nothing after it: it ends the translation
        # The nearest word before it that the translation kept, else the nearest one after it.
        left = [i for i, span in enumerate(spans) if span is not None and span[1] <= pos and hits[i]]
        if left:
            return boundary(max(hits[left[-1]]) + 1)
        right = [i for i, span in enumerate(spans) if span is not None and span[0] >= pos and hits[i]]
        if right:
            return boundary(min(hits[right[0]]))
        return 0

    def place(node: Node) -> tuple[int, int]:
        inside = [i for i, span in enumerate(spans) if span is not None and span[0] < node.end and span[1] > node.start]
        if node.kind == "atom" or not inside or not aligned_to.size:
            at = point(node.start)
            return at, at
        # Its words' target tokens; if the model kept none as a strongest link, each word's
        # strongest target token.
        tokens = [t for i in inside for t in hits[i]] or [int(best_target[i]) for i in inside]
        start, end = boundary(min(tokens)), boundary(max(tokens) + 1)
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return start, end

    out: list[str] = []

    def emit(children: Sequence[Node], lo: int, hi: int) -> None:
        placed = sorted(((place(c), order, c) for order, c in enumerate(children)), key=lambda x: (x[0][0], x[1]))
        cursor = lo
        for (start, end), _order, child in placed:
            start = min(max(start, cursor), hi)
            end = min(max(end, start), hi)
            out.append(text[cursor:start])
            if child.kind == "atom":
                out.append(f"<x{child.id}/>")
                end = start
            else:
                out.append(f"<g{child.id}>")
                emit(child.children, start, end)
                out.append(f"</g{child.id}>")
            cursor = end
        out.append(text[cursor:hi])

    emit(nodes, 0, len(text))
    return "".join(out)
