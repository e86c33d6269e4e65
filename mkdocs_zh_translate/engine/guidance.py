"""Guided decoding of glossary terms for decoder-only models (ONNX Runtime GenAI's llguidance).

A decoder-only model is told a term's rendering in its prompt, but a model that assigns the
rendering almost no probability (an invented word, a house term) writes its own word instead,
and GenAI's search cannot be steered token by token from Python as the seq2seq engine's is.
GenAI can constrain a generator by a grammar (``GeneratorParams.set_guidance``), so an answer
that lacks a term is generated again under a Lark grammar that *requires* each term: free text,
the term, free text, ..., then one of the export's stop tokens.

Free text with no bound would let greedy search put the term off for ever (the model never
chooses it), so each stretch of free text gets a budget in characters: the share of the unguided
answer's length that precedes the term's English in the source (terms in the order of their
English in the source; one whose English is not found goes last). The terms therefore sit
roughly where their English was; the model writes everything around them.

Terms are literals: each is written as a JSON string literal, which Lark reads verbatim, so
regex or Lark metacharacters in a term (``.*``, ``"``, ``|``, ``/``) are plain characters.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from ..termpair import term_source

#: Characters of free text allowed after the last term, past the unguided answer's own length.
SLACK_CHARS = 8
#: Answer lengths tried (added to the unguided answer's) where llguidance rejects a token.
GUIDE_SHIFTS = (0, 1, 2)


def lark_literal(term: str) -> str:
    """``term`` as a Lark string literal that matches exactly its characters."""
    return json.dumps(term, ensure_ascii=False)


def ordered_terms(source: str, targets: Sequence[str]) -> list[tuple[float, str]]:
    """Each target (one per occurrence) with where its English starts in ``source`` (0..1;
    1.0 where the glossary gave no English or it is not there), in that order."""
    lowered = source.lower()
    placed: list[tuple[float, str]] = []
    start = 0
    for target in targets:
        english = (term_source(target) or "").lower()
        at = lowered.find(english, 0) if english else -1
        if english and at >= 0:
            later = lowered.find(english, start)  # a repeated term: its next occurrence
            at = later if later >= 0 else at
            start = at + len(english)
        share = at / max(len(source), 1) if at >= 0 else 1.0
        placed.append((share, str(target)))
    return sorted(placed, key=lambda p: p[0])


def token_literal(ids: Sequence[int]) -> str:
    """A term as the exact tokens the model's tokenizer spells it with (``<[id]>`` each)."""
    return " ".join(f"<[{int(i)}]>" for i in ids)


def term_grammar(source: str, targets: Sequence[str], answer_chars: int, stop_ids: Iterable[int],
                 spell: Callable[[str], Sequence[int] | None] | None = None) -> str:
    """The Lark grammar an answer with every target in it matches (``answer_chars``: the
    unguided answer's length in characters, which sets the free stretches' budgets). ``spell``:
    a term's token ids (None where they do not decode back to it): a term written as its
    tokens is forced token by token; as text, llguidance may force it through byte pieces of
    a character that GenAI's token table reads as U+FFFD, a parser error."""
    rules: list[str] = []
    parts: list[str] = []
    used = 0
    for k, (share, term) in enumerate(ordered_terms(source, targets)):
        budget = max(0, round(share * answer_chars) - used)
        if budget:
            rules.append(f"free{k}: {_free(budget)}")
            parts.append(f"free{k}")
        used += budget
        ids = spell(term) if spell is not None else None
        parts.append(token_literal(ids) if ids else lark_literal(term))
    rules.append(f"rest: {_free(max(answer_chars - used, 0) + SLACK_CHARS)}")
    parts.append("rest")
    stops = " | ".join(f"<[{int(i)}]>" for i in sorted(stop_ids))
    parts.append(f"({stops})" if stops else "")
    return "\n".join([f"start: {' '.join(p for p in parts if p)}", *rules]) + "\n"


def _free(chars: int) -> str:
    """Free text of at most ``chars`` characters, newlines included, but no U+FFFD: GenAI hands
    llguidance each token's text decoded alone, so a byte-level piece of a character reads as
    U+FFFD there, and a piece chosen as free text would not meet the term's bytes the grammar
    forces next (a parser error). Whole-character tokens remain; a character the vocabulary
    spells only in pieces cannot be written inside a guided answer."""
    return f"/[^\ufffd]{{0,{int(chars)}}}/"
