"""Markup strategies: how a sentence's inline markup gets through the model.

A segment reaches the translator as text with placeholders (``<xN/>`` atoms: code, URLs,
footnote marks; ``<gN>…</gN>`` pairs: emphasis, link and image text). A *strategy* decides what
the model is asked and how the placeholders come back. It wraps the loaded translator: the
fallback ladder (``ladder.translate_segments``) calls what the strategy returns exactly as it
called the bare translator, validates every output and stays the last resort.

Registered here, in one place, by name; the name is part of ``TranslatorSpec`` (``markup``),
reaches ``backends.load_translator`` and, when not ``tags``, the cache key (another strategy
can produce another translation of the same text). Users choose with the plugin's ``markup:``
option or ``--markup``; the default, ``auto`` (:func:`resolve_markup`), is ``project`` wherever
the model can align and ``tags`` elsewhere, and the cache key names the strategy ``auto``
resolved to, never ``auto``. ``benchmarks/markup.py`` measures every registered strategy.
To add one, write ``def strategy(translator) -> Translator`` (the translator it is given
returns ``scored.Scored`` outputs and so must the one it returns; mark its class
``speaks_scored = True``) and register it in
:data:`MARKUP_STRATEGIES`; a strategy that cannot work with the translator it is given (the
pseudo backend, a model without what it needs) raises ``BackendError`` with one line.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol, runtime_checkable

from ..logs import log
from ..model_format import ALIGNER_FILE, MANIFEST_FILE
from ..scored import Scored, score_of
from .translator import BackendError, Translator, as_translator, bare

MarkupStrategy = Callable[[Translator], Translator]
"""``strategy(translator) -> translator``: what the ladder will call for texts with placeholders."""


def tags(translator: Translator) -> Translator:
    """Today's strategy: the placeholders go to the model as plain text, and whatever the
    model breaks the ladder repairs (another hypothesis, pieces, fewer pairs, English)."""
    return translator


def _emptied(nodes: Sequence[Any], placed: str) -> bool:
    """Whether a pair with words in the source came out with none (``<g2></g2>``: an empty link
    or emphasis, invalid markup); the projection gives every pair a character where one is
    free, so this is a translation too broken to hold its markup."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.kind == "pair":
            stack.extend(node.children)
            if node.end > node.start:
                opened, closed = f"<g{node.id}>", f"</g{node.id}>"
                start = placed.find(opened)
                end = placed.find(closed, start + len(opened)) if start >= 0 else -1
                if start >= 0 and end >= 0 and not placed[start + len(opened):end].strip():
                    return True
    return False


