"""Source–target alignment of a translation, from the decoder's cross-attention.

The ``project`` markup strategy (``pipeline/markup.py``) translates a sentence without its
placeholders and puts them back where the words they marked went. What it needs from the engine
is text-level and knows no Markdown: for one source text and the translation the search chose,
the character range of every source token, the character boundaries of every target token, and
a ``[target tokens, source tokens]`` weight matrix saying which source token each target token
was produced from.

The weights come from ``aligner.onnx`` (written by ``export``): one teacher-forced pass over the
chosen hypothesis returning each decoder layer's cross-attention averaged over heads, the
alignment signal Firefox Translations uses for models never trained on tags. Row ``t`` is the
attention of the step that *produced* target token ``t``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .tokenizer import SPIECE_UNDERLINE


@dataclass(frozen=True)
class Aligned:
    """One translation and its alignment to the source text.

    ``source_spans[s]``: the character range of source token ``s`` in the source text (``None``
    for tokens that are not its text: a target-language prefix, EOS). ``target_bounds``: ``n + 1``
    non-decreasing character offsets into ``text``, token ``t`` spanning
    ``text[target_bounds[t]:target_bounds[t + 1]]``. ``weights``: ``[n, len(source_spans)]``.
    ``words``: the target vocabulary's words (:func:`target_words`), which tell where a piece that
    translates several source words splits.
    """

    text: str
    source_spans: list[tuple[int, int] | None]
    target_bounds: list[int]
    weights: np.ndarray
    words: frozenset[str] = frozenset()


_WORDS: weakref.WeakKeyDictionary[object, frozenset[str]] = weakref.WeakKeyDictionary()


def target_words(tokenizer: object, pieces: Mapping[int, str]) -> frozenset[str]:
    """Every target piece without its word-start mark, built once per ``tokenizer`` (``pieces``:
    its id -> piece map). A piece such as "也海读么" that translates "for more" splits where its
    parts are pieces of their own ("也海读" + "么")."""
    words = _WORDS.get(tokenizer)
    if words is None:
        words = _WORDS[tokenizer] = frozenset(p.replace(SPIECE_UNDERLINE, "") for p in pieces.values())
    return words


def source_spans(text: str, pieces: Sequence[str], skip: int, total: int) -> list[tuple[int, int] | None]:
    """Character range in ``text`` of each of ``total`` model input tokens, whose first ``skip``
    are a prefix and whose ``pieces`` are the tokenizer's pieces of the text (EOS follows).

    SentencePiece normalises the text, so each piece is looked for from where the previous one
    ended; one that is not found there (normalised, unknown) gets an empty range at that point.
    """
    out: list[tuple[int, int] | None] = [None] * total
    cursor = 0
    for index, piece in enumerate(pieces[skip:], start=skip):
        if index >= total:
            break
        word = piece.replace(SPIECE_UNDERLINE, " ").strip()
        while cursor < len(text) and text[cursor].isspace():
            cursor += 1
        if word and text.startswith(word, cursor):
            out[index] = (cursor, cursor + len(word))
            cursor += len(word)
        else:
            out[index] = (cursor, cursor)
    return out


def target_bounds(ids: Sequence[int], decode: Callable[[Sequence[int]], str]) -> tuple[str, list[int]]:
    """The decoded text of ``ids`` and each token's start offset in it (plus its length): the
    length of the decoded prefix, kept non-decreasing and within the text."""
    text = decode(ids)
    bounds = [0]
    for k in range(1, len(ids)):
        bounds.append(min(max(len(decode(ids[:k])), bounds[-1]), len(text)))
    bounds.append(len(text))
    return text, bounds
