"""Every translator backend, in one table, and constructing a translator by name.

A backend is one :class:`Backend` entry in :data:`BACKENDS`: its name, the factory that builds
its translator from a :class:`TranslatorSpec` (defined here, beside the factories that read
it; the cache key built from a spec is :mod:`.spec`'s), what the cache key calls it, whether it
needs a model directory and whether it can align (``markup: auto`` may pick ``project``).
Everything else (the plugin's and Sphinx's option checks, the CLI's ``--backend`` choices, the
cache key, the page notice, the Ray model shipping) asks this table, so adding a backend is
adding one entry, as mkdocstrings looks its handlers up by name.

The translator's options are the other table here, :data:`ENGINE_OPTIONS` (what an entry is:
``options.EngineOption``), beside the registry because ``backend``'s choices are its names:
every front end's options, the spec's fields, the cache key, the loader's and the engine's
keywords are read from it, so an option is added by one entry (:func:`register_option`).

Imports of the model runtime happen in the factories, lazily, so that commands and builds that
never need a model (``--backend pseudo``, a fully cached rebuild) never pay for onnxruntime or
numpy.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..families import SIMPLIFIED, TARGETS
from ..limits import MAX_THREADS
from ..model_format import ALIGNER_FILE, DECODER_ONLY, GENERATION_FILE
from .context import CONTEXT_CHOICES, OFF
from .markup import (
    AUTO,
    DEFAULT_MARKUP,
    MARKUP_STRATEGIES,
    UNNAMED_MARKUP,
    MarkupChoice,
    announce,
    has_aligner,
    markup_choices,
    unknown_markup,
)
from .options import DEFAULT_BACKEND as DEFAULT_BACKEND  # declared with the options; looked up here too
from .options import IDENTITY, EngineOption
from .translator import BackendError as BackendError  # raised here; its home is beside the protocol
from .translator import BareTranslator, PseudoTranslator, Translator, as_translator

#: Every option by name, in the order the cache key, mkdocs.yml's schema and ``--help`` list them.
ENGINE_OPTIONS: dict[str, EngineOption] = {
    option.name: option
    for option in (
        EngineOption(
            "backend", "choice", "the translator", default=DEFAULT_BACKEND, choices=lambda: backend_names(),
            describe=lambda: "; ".join(f"{b.name}: {b.help}" for b in BACKENDS.values()), cache_key="translator",
        ),
        EngineOption("model", "path", "exported model directory (the onnx backend)", metavar="DIR",
                     cache_key="translator"),
        EngineOption("beams", "count", "beam width", unset="the model's", metavar="N", cache_key="always",
                     engine="num_beams"),
        EngineOption(
            "max_batch_tokens", "count", "most source tokens per engine batch (memory against speed)",
            unset="1024", metavar="N", cache_key="always", engine="max_batch_tokens", aliases=("--batch-tokens",),
        ),
        EngineOption(
            "shortlist", "count", "vocabulary shortlist: score about N frequent target pieces plus the batch's own "
            "instead of all (faster, outputs can differ; needs an export made with it)", unset="0, off",
            minimum=0, metavar="N", cache_key="set", off=(0,), engine="shortlist",
        ),
        EngineOption(
            "markup", "choice", "how links, code and emphasis get through the model: auto (project when the "
            "export has aligner.onnx, else tags), project (translate without them, place them by alignment), "
            "tags (placeholders the model copies), constrained",
            default=DEFAULT_MARKUP, choices=markup_choices, unknown=unknown_markup, cache_key="set",
            key_value=lambda spec: spec.resolved_markup, key_omits=(UNNAMED_MARKUP,),
        ),
        EngineOption("threads", "count", "ONNX Runtime intra-op threads", unset="the engine chooses",
                     maximum=MAX_THREADS, metavar="N", engine="threads"),
        EngineOption(
            "providers", "names", "ONNX Runtime execution providers, comma-separated, e.g. cuda,cpu "
            "(GPU untested)", unset="cpu", metavar="LIST", off=((),), engine="providers",
        ),
        EngineOption(
            "target", "choice", "the Chinese the model writes: zh-Hans, or zh-Hant from a model that can be "
            "asked for Traditional (multi-target opus-mt: >>cmn_Hant<<), or zh-TW / zh-HK from a decoder-only "
            "model whose prompt names them; the option variants' `via: model`",
            default=SIMPLIFIED, choices=lambda: TARGETS, cache_key="set", off=(SIMPLIFIED,),
            engine="target",
        ),
        EngineOption(
            "context", "choice", "page context in the prompt of a model that reads it (the genai backend's): off, "
            "title (the page's first heading), title+previous (and the prose segment before); other backends "
            "ignore it", default=OFF, choices=lambda: CONTEXT_CHOICES, cache_key="set", off=(OFF,),
            key_value=lambda spec: context_mode(spec),
        ),
    )
}


def engine_options() -> tuple[EngineOption, ...]:
    """The options registered now, in order (read at use: one registered later counts)."""
    return tuple(ENGINE_OPTIONS.values())


def register_option(option: EngineOption) -> None:
    """Add an option to every front end (mkdocs.yml, conf.py, the flags, the spec and its key)."""
    if option.name in ENGINE_OPTIONS:
        raise ValueError(f"option {option.name!r} is registered already")
    ENGINE_OPTIONS[option.name] = option


@dataclass(frozen=True)
class TranslatorSpec:
    """Everything needed to build the translator, and to fingerprint it without building it
    (``spec.bind_cache``; the decoding part of the key is ``spec.decode_options``).

    One field per option of :data:`ENGINE_OPTIONS` (checked when this module is
    imported: same names, same defaults), typed for the code that reads them; the values of
    options registered after import (an embedding tool's) are in :attr:`more`. What each option
    is, and whether the key names it, is the table's."""

    backend: str
    model: str | None
    beams: int | None = None
    threads: int | None = None
    max_batch_tokens: int | None = None
    # The engine's vocabulary shortlist size (None or 0: off, the whole vocabulary).
    shortlist: int | None = None
    # ONNX Runtime execution providers (None: the CPU).
    providers: tuple[str, ...] | None = None
    # The markup strategy (``markup.MARKUP_STRATEGIES``) or ``auto`` (the default: ``project``
    # where the model aligns, else ``tags``).
    markup: str = DEFAULT_MARKUP
    # The Chinese the model is asked for (``zh-Hant``: a multi-target model's Traditional code).
    target: str = SIMPLIFIED
    # What page context goes with each segment (``context.CONTEXT_CHOICES``) to a backend that reads it.
    context: str = OFF
    more: tuple[tuple[str, Any], ...] = ()
    """``(name, value)`` of the registered options that have no field, sorted by name."""

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> TranslatorSpec:
        """The spec of these option values (by the table's names; a missing one is at its
        default); TypeError for a name the table lacks, as for a keyword the class lacks."""
        table = {option.name: option for option in engine_options()}
        unknown = sorted(set(values) - set(table))
        if unknown:
            raise TypeError(f"unknown translator option {unknown[0]!r}")
        typed: dict[str, Any] = {}
        more: list[tuple[str, Any]] = []
        for name, value in values.items():
            if table[name].kind == "names" and value is not None:
                value = tuple(value) or None  # a list from YAML or a loader's keywords
            if name in _FIELDS:
                typed[name] = value
            elif value != table[name].default:
                more.append((name, value))
        typed.setdefault("model", None)
        typed.setdefault("backend", DEFAULT_BACKEND)
        return cls(**typed, more=tuple(sorted(more)))

    def option(self, name: str) -> Any:
        """The value of the option ``name`` (a registered one without a field too)."""
        if name in _FIELDS:
            return getattr(self, name)
        found = dict(self.more)
        return found[name] if name in found else _option(name).default

    def values(self) -> dict[str, Any]:
        """Every registered option's value, by name."""
        return {option.name: self.option(option.name) for option in engine_options()}

    def with_options(self, **changes: Any) -> TranslatorSpec:
        """This spec with some options changed (``dataclasses.replace`` for every option)."""
        return TranslatorSpec.of({**self.values(), **changes})

    @property
    def resolved_markup(self) -> str:
        """The strategy that translates under this spec (``auto`` resolved; no model loaded)."""
        return resolve_markup(self.markup, self.backend, self.model).name


_FIELDS = tuple(f.name for f in fields(TranslatorSpec) if f.name != "more")


def _option(name: str) -> EngineOption:
    return next(option for option in engine_options() if option.name == name)


def _check_fields() -> None:
    """The spec's fields are the table's options: a drift is a programming error, found at import."""
    declared = {option.name: option.default for option in engine_options()}
    typed = {f.name: f.default for f in fields(TranslatorSpec) if f.name != "more"}
    for name in IDENTITY:
        typed[name] = declared.get(name)  # by position, without a default
    if typed != declared:
        raise TypeError(f"TranslatorSpec's fields {typed} differ from the option table's {declared}")


_check_fields()


def engine_keywords(spec: TranslatorSpec) -> dict[str, Any]:
    """The engine's keywords (``OnnxTranslator``) for the options that go to it and are set."""
    keywords: dict[str, Any] = {}
    for option in engine_options():
        value = spec.option(option.name)
        if option.engine and not option.is_off(value):
            keywords[option.engine] = list(value) if option.kind == "names" else value
    return keywords


#: The keywords every loader (``load_translator``, a custom factory of ``LazyTranslator``) has
#: always been given; any other option is given only when set.
ALWAYS_GIVEN = ("beams", "threads", "max_batch_tokens")


def loader_keywords(spec: TranslatorSpec) -> dict[str, Any]:
    """``load_translator``'s keywords for ``spec`` (besides backend and model): a factory
    that knows no strategies or shortlist still works while they are at their defaults."""
    keywords: dict[str, Any] = {}
    for option in engine_options():
        value = spec.option(option.name)
        if option.name in IDENTITY:
            continue
        if option.name in ALWAYS_GIVEN or not (option.is_off(value) or value == option.default):
            keywords[option.name] = list(value) if option.kind == "names" and value is not None else value
    return keywords


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
    targets: Callable[[TranslatorSpec], Collection[str] | None] | None = None
    """The Chinese variants its model can be asked for by name (``target``: a decoder-only
    model's prompt names zh-TW), read from the export without loading it; None (or a hook that
    returns None): the model is asked for Traditional, and a variant's table writes its region."""
    runs_kind: str = ""
    """The kind of export its translator runs (``generation.json``'s ``kind``; "" : none): how
    ``eval --compare model=DIR`` tells which backend a model directory needs."""
    takes_context: bool = False
    """Whether its translator reads page context (``translate(texts, contexts=...)``): the
    ``context`` option then sends it and keys by it; elsewhere the option changes nothing."""


def _pseudo(spec: TranslatorSpec) -> BareTranslator:
    return PseudoTranslator()


def _onnx(spec: TranslatorSpec) -> BareTranslator:
    if spec.model is None:
        raise BackendError(
            "the onnx backend needs a model directory: pass --model DIR "
            "(create one with `mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR`)"
        )
    from ..engine import EngineError, OnnxTranslator

    options = engine_keywords(spec)
    try:
        return OnnxTranslator(Path(spec.model), **options)
    except EngineError as exc:
        raise BackendError(str(exc)) from exc


def _genai(spec: TranslatorSpec) -> BareTranslator:
    """A decoder-only export (Hy-MT, TranslateGemma, Qwen) through ONNX Runtime GenAI."""
    if spec.model is None:
        raise BackendError("the genai backend needs a model directory: pass --model DIR (create one with "
                           "`mkdocs-zh-translate export Qwen/Qwen3-0.6B --out DIR`)")
    if spec.shortlist:
        raise BackendError("shortlist is an option of the onnx backend's engine; the genai backend takes none "
                           "(set shortlist to 0)")
    from ..engine import EngineError
    from ..engine.genai import GenaiTranslator

    options = {key: value for key, value in engine_keywords(spec).items()
               if key in ("num_beams", "threads", "max_batch_tokens", "providers", "target")}
    try:
        return GenaiTranslator(Path(spec.model), **options, context=context_mode(spec) != OFF)
    except EngineError as exc:
        raise BackendError(str(exc)) from exc


def _genai_targets(spec: TranslatorSpec) -> Collection[str] | None:
    """The variants a decoder-only export's prompt names (its ``generation.json``, read as
    data; an unreadable one is left to the load, which names what is wrong)."""
    if spec.model is None:
        return None
    from ..engine.prompt import exported_targets

    settings = _generation_settings(Path(spec.model))
    return exported_targets(settings) if settings is not None else None


def _generation_settings(model_dir: Path) -> dict[str, Any] | None:
    """An export's ``generation.json`` as data, None when it is missing or unreadable (the
    engine says what is wrong when it loads the model)."""
    try:
        settings = json.loads((model_dir / GENERATION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return settings if isinstance(settings, dict) else None


#: Every backend by name, in the order error messages and choices list them.
BACKENDS: dict[str, Backend] = {
    "onnx": Backend(
        "onnx", _onnx, "the exported MarianMT model in --model DIR", needs_model=True, aligns=True,
        runs_kind="seq2seq",
    ),
    "pseudo": Backend(
        "pseudo", _pseudo, "wraps each sentence in 「…」, no model (layout checks, CI)",
        fingerprint=PseudoTranslator.fingerprint,
    ),
    "genai": Backend(
        "genai", _genai, "a decoder-only translation model (Hy-MT, TranslateGemma, Qwen) exported to --model DIR, "
        "through ONNX Runtime GenAI", needs_model=True, targets=_genai_targets, takes_context=True,
        runs_kind=DECODER_ONLY,
    ),
}


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


def backend_for_export(model_dir: Path) -> str | None:
    """The backend that runs the export in ``model_dir``, by the kind its ``generation.json``
    says (none: a seq2seq export); None when there is no readable one (the engine then says
    what is wrong when it loads)."""
    settings = _generation_settings(model_dir)
    if settings is None:
        return None
    kind = settings.get("kind") or "seq2seq"
    return next((b.name for b in BACKENDS.values() if b.runs_kind == kind), None)


def context_mode(spec: TranslatorSpec) -> str:
    """The page context the pipeline sends under ``spec``: its ``context`` option where the
    backend reads context, else ``off`` (another backend, or one nobody registered here: a
    custom factory's translator may not take ``contexts``), so there the option changes no key."""
    backend = BACKENDS.get(spec.backend)
    return spec.context if backend is not None and backend.takes_context else OFF


def load_translator(backend: str, model: str | Path | None = None, **options: Any) -> Translator:
    """Return a ready translator for ``backend`` (``onnx`` needs ``model``, an exported directory),
    wrapped in the markup strategy of the ``markup`` option (see ``markup.MARKUP_STRATEGIES``;
    ``auto``: ``project`` when the model can align, else ``tags``, as the cache key resolves it).
    ``options``: the table's (:data:`ENGINE_OPTIONS`) by name; TypeError for another."""
    spec = TranslatorSpec.of({**options, "backend": backend, "model": None if model is None else str(model)})
    choice = resolve_markup(spec.markup, backend, model)
    strategy = MARKUP_STRATEGIES.get(choice.name)
    if strategy is None:
        raise BackendError(unknown_markup(spec.markup))
    announce(choice)
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
