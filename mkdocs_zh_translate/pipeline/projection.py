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

import collections
import itertools
from collections.abc import Container, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..segment import placeholder_spans, tokenize


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


def drop_stray(text: str, bounds: Sequence[int] = ()) -> tuple[str, list[int]]:
    """``text`` without the placeholders the model made up, and ``bounds`` (character offsets
    into ``text``) moved to match.

    The model was asked for a sentence without placeholders; one trained with them (the demo
    model) still writes ``<x1/>`` or ``<g1>`` now and then. Left in, it would be a placeholder
    the source lacks or one more copy of a projected one, and the ladder would throw the whole
    sentence away (translate it in pieces). Removing it leaves no double space: the spaces
    after it go too when a space (or the start) comes before it, those before it when it ends
    the text."""
    cut: list[tuple[int, int]] = []
    for start, end in placeholder_spans(text):
        if cut and start < cut[-1][1]:
            continue  # inside spaces already removed
        if start == 0 or text[start - 1].isspace():
            while end < len(text) and text[end].isspace():
                end += 1
        if end == len(text):
            while start > 0 and text[start - 1].isspace() and (not cut or start > cut[-1][1]):
                start -= 1
        cut.append((start, end))
    if not cut:
        return text, list(bounds)
    kept = "".join(text[a:b] for a, b in zip([0] + [e for _, e in cut], [s for s, _ in cut] + [len(text)]))
    moved, k, removed = [], 0, 0
    for offset in bounds:  # non-decreasing: one walk over the cuts
        while k < len(cut) and cut[k][1] <= offset:
            removed += cut[k][1] - cut[k][0]
            k += 1
        inside = k < len(cut) and cut[k][0] < offset
        moved.append((cut[k][0] if inside else offset) - removed)
    return kept, moved


def project(nodes: Sequence[Node], text: str, source_spans: Sequence[tuple[int, int] | None],
            target_bounds: Sequence[int], weights: np.ndarray, known: Container[str] = frozenset()) -> str:
    """``text`` (the translation) with every node of ``nodes`` put back as a placeholder.

    ``source_spans``: each source token's character range in the plain sentence (``None``: not
    text); ``target_bounds``: ``n + 1`` character offsets of the ``n`` target tokens in
    ``text``; ``weights``: ``[n, len(source_spans)]`` alignment weights; ``known``: the target
    vocabulary's words (pieces without the word-start mark), which tell where a piece that
    translates several source words splits (see :func:`_split`)."""
    alignment = _Alignment(nodes, text, source_spans, target_bounds, weights, known)
    out: list[str] = []

    def emit(children: Sequence[Node], lo: int, hi: int) -> None:
        placed = sorted(((alignment.place(c), order, c) for order, c in enumerate(children)),
                        key=lambda x: (x[0][0], x[1]))
        cursor = lo
        for (start, end), _order, child in placed:
            start = min(max(start, cursor), hi)
            end = min(max(end, start), hi)
            if child.kind == "pair" and start == end and child.end > child.start:
                start, end = alignment.widen(start, cursor, hi)
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


#: A source token that no target token chose as its strongest link (``argmax`` of the row) may
#: still claim its own strongest target token when that token attends to it at least this much
#: relative to the token's strongest source token: a share of the token's characters when it
#: has several, the whole token when its row's choice has others. Chosen on the development
#: split of ``tools/markup_set.py`` (seed 1; the benchmark scores seed 0) over 0, 0.1 ... 0.8.
CLAIM = 0.3
#: Pieces longer than this (in units) are split evenly rather than by the vocabulary (the
#: number of ways to cut grows combinatorially; real pieces are a few characters).
MAX_SPLIT_UNITS = 12


