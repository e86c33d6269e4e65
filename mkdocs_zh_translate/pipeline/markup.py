"""Markup strategies: how a sentence's inline markup gets through the model.

A segment reaches the translator as text with placeholders (``<xN/>`` atoms: code, URLs,
footnote marks; ``<gN>…</gN>`` pairs: emphasis, link and image text). A *strategy* decides what
the model is asked and how the placeholders come back. It wraps the loaded translator: the
fallback ladder (``segment.translate_segments``) calls what the strategy returns exactly as it
called the bare translator, validates every output and stays the last resort.

Registered here, in one place, by name; the name is part of ``TranslatorSpec`` (``markup``),
reaches ``backends.load_translator`` and, when not the default, the cache key (another
strategy can produce another translation of the same text). ``benchmarks/markup.py`` measures
every registered strategy. To add one, write ``def strategy(translator) -> Translator`` and
register it in :data:`MARKUP_STRATEGIES`; a strategy that cannot work with the translator it is
given (the pseudo backend, a model without what it needs) raises ``BackendError`` with one line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..segment import TAG_RE
from .translator import Translator

MarkupStrategy = Callable[[Translator], Translator]
"""``strategy(translator) -> translator``: what the ladder will call for texts with placeholders."""


def tags(translator: Translator) -> Translator:
    """Today's strategy: the placeholders go to the model as plain text, and whatever the
    model breaks the ladder repairs (another hypothesis, pieces, fewer pairs, English)."""
    return translator


class ProjectingTranslator:
    """``project``: texts with placeholders are translated *without* them and the placeholders
    are put back through the translation's alignment (``projection.project``); texts without
    any go to the wrapped translator untouched (its fp32 parity with transformers holds).

    Pairs' tags are removed and their text kept; atoms (code, URLs, footnote marks: their text
    is not in the placeholder text, only ``<xN/>``) are removed, not replaced by a stand-in the
    model would have to copy, and re-inserted after the word they followed. A text that cannot
    be aligned (too long for one pass, only placeholders) goes to the wrapped translator with
    its tags, as under ``tags``; the ladder validates every output either way."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "onnx")

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [alts[0] for alts in self.translate_nbest(texts, 1)]

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[str]]:
        from .projection import project as project_markup  # numpy: only when a model runs
        from .projection import strip_markup

        out: list[list[str] | None] = [None] * len(texts)
        plain: dict[int, tuple[str, list[Any]]] = {}
        for i, text in enumerate(texts):
            stripped = strip_markup(text) if TAG_RE.search(text) else None
            if stripped is not None and stripped[0].strip():
                plain[i] = stripped
        if plain:
            order = list(plain)
            aligned = self.inner.translate_aligned([plain[i][0] for i in order])
            for i, result in zip(order, aligned):
                if result is not None:
                    out[i] = [project_markup(plain[i][1], result.text, result.source_spans,
                                             result.target_bounds, result.weights, result.words)]
        rest = [i for i, alts in enumerate(out) if alts is None]
        if rest:
            texts_left = [texts[i] for i in rest]
            if n == 1 or not hasattr(self.inner, "translate_nbest"):
                found = [[t] for t in self.inner.translate(texts_left)]
            else:
                found = self.inner.translate_nbest(texts_left, n)
            for i, alts in zip(rest, found):
                out[i] = list(alts)
        return [alts or [""] for alts in out]


def project(translator: Translator) -> Translator:
    """Markup-free translation + projection through cross-attention alignment (issue 24,
    approach B): the model never sees a placeholder. Needs the ONNX engine and an export with
    ``aligner.onnx``."""
    load = getattr(translator, "load_aligner", None)
    if not callable(load):
        from .backends import BackendError

        raise BackendError(f"markup strategy 'project' needs the onnx backend "
                           f"(the {getattr(translator, 'name', 'given')} translator cannot align)")
    load()  # an export without aligner.onnx: one EngineError line naming the model directory
    return ProjectingTranslator(translator)


@runtime_checkable
class TagConstrainable(Protocol):
    """A translator that can decode under placeholder constraints (the ONNX engine)."""

    def translate_nbest(self, texts: Sequence[str], n: int, *, tags: bool = False) -> list[list[str]]: ...


class TagConstrained:
    """Placeholder-constrained beam search (``engine/tags.py``): every hypothesis of a
    sentence with placeholders holds each of them exactly once, pairs opened before they
    close and properly nested; EOS only comes when all are out. The sentence reaches the model
    whole and its output is valid by construction; the ladder stays for what the constraint
    cannot cover (a text longer than the model's positions, the maximum length reached)."""

    def __init__(self, inner: TagConstrainable) -> None:
        self.inner = inner

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [alts[0] for alts in self.translate_nbest(texts, 1)]

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[str]]:
        return self.inner.translate_nbest(texts, n, tags=True)


def constrained(translator: Translator) -> Translator:
    """The ``constrained`` strategy; needs a translator that decodes under tag constraints."""
    if not isinstance(translator, TagConstrainable) or not _takes_tags(translator):
        from .backends import BackendError  # backends imports this module

        name = getattr(translator, "name", type(translator).__name__)
        raise BackendError(f"markup strategy 'constrained' needs the onnx backend "
                           f"(the {name} backend cannot constrain tags)")
    return TagConstrained(translator)


def _takes_tags(translator: object) -> bool:
    try:
        return "tags" in inspect.signature(translator.translate_nbest).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return False


#: Every strategy by name, the default first. The name is what users and the cache see.
MARKUP_STRATEGIES: dict[str, MarkupStrategy] = {
    "tags": tags,
    "project": project,
    "constrained": constrained,
}

DEFAULT_MARKUP = "tags"


def markup_names() -> tuple[str, ...]:
    """The registered strategy names, in registration order."""
    return tuple(MARKUP_STRATEGIES)
