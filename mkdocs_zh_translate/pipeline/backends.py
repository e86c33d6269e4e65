"""Choosing and constructing a translator by name.

Imports of the model runtime happen here, lazily, so that commands and builds that never need a
model (``--backend pseudo``, a fully cached rebuild) never pay for onnxruntime or numpy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ZhTranslateError
from .markup import DEFAULT_MARKUP, MARKUP_STRATEGIES, announce, resolve_markup, unknown_markup
from .translator import PseudoTranslator, Translator

BACKENDS = ("onnx", "pseudo")


class BackendError(ZhTranslateError):
    """A translator could not be created; the message is meant for the user as is."""


def load_translator(
    backend: str,
    model: str | Path | None = None,
    *,
    beams: int | None = None,
    threads: int | None = None,
    max_batch_tokens: int | None = None,
    providers: list[str] | None = None,
    markup: str = DEFAULT_MARKUP,
) -> Translator:
    """Return a ready translator for ``backend`` (``onnx`` needs ``model``, an exported directory),
    wrapped in the markup strategy ``markup`` (see ``markup.MARKUP_STRATEGIES``; ``auto``:
    ``project`` when the model can align, else ``tags``, as the cache key resolves it)."""
    choice = resolve_markup(markup, backend, model)
    strategy = MARKUP_STRATEGIES.get(choice.name)
    if strategy is None:
        raise BackendError(unknown_markup(markup))
    announce(choice)
    return strategy(_load(backend, model, beams=beams, threads=threads, max_batch_tokens=max_batch_tokens,
                          providers=providers))


def _load(
    backend: str,
    model: str | Path | None,
    *,
    beams: int | None,
    threads: int | None,
    max_batch_tokens: int | None,
    providers: list[str] | None,
) -> Translator:
    if backend == "pseudo":
        return PseudoTranslator()
    if backend == "onnx":
        if model is None:
            raise BackendError(
                "the onnx backend needs a model directory: pass --model DIR "
                "(create one with `mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR`)"
            )
        from ..engine import EngineError, OnnxTranslator

        options: dict[str, Any] = {}
        if providers:
            options["providers"] = list(providers)
        if beams is not None:
            options["num_beams"] = beams
        if threads is not None:
            options["threads"] = threads
        if max_batch_tokens is not None:
            options["max_batch_tokens"] = max_batch_tokens
        try:
            return OnnxTranslator(Path(model), **options)
        except EngineError as exc:
            raise BackendError(str(exc)) from exc
    raise BackendError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