def _units(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The units of ``text[lo:hi]`` a tag can go between: each ASCII word or number, each other
    non-space character (a Chinese character, a punctuation mark)."""
    out: list[tuple[int, int]] = []
    i = lo
    while i < hi:
        if text[i].isspace():
            i += 1
            continue
        j = i + 1
        if text[i].isascii() and text[i].isalnum():
            while j < hi and text[j].isascii() and text[j].isalnum():
                j += 1
        out.append((i, j))
        i = j
    return out


def _even(parts: int, size: int) -> list[tuple[int, int]]:
    """``range(size)`` cut into ``parts`` consecutive runs, the earlier ones one longer."""
    out, start = [], 0
    for k in range(parts):
        end = start + -(-(size - start) // (parts - k))
        out.append((start, end))
        start = end
    return out


def _split(text: str, units: Sequence[tuple[int, int]], parts: int, known: Container[str]) -> list[tuple[int, int]]:
    """Cut a target token's ``units`` into ``parts`` consecutive runs, one per source word it
    translates (in source order): where the vocabulary has the longest words (the sum of the
    squared lengths of the runs of two or more units that are vocabulary words: "也海读么" for
    "for more" -> "也海读" + "么"), else evenly."""
    even = _even(parts, len(units))
    if parts < 2 or parts > len(units) or len(units) > MAX_SPLIT_UNITS:
        return even
    best, best_score = even, 0
    for cut in itertools.combinations(range(1, len(units)), parts - 1):
        points = (0, *cut, len(units))
        runs = list(itertools.pairwise(points))
        score = sum((b - a) ** 2 for a, b in runs if b - a > 1 and text[units[a][0]:units[b - 1][1]] in known)
        if score > best_score:
            best, best_score = runs, score
    return best


@dataclass
class _Votes:
    """Who attends to whom, over the content source tokens (``sub``: target x content weights):
    each target token's strongest source token (``row_best``), each source token's strongest
    spoken target token (``col_best``), how many spoken target tokens each source token wins
    (``has_row``), and per target token the source tokens that win none and claim it."""

    sub: np.ndarray
    row_best: np.ndarray
    col_best: np.ndarray
    has_row: collections.Counter[int]
    claims: dict[int, list[int]]


def _votes(sub: np.ndarray, token_units: Sequence[Sequence[tuple[int, int]]]) -> _Votes:
    """The votes of ``sub``; tokens that are only space vote for nothing (when any other does)."""
    spoken = np.array([bool(units) for units in token_units])  # tokens that are not only space
    row_best = sub.argmax(axis=1)
    col_best = np.where(spoken[:, None], sub, -np.inf).argmax(axis=0) if spoken.any() else sub.argmax(axis=0)
    has_row = collections.Counter(int(c) for c, kept in zip(row_best, spoken) if kept)
    claims: dict[int, list[int]] = {}
    for c, t in enumerate(col_best):
        if c not in has_row:
            claims.setdefault(int(t), []).append(c)
    return _Votes(sub, row_best, col_best, has_row, claims)


def _owners(t: int, n_units: int, votes: _Votes) -> tuple[int, list[int]]:
    """Target token ``t``'s owner and the claimants strong enough to share it (:data:`CLAIM`).
    A one-unit token cannot be shared: a claimant takes it when the owner wins others too."""
    owner = int(votes.row_best[t])
    claimants = [c for c in votes.claims.get(t, ()) if votes.sub[t, c] >= CLAIM * votes.sub[t, owner]]
    if claimants and n_units == 1 and votes.has_row[owner] > 1:
        votes.has_row[owner] -= 1  # the owner keeps its other tokens; the claimant gets this one
        owner, claimants = claimants[0], []
    return owner, claimants


def _node_cuts(nodes: Sequence[Node]) -> set[int]:
    """Every offset where a node starts or ends, at any depth: source tokens are cut there."""
    cuts: set[int] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        cuts.update((node.start, node.end))
        stack.extend(node.children)
    return cuts


class _Alignment:
    """Which target units (:func:`_units`) each source unit produced, and where a node goes.

    Source units are the text tokens, cut where a node starts or ends inside one (SentencePiece
    may glue "::." into one piece when a pair ends after "::"). Each target token goes to the
    source token it attends to most; a multi-unit token is shared with the source tokens that
    have no token of their own and claim it (:data:`CLAIM`), cut by :func:`_split`; a source
    token's target units are shared among its source units in proportion to their lengths."""

    def __init__(self, nodes: Sequence[Node], text: str, source_spans: Sequence[tuple[int, int] | None],
                 target_bounds: Sequence[int], weights: np.ndarray, known: Container[str]) -> None:
        self.text = text
        content = [s for s, span in enumerate(source_spans) if span is not None and span[1] > span[0]]
        self.spans: list[tuple[int, int]] = []  # source units
        pieces = self._source_units(_node_cuts(nodes), source_spans, content)
        self.units: list[tuple[int, int]] = []  # target units
        self.first_of_token: list[bool] = []
        self.token_start: list[int] = []
        self.hits: list[list[int]] = [[] for _ in self.spans]
        self.best: list[range] = [range(0)] * len(self.spans)  # units of the strongest token
        n = len(target_bounds) - 1
        if not content or n <= 0 or weights.shape[0] < n:
            return
        sub = np.asarray(weights[:n][:, content], dtype=np.float64)
        token_units = [_units(text, target_bounds[t], target_bounds[t + 1]) for t in range(n)]
        votes = _votes(sub, token_units)
        per_token, unit_range = self._target_units(token_units, target_bounds, votes, len(content), known)
        self._share(per_token, pieces, unit_range, votes.col_best)

    def _source_units(self, cuts: set[int], source_spans: Sequence[tuple[int, int] | None],
                      content: Sequence[int]) -> list[range]:
        """Cut each content token's span at the node offsets inside it into ``self.spans``;
        the source units of each content token, in order."""
        pieces: list[range] = []  # source units of each content token
        for s in content:
            lo, hi = source_spans[s] or (0, 0)
            points = [lo, *sorted(c for c in cuts if lo < c < hi), hi]
            pieces.append(range(len(self.spans), len(self.spans) + len(points) - 1))
            self.spans.extend(itertools.pairwise(points))
        return pieces

    def _target_units(self, token_units: Sequence[list[tuple[int, int]]], target_bounds: Sequence[int],
                      votes: _Votes, n_content: int, known: Container[str]) -> tuple[list[list[int]], dict[int, range]]:
        """Record every target unit and give each target token's units to its owner, or split
        them among owner and claimants; returns the target units of each content token and the
        units of each target token."""
        per_token: list[list[int]] = [[] for _ in range(n_content)]  # target units of each content token
        unit_range: dict[int, range] = {}
        for t, units in enumerate(token_units):
            if not units:
                continue
            first = len(self.units)
            unit_range[t] = range(first, first + len(units))
            self.units.extend(units)
            self.first_of_token.extend(k == 0 for k in range(len(units)))
            self.token_start.extend([target_bounds[t]] * len(units))
            owner, claimants = _owners(t, len(units), votes)
            if len(units) == 1 or not claimants:
                per_token[owner].extend(range(first, first + len(units)))
                continue
            words = sorted({owner, *claimants})
            for c, (a, b) in zip(words, _split(self.text, units, len(words), known)):
                per_token[c].extend(range(first + a, first + b))
        return per_token, unit_range

    def _share(self, per_token: Sequence[list[int]], pieces: Sequence[range], unit_range: dict[int, range],
               col_best: np.ndarray) -> None:
        """Share each content token's target units among its source units in proportion to
        their lengths; each source unit also keeps the units of the token that attends to its
        token most (``self.best``)."""
        for c, found in enumerate(per_token):
            units_of = pieces[c]
            lengths = [self.spans[u][1] - self.spans[u][0] for u in units_of]
            total, done = sum(lengths), 0
            for u, length in zip(units_of, lengths):
                a = round(done * len(found) / total)
                done += length
                self.hits[u] = found[a:round(done * len(found) / total)]
            best = unit_range.get(int(col_best[c]), range(0))
            for u in units_of:
                self.best[u] = best

    def _start(self, unit: int) -> int:
        """Where something placed before ``unit`` goes: before its token's leading space when it
        starts the token."""
        return self.token_start[unit] if self.first_of_token[unit] else self.units[unit][0]

    def point(self, pos: int) -> int:
        """Character offset in the translation for something at ``pos`` of the plain text."""
        spans, hits = self.spans, self.hits
        if not self.units or not any(span[1] <= pos for span in spans):
            return 0  # nothing before it in the source: it starts the translation too
        if not any(span[0] >= pos for span in spans):
            return len(self.text)  # nothing after it: it ends the translation
        # After the nearest word before it that the translation kept, else before the nearest
        # one after it.
        left = [i for i, span in enumerate(spans) if span[1] <= pos and hits[i]]
        if left:
            return self.units[max(hits[left[-1]])][1]
        right = [i for i, span in enumerate(spans) if span[0] >= pos and hits[i]]
        if right:
            return self._start(min(hits[right[0]]))
        return 0

    def widen(self, at: int, lo: int, hi: int) -> tuple[int, int]:
        """A range of one unit for a pair with text that was placed empty at ``at`` (its words
        kept no unit of their own, or a sibling took them): the first unit inside ``lo..hi``
        from ``at`` on, else the last one before it; an empty link or emphasis is invalid
        markup, and a word of Chinese in the wrong place is not."""
        inside = [u for u in self.units if lo <= u[0] and u[1] <= hi and self.text[u[0]:u[1]].strip()]
        after = [u for u in inside if u[0] >= at]
        if after:
            return after[0]
        if inside:
            return inside[-1]
        return at, at

    def place(self, node: Node) -> tuple[int, int]:
        """A node's target range: an atom's (or an empty pair's) point; a pair's units'
        covering range (if none of its words kept a unit, each word's strongest one)."""
        inside = [i for i, span in enumerate(self.spans) if span[0] < node.end and span[1] > node.start]
        if node.kind == "pair" and inside and self.units:
            units = [u for i in inside for u in self.hits[i]]
            units = units or [u for i in inside for u in self.best[i]]
            if units:
                return self.units[min(units)][0], self.units[max(units)][1]
        at = self.point(node.start)
        return at, at
