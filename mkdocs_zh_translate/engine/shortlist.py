"""The opt-in vocabulary shortlist: the target pieces one batch may produce.

With the whole vocabulary, the output projection and its log-softmax are the largest part of
a decoding step (opus-mt: 512 × 65,001, ~43% of decoder time), the same floor for every
engine. A shortlist projects onto a few thousand rows instead (an export with
``rewrites.shortlist_head``). Per batch it holds:

* the special tokens (pad, EOS, unknown, the decoder start, every special id);
* the ``size`` most probable pieces of the target SentencePiece model (its unigram scores are
  learnt log-probabilities: a frequency ranking every Marian export has offline);
* every target piece of the batch's source pieces (copied names, code, numbers): the piece
  itself where the target vocabulary has it, and its text cut by the target model;
* every id the sentences' tag and term constraints may force (``Constraint.forced_ids``), so a
  forced token is never out of reach.

The log-softmax is then taken over the shortlist only, so scores and (rarely) choices differ
from the full vocabulary's: it is off unless asked for, and ``benchmarks/shortlist.py`` reports
how often the output stays the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .tags import Constraint
from .tokenizer import SPIECE_UNDERLINE, MarianSpmTokenizer


class Shortlister:
    """Builds each batch's shortlist (sorted ids) for one tokenizer and size."""

    def __init__(self, tokenizer: MarianSpmTokenizer, size: int, specials: Iterable[int]) -> None:
        self.tokenizer = tokenizer
        base = {int(i) for i in specials} | set(tokenizer.special_ids)
        frequent: list[int] = []
        for piece in tokenizer.target_pieces_by_score():
            if len(frequent) >= size:
                break
            tid = tokenizer.target_id(piece)
            if tid is not None and tid not in base:
                frequent.append(tid)
                base.add(tid)
        self.base = np.array(sorted(base), dtype=np.int64)
        self._copied: dict[int, tuple[int, ...]] = {}

    def copied(self, source_id: int) -> tuple[int, ...]:
        """Target ids a source piece may come out as: the same piece (with and without its
        word-start mark) and its text as the target model cuts it (cached per id)."""
        hit = self._copied.get(source_id)
        if hit is None:
            tok = self.tokenizer
            piece = tok.source_piece(source_id) or ""
            text = piece.replace(SPIECE_UNDERLINE, " ").strip()
            forms = {piece, text, SPIECE_UNDERLINE + text, *(tok.target_pieces(text) if text else ())}
            hit = tuple(sorted({t for t in map(tok.target_id, forms) if t is not None}))
            self._copied[source_id] = hit
        return hit

    def for_batch(self, sources: Sequence[Sequence[int]],
                  constraints: Sequence[Constraint | None] | None = None) -> np.ndarray:
        """The sorted ids one batch may produce (sorted: ties among equal scores then resolve
        as over the whole vocabulary, lower id first)."""
        copied = {t for ids in sources for source_id in set(ids) for t in self.copied(int(source_id))}
        parts = [self.base, np.fromiter(copied, dtype=np.int64, count=len(copied))]
        parts.extend(c.forced_ids() for c in constraints or () if c is not None)
        return np.unique(np.concatenate(parts).astype(np.int64, copy=False))
