"""The seam between Markdown handling and machine translation.

Anything with a ``translate`` method of this shape can translate a site: the ONNX engine, the
pseudo-localiser below, or a user's own backend. Keeping it a structural ``Protocol`` lets the
engine satisfy it without importing this module (the engine must not know about Markdown).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..errors import ZhTranslateError


class BackendError(ZhTranslateError):
    """A translator could not be created or wrapped; the message is meant for the user as is.

    Here, beside the protocol, so that both the backend registry and the markup strategies
    (which the registry wraps translators in) raise it without importing each other."""


@runtime_checkable
class Translator(Protocol):
    """Translate a batch of segments; output order matches input order."""

    def translate(self, texts: Sequence[str]) -> list[str]: ...


@runtime_checkable
class NBestTranslator(Translator, Protocol):
    """A translator that can offer alternatives, used by the placeholder fallback ladder."""

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[str]]: ...


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
