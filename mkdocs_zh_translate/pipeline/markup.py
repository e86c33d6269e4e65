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

from collections.abc import Callable

from .translator import Translator

MarkupStrategy = Callable[[Translator], Translator]
"""``strategy(translator) -> translator``: what the ladder will call for texts with placeholders."""


def tags(translator: Translator) -> Translator:
    """Today's strategy: the placeholders go to the model as plain text, and whatever the
    model breaks the ladder repairs (another hypothesis, pieces, fewer pairs, English)."""
    return translator


#: Every strategy by name, the default first. The name is what users and the cache see.
MARKUP_STRATEGIES: dict[str, MarkupStrategy] = {
    "tags": tags,
}

DEFAULT_MARKUP = "tags"


def markup_names() -> tuple[str, ...]:
    """The registered strategy names, in registration order."""
    return tuple(MARKUP_STRATEGIES)