class ProjectingTranslator:
    """``project``: texts with placeholders are translated *without* them and the placeholders
    are put back through the translation's alignment (``projection.project``); texts without
    any go to the wrapped translator untouched (its fp32 parity with transformers holds).

    Pairs' tags are removed and their text kept; atoms (code, URLs, footnote marks: their text
    is not in the placeholder text, only ``<xN/>``) are removed, not replaced by a stand-in the
    model would have to copy, and re-inserted after the word they followed. A text that cannot
    be aligned (too long for one pass, only placeholders) goes to the wrapped translator with
    its tags, as under ``tags``; the ladder validates every output either way.

    Whenever the model was asked for text without placeholders (a text without any, a stripped
    one), placeholders it wrote all the same are removed from its output
    (``projection.drop_stray``): a model trained with tags makes them up, and each would cost
    the whole sentence. Not when the text itself holds placeholder-like strings."""

    speaks_scored: ClassVar[bool] = True

    def __init__(self, inner: Any) -> None:
        self.inner = as_translator(inner)
        self.name = getattr(inner, "name", "onnx")

    def translate(self, texts: Sequence[str]) -> list[Scored]:
        return [alts[0] for alts in self.translate_nbest(texts, 1)]

    def translate_nbest(self, texts: Sequence[str], n: int,
                        terms: Sequence[Sequence[str]] | None = None) -> list[list[Scored]]:
        """``terms``: per text, glossary targets forced in decoding (``engine/terms.py``)."""
        out: list[list[Scored] | None] = [None] * len(texts)
        plain = self._strippable(texts)
        if plain:
            self._translate_projected(plain, terms, out)
        rest = [i for i, alts in enumerate(out) if alts is None]
        if rest:
            self._translate_tagged(texts, rest, n, terms, out)
        return [alts or [Scored("", None)] for alts in out]

    @staticmethod
    def _strippable(texts: Sequence[str]) -> dict[int, tuple[str, list[Any]]]:
        """Texts with placeholders and words besides them, by index: (text without markup,
        the markup's nodes). The others go to the wrapped translator as they are."""
        from ..segment import TAG_RE  # not at import: the CLI's parser reads this registry
        from .projection import strip_markup  # numpy: only when a model runs

        plain: dict[int, tuple[str, list[Any]]] = {}
        for i, text in enumerate(texts):
            stripped = strip_markup(text) if TAG_RE.search(text) else None
            if stripped is not None and stripped[0].strip():
                plain[i] = stripped
        return plain

    def _translate_projected(self, plain: dict[int, tuple[str, list[Any]]],
                             terms: Sequence[Sequence[str]] | None, out: list[list[Scored] | None]) -> None:
        """Translate the stripped texts with alignment and project their markup back; a text
        that cannot be aligned, or whose projection empties a pair, stays None in ``out``."""
        from ..segment import placeholder_spans  # not at import: the CLI's parser reads this registry
        from .projection import drop_stray  # numpy: only when a model runs
        from .projection import project as project_markup

        order = list(plain)
        extra = {} if terms is None else {"terms": [terms[i] for i in order]}
        aligned = self.inner.translate_aligned([plain[i][0] for i in order], **extra)
        for i, result in zip(order, aligned):
            if result is not None:
                text, bounds = result.text, list(result.target_bounds)
                if not placeholder_spans(plain[i][0]):
                    text, bounds = drop_stray(text, bounds)
                placed = project_markup(plain[i][1], text, result.source_spans,
                                        bounds, result.weights, result.words)
                if not _emptied(plain[i][1], placed):  # else: with its tags, as under `tags`
                    out[i] = [Scored(placed, score_of(result.text))]  # the aligner's text: the engine's

    def _translate_tagged(self, texts: Sequence[str], rest: list[int], n: int,
                          terms: Sequence[Sequence[str]] | None, out: list[list[Scored] | None]) -> None:
        """The texts at ``rest`` go to the wrapped translator as under ``tags``; where the text
        had no placeholders, ones the model made up are dropped from its output."""
        from ..segment import placeholder_spans  # not at import: the CLI's parser reads this registry
        from .projection import drop_stray  # numpy: only when a model runs

        texts_left = [texts[i] for i in rest]
        if terms is not None:
            found = self.inner.translate_nbest(texts_left, n, terms=[terms[i] for i in rest])
        elif n == 1 or not hasattr(self.inner, "translate_nbest"):
            found = [[t] for t in self.inner.translate(texts_left)]
        else:
            found = self.inner.translate_nbest(texts_left, n)
        for i, alts in zip(rest, found):
            if placeholder_spans(texts[i]):  # the model saw placeholders (or text like them)
                out[i] = list(alts)
            else:
                out[i] = [alt.with_text(drop_stray(alt.text)[0]) for alt in alts]


def project(translator: Translator) -> Translator:
    """Markup-free translation + projection through cross-attention alignment: the
    model never sees a placeholder. Needs the ONNX engine and an export with
    ``aligner.onnx``."""
    load = getattr(translator, "load_aligner", None)
    if not callable(load):
        raise BackendError(f"markup strategy 'project' needs the onnx backend "
                           f"(the {getattr(translator, 'name', 'given')} translator cannot align)")
    load()  # an export without aligner.onnx: one EngineError line naming the model directory
    return ProjectingTranslator(translator)


@runtime_checkable
class TagConstrainable(Protocol):
    """A translator that can decode under placeholder constraints (the ONNX engine)."""

    def translate_nbest(self, texts: Sequence[str], n: int, *, tags: bool = False,
                        terms: Sequence[Sequence[str]] | None = None) -> list[list[Scored]]: ...


