"""Every translator backend, in one table, and constructing a translator by name.

A backend is one :class:`Backend` entry in :data:`BACKENDS`: its name, the factory that builds
its translator from a :class:`TranslatorSpec` (defined here, beside the factories that read
it; the cache key built from a spec is :mod:`.spec`'s), what the cache key calls it, whether it
needs a model directory and whether it can align (``markup: auto`` may pick ``project``).
Everything else (the plugin's and Sphinx's option checks, the CLI's ``--backend`` choices, the
cache key, the page notice, the Ray model shipping) asks this table, so adding a backend is
adding one entry, as mkdocstrings looks its handlers up by name.

Imports of the model runtime happen in the factories, lazily, so that commands and builds that
never need a model (``--backend pseudo``, a fully cached rebuild) never pay for onnxruntime or
numpy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model_format import ALIGNER_FILE
from .markup import (
    AUTO,
    DEFAULT_MARKUP,
    MARKUP_STRATEGIES,
    MarkupChoice,
    announce,
    has_aligner,
    unknown_markup,
)
from .translator import BackendError as BackendError  # raised here; its home is beside the protocol
from .translator import BareTranslator, PseudoTranslator, Translator, as_translator


@dataclass(frozen=True)
class TranslatorSpec:
    """Everything needed to build the translator, and to fingerprint it without building it
    (``spec.bind_cache``; the decoding part of the key is ``spec.decode_options``)."""

    backend: str
    model: str | None
    beams: int | None = None
    threads: int | None = None
    max_batch_tokens: int | None = None
    # The engine's vocabulary shortlist size (None or 0: off, the whole vocabulary). In the key
    # only when on, so the caches filled before it keep their keys.
    shortlist: int | None = None
    # ONNX Runtime execution providers (None: the CPU). Not in the cache key, like threads.
    providers: tuple[str, ...] | None = None
    # The markup strategy (``markup.MARKUP_STRATEGIES``) or ``auto`` (the default: ``project``
    # where the model aligns, else ``tags``). The key names the strategy ``auto`` resolved to,
    # and names none for ``tags``, so the caches filled before strategies existed stay valid.
    markup: str = DEFAULT_MARKUP

    @property
    def resolved_markup(self) -> str:
        """The strategy that translates under this spec (``auto`` resolved; no model loaded)."""
        return resolve_markup(self.markup, self.backend, self.model).name


@dataclass(frozen=True)
class Backend:
    """What the package knows about one backend, looked up by :attr:`name`."""

    name: str
    factory: Callable[[TranslatorSpec], BareTranslator]
    """Builds the bare translator (``as_translator`` adapts it, the markup strategy wraps it) from the spec; raises
    :class:`BackendError` with one line when it cannot."""
    help: str
    """One line for ``--help``."""
    needs_model: bool = False
    """Whether ``model`` (an exported directory) is required. Such a backend is keyed in the
    cache by the model's content (``spec.bind_cache``), named in the page notice by the model's
    directory, and its model can be shipped to Ray actors."""
    fingerprint: str = ""
    """The cache key's translator part for a backend without a model: change it when the
    backend's output for the same text changes (every cached translation is then redone)."""
    aligns: bool = False
    """Whether its translator can align a translation with its source (``load_aligner``):
    ``markup: auto`` resolves to ``project`` there when the export has an aligner."""


def _pseudo(spec: TranslatorSpec) -> BareTranslator:
    return PseudoTranslator()


def _onnx(spec: TranslatorSpec) -> BareTranslator:
    if spec.model is None:
        raise BackendError(
            "the onnx backend needs a model directory: pass --model DIR "
            "(create one with `mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR`)"
        )
    from ..engine import EngineError, OnnxTranslator

    options: dict[str, Any] = {}
    if spec.providers:
        options["providers"] = list(spec.providers)
    if spec.beams is not None:
        options["num_beams"] = spec.beams
    if spec.threads is not None:
        options["threads"] = spec.threads
    if spec.max_batch_tokens is not None:
        options["max_batch_tokens"] = spec.max_batch_tokens
    if spec.shortlist:
        options["shortlist"] = spec.shortlist
    try:
        return OnnxTranslator(Path(spec.model), **options)
    except EngineError as exc:
        raise BackendError(str(exc)) from exc


#: Every backend by name, in the order error messages and choices list them.
BACKENDS: dict[str, Backend] = {
    "onnx": Backend(
        "onnx", _onnx, "the exported MarianMT model in --model DIR", needs_model=True, aligns=True
    ),
    "pseudo": Backend(
        "pseudo", _pseudo, "wraps each sentence in 「…」, no model (layout checks, CI)",
        fingerprint=PseudoTranslator.fingerprint,
    ),
}

DEFAULT_BACKEND = "onnx"


def backend_names() -> tuple[str, ...]:
    """The registered names, in registration order (config and ``--backend`` choices)."""
    return tuple(BACKENDS)


def get_backend(name: str) -> Backend:
    """The entry registered as ``name``, or the one line that lists the known names."""
    backend = BACKENDS.get(name)
    if backend is None:
        raise BackendError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    return backend


def needs_model(name: str) -> bool:
    """Whether the backend ``name`` runs a model directory. A name nobody registered (one a
    custom factory handles: ``LazyTranslator(factory)``, an embedding tool's) counts as a model
    backend, keyed by its model like the ONNX one."""
    backend = BACKENDS.get(name)
    return backend is None or backend.needs_model


def load_translator(
    backend: str,
    model: str | Path | None = None,
    *,
    beams: int | None = None,
    threads: int | None = None,
    max_batch_tokens: int | None = None,
    providers: list[str] | None = None,
    markup: str = DEFAULT_MARKUP,
    shortlist: int | None = None,
) -> Translator:
    """Return a ready translator for ``backend`` (``onnx`` needs ``model``, an exported directory),
    wrapped in the markup strategy ``markup`` (see ``markup.MARKUP_STRATEGIES``; ``auto``:
    ``project`` when the model can align, else ``tags``, as the cache key resolves it)."""
    choice = resolve_markup(markup, backend, model)
    strategy = MARKUP_STRATEGIES.get(choice.name)
    if strategy is None:
        raise BackendError(unknown_markup(markup))
    announce(choice)
    spec = TranslatorSpec(
        backend,
        None if model is None else str(model),
        beams=beams,
        threads=threads,
        max_batch_tokens=max_batch_tokens,
        shortlist=shortlist,
        providers=tuple(providers) if providers else None,
        markup=markup,
    )
    return strategy(as_translator(get_backend(backend).factory(spec)))


def resolve_markup(name: str, backend: str, model: str | Path | None) -> MarkupChoice:
    """The strategy ``name`` stands for with this backend and model: itself, or for ``auto``
    ``project`` when the backend aligns and the export has ``aligner.onnx``, else ``tags`` with
    the reason (an export made before aligners, a backend that cannot align). Reads only the
    manifest: the cache key (``spec.bind_cache``) and the loaded translator
    (``load_translator``) resolve the same way, before and without loading the model."""
    if name != AUTO:
        return MarkupChoice(name)
    entry = BACKENDS.get(backend)
    if entry is None or not entry.aligns:
        return MarkupChoice("tags", f"the {backend} backend cannot align translations")
    if model is None or not has_aligner(Path(model)):
        return MarkupChoice("tags", f"{model} has no {ALIGNER_FILE} (exported by an older version; "
                                    "export it again to get whole sentences around links and code)")
    return MarkupChoice("project")
