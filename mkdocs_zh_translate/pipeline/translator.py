"""The seam between Markdown handling and machine translation.

A *backend* translates strings: the ONNX engine, the pseudo-localiser below, or a user's own
(:class:`BareTranslator`). The pipeline speaks :class:`Translator`: every output is a
:class:`~..scored.Scored`, the text with the model's confidence in it, so a wrapper (glossary,
markup strategy) that rebuilds a text has the score in hand and must pass one on: there is no
string it could return that silently drops it. :func:`as_translator` is the one place where a
backend's strings become ``Scored`` (the engine's carry a ``score``, see ``scored.py``; anyone
else's have none: None, "unknown"). Both are structural ``Protocol`` s, so the engine satisfies
the bare one without importing this module (the engine must not know about Markdown).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from ..errors import ZhTranslateError
from ..scored import Scored, score_of


class BackendError(ZhTranslateError):
    """A translator could not be created or wrapped; the message is meant for the user as is.

    Here, beside the protocol, so that both the backend registry and the markup strategies
    (which the registry wraps translators in) raise it without importing each other."""


class BareTranslator(Protocol):
    """What a backend is: a batch of texts in, one string per text out, in order."""

    def translate(self, texts: Sequence[str]) -> Sequence[str]: ...


@runtime_checkable
class Translator(Protocol):
    """Translate a batch of segments; output order matches input order."""

    def translate(self, texts: Sequence[str]) -> list[Scored]: ...


@runtime_checkable
class NBestTranslator(Translator, Protocol):
    """A translator that can offer alternatives, used by the placeholder fallback ladder."""

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[Scored]]: ...


def scored(output: object) -> Scored:
    """A backend's output as ``Scored``: its ``score`` when it carries a finite one; anything
    but a string (a backend's bug) reads as an empty translation, which the ladder rejects."""
    if isinstance(output, Scored):
        return output
    if isinstance(output, str):
        return Scored(str(output), score_of(output))
    return Scored("", None)


class Scoring:
    """A backend's translator, speaking ``Scored``: the adapter at the pipeline's boundary.

    ``translate_nbest`` (with whatever keywords the backend takes: the engine's ``tags`` and
    ``terms``) exists when the backend has it; ``translate_aligned``, ``load_aligner`` and any
    other attribute are the backend's own (``ProjectingTranslator`` converts what the aligner
    returns). ``raw`` is the backend, for the checks that read its signature."""

    speaks_scored: ClassVar[bool] = True

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        if hasattr(raw, "translate_nbest"):
            self.translate_nbest = self._translate_nbest

    def translate(self, texts: Sequence[str], **options: Any) -> list[Scored]:
        return [scored(out) for out in self.raw.translate(texts, **options)]

    def _translate_nbest(self, texts: Sequence[str], n: int, **options: Any) -> list[list[Scored]]:
        return [[scored(out) for out in alts] for alts in self.raw.translate_nbest(texts, n, **options)]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def as_translator(translator: Any) -> Any:
    """``translator`` speaking ``Scored``: itself when it does already (a wrapper of the
    pipeline's, marked ``speaks_scored``), else a backend wrapped in :class:`Scoring`."""
    return translator if getattr(translator, "speaks_scored", False) else Scoring(translator)


def bare(translator: Any) -> Any:
    """The backend under :class:`Scoring` (itself for anything else): whose signature says
    which keywords (``tags``, ``terms``) it takes."""
    return translator.raw if isinstance(translator, Scoring) else translator


PSEUDO_OPEN = "\u300c"  # 「
PSEUDO_CLOSE = "\u300d"  # 」


class PseudoTranslator:
    """Pseudo-localisation: wrap every segment in 「…」, leave everything else alone.

    It is the standard i18n check for layouts: every string that went through translation is
    visibly marked, every string that did not is visibly unmarked, and removing the marks must
    give back the original page. It needs no model, so it also keeps tests and ``--backend
    pseudo`` instant.
    """

    name = "pseudo"
    fingerprint = "pseudo-v1"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [f"{PSEUDO_OPEN}{t}{PSEUDO_CLOSE}" if t.strip() else t for t in texts]

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[str]]:
        return [[out] for out in self.translate(texts)]