class TagConstrained:
    """Placeholder-constrained beam search (``engine/tags.py``): every hypothesis of a
    sentence with placeholders holds each of them exactly once, pairs opened before they
    close and properly nested; EOS only comes when all are out. The sentence reaches the model
    whole and its output is valid by construction; the ladder stays for what the constraint
    cannot cover (a text longer than the model's positions, the maximum length reached)."""

    speaks_scored: ClassVar[bool] = True

    def __init__(self, inner: TagConstrainable) -> None:
        self.inner: TagConstrainable = as_translator(inner)

    def translate(self, texts: Sequence[str], **context: Sequence[str]) -> list[Scored]:
        return [alts[0] for alts in self.translate_nbest(texts, 1, **context)]

    def translate_nbest(self, texts: Sequence[str], n: int, terms: Sequence[Sequence[str]] | None = None,
                        **context: Sequence[str]) -> list[list[Scored]]:
        """``context``: ``contexts=`` (page context), handed on when given."""
        inner: Any = self.inner  # the protocol names no context: a translator without it is never given any
        if terms is None:
            return list(inner.translate_nbest(texts, n, tags=True, **context))
        return list(inner.translate_nbest(texts, n, tags=True, terms=terms, **context))


def constrained(translator: Translator) -> Translator:
    """The ``constrained`` strategy; needs a translator that decodes under tag constraints."""
    if not isinstance(translator, TagConstrainable) or not _takes_tags(bare(translator)):
        name = getattr(translator, "name", type(translator).__name__)
        raise BackendError(f"markup strategy 'constrained' needs the onnx backend "
                           f"(the {name} backend cannot constrain tags)")
    return TagConstrained(translator)


def _takes_tags(translator: object) -> bool:
    try:
        return "tags" in inspect.signature(translator.translate_nbest).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return False


#: Every strategy by name. The name is what users and the cache key see.
MARKUP_STRATEGIES: dict[str, MarkupStrategy] = {
    "tags": tags,
    "project": project,
    "constrained": constrained,
}

AUTO = "auto"
"""Not a strategy: ``project`` where the loaded model can align, else ``tags`` (see
:func:`resolve_markup`). ``project`` wins on the model that never saw a placeholder (the real
opus-mt-en-zh's situation; BENCHMARKS.md), so it is what a user gets without choosing."""

DEFAULT_MARKUP = AUTO

UNNAMED_MARKUP = "tags"
"""The strategy the cache key leaves unnamed: every cache filled before strategies existed was
filled under it, and stays valid for it (``spec.decode_options``)."""

def markup_names() -> tuple[str, ...]:
    """The registered strategy names, in registration order."""
    return tuple(MARKUP_STRATEGIES)


def markup_choices() -> tuple[str, ...]:
    """What a user may write (``markup:``, ``--markup``): ``auto`` and every strategy."""
    return (AUTO, *MARKUP_STRATEGIES)


def unknown_markup(name: object) -> str:
    """The one line for a name that is neither ``auto`` nor a registered strategy."""
    return f"unknown markup strategy {name!r}; choose one of {', '.join(markup_choices())}"


@dataclass(frozen=True)
class MarkupChoice:
    """The strategy a name stands for, and why ``auto`` did not pick ``project`` (or "")."""

    name: str
    reason: str = ""


def has_aligner(model_dir: Path) -> bool:
    """Whether the export in ``model_dir`` lists and holds ``aligner.onnx``, as the engine's
    ``load_aligner`` requires; read from the manifest, without loading anything."""
    try:
        manifest = json.loads((model_dir / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    files = manifest.get("files") if isinstance(manifest, dict) else None
    return isinstance(files, dict) and ALIGNER_FILE in files and (model_dir / ALIGNER_FILE).is_file()


_ANNOUNCED: set[str] = set()


def announce(choice: MarkupChoice) -> None:
    """One info line per process and reason: why ``auto`` fell back to ``tags``."""
    if choice.reason and choice.reason not in _ANNOUNCED:
        _ANNOUNCED.add(choice.reason)
        log.info(f"markup: {choice.name} ({choice.reason})")
