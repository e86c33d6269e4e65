"""The one lazily loaded model: built on first use only, kept for later runs with the same spec.

A rebuild whose segments are all cached never loads the model, and ``mkdocs serve`` (which keeps
the plugin, hence this object, across rebuilds) loads it at most once per process.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import ZhTranslateError
from .backends import BACKENDS, BackendError, TranslatorSpec, load_translator, loader_keywords
from .translator import Translator, as_translator


class TranslationFailed(ZhTranslateError):
    """The translator could not be loaded or failed; the message is for the user as is."""


class LazyTranslator:
    """Builds the translator on first use only, and keeps it for later builds with the same spec."""

    def __init__(self, factory: Callable[..., Translator] | None = None) -> None:
        self._factory = factory
        self._spec: TranslatorSpec | None = None
        self._translator: Translator | None = None
        self.loads = 0

    def get(self, spec: TranslatorSpec) -> Translator:
        if self._translator is not None and self._spec == spec:
            return self._translator
        backend = BACKENDS.get(spec.backend)  # unknown: the factory says so (a custom one may know it)
        if backend is not None and backend.needs_model and spec.model and not Path(spec.model).exists():
            raise TranslationFailed(
                "some segments are not in the translation cache, but the "
                f"model directory {spec.model} does not exist; create it with "
                f"`mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out {spec.model}`"
            )
        factory = self._factory or load_translator
        try:
            # beams, threads and max_batch_tokens always, any other option only when set: a
            # custom factory that knows no strategies or shortlist still works
            translator = factory(spec.backend, spec.model, **loader_keywords(spec))
        except BackendError as exc:
            raise TranslationFailed(str(exc)) from None
        except ImportError as exc:
            raise TranslationFailed(f"the {spec.backend} backend cannot be imported: {exc}") from None
        adapted: Translator = as_translator(translator)  # a custom factory's may be a bare backend
        self._translator, self._spec = adapted, spec
        self.loads += 1
        return adapted

    def sibling(self) -> LazyTranslator:
        """Another lazily loaded model built by the same factory: the one a second target of the
        same model (a variant's ``target: zh-Hant``) is kept in, beside this one's."""
        return LazyTranslator(self._factory)

    @property
    def loaded(self) -> bool:
        return self._translator is not None
