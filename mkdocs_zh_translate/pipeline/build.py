"""The one place the pipeline is wired: translator spec and site in, an immutable pipeline out.

Every front end (the plugin and ``docs``, ``md``, ``po fill``, ``sphinx``, ``eval``,
``prefill``, ``review sync``) gathers its inputs (the spec, the machine cache it opened, the
reviewed layer, the glossary, the page guard) and calls :func:`build_pipeline`; what it gets
back is never rewired. Before, each front end bound the cache, wrapped the model and chose the
fallback policy by hand, and ``prefill`` rewired a built service: a fix to one wiring missed
the others, and what a pass translated with was not what it was built with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..families import TRADITIONAL
from .backends import BACKENDS, TranslatorSpec, context_mode
from .cache import MachineCache
from .context import OFF, RequestKeys, announce_ignored
from .glossary import Glossary
from .lazy import LazyTranslator
from .progress import NoProgress, Progress
from .service import ChunkRunner, Guard, Requests, TranslationService
from .spec import CacheBinding, bind_cache
from .translator import Translator
from .variants import ConvertedReviewer, Converter, ConvertingService, Variant, VariantError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .cache import Hit
    from .reviews import Reviewer

ModelLoader = Callable[[TranslatorSpec], Translator]
"""``load(spec) -> translator``: builds (or returns) the translator ``spec`` describes."""

GIVEN_TRANSLATOR = TranslatorSpec("given", None)
"""The spec of a translator the caller hands over as an object (``translate_markdown``): the
registry never loads it, and a machine cache is bound to it only by the caller
(:attr:`SiteInputs.cache` a :class:`~.spec.CacheBinding`)."""


@dataclass(frozen=True)
class SiteInputs:
    """What a front end gathers about the site it translates; every piece optional.

    ``cache``: the machine cache the front end opened (and closes: the plugin keeps one across
    ``mkdocs serve`` rebuilds), bound here to the spec's fingerprints; or a binding already
    made (a library caller's). ``reviews``: reviewed translations, consulted per segment
    before the cache (``SiteTranslator``). ``guard``: the page guard of spliced pages."""

    cache: MachineCache | CacheBinding | None = None
    reviews: Reviewer | None = None
    glossary: Glossary | None = None
    guard: Guard | None = None


@dataclass(frozen=True)
class Pipeline:
    """The wired pipeline: the spec it translates with, its service, the lazily loaded model
    (``loads`` tells a build whether it loaded it), the inputs it was built from."""

    spec: TranslatorSpec
    service: TranslationService
    lazy: LazyTranslator
    site: SiteInputs

    @property
    def reviews(self) -> Reviewer | None:
        return self.site.reviews

    def request_keys(self) -> RequestKeys:
        """The request keys of a pass: with each segment's page context where the service reads
        it (the ``context`` option on a backend that takes context), else the texts themselves."""
        return RequestKeys(context_mode(self.spec) if self.service.context else OFF)

    @property
    def glossary(self) -> Glossary | None:
        return self.service.glossary

    @property
    def cache(self) -> CacheBinding | None:
        return self.service.cache

    @property
    def machine(self) -> MachineCache | None:
        """The machine cache the binding reads and writes (None: no cache)."""
        return self.service.cache.machine if self.service.cache is not None else None

    def translate(self, requests: Requests) -> dict[str, Hit]:
        """:meth:`TranslationService.translate`."""
        return self.service.translate(requests)

    def lookup(self, requests: Requests) -> dict[str, Hit]:
        """:meth:`TranslationService.lookup` (never loads the model)."""
        return self.service.lookup(requests)


def build_pipeline(
    spec: TranslatorSpec,
    site: SiteInputs = SiteInputs(),
    *,
    lazy: LazyTranslator | None = None,
    load: ModelLoader | None = None,
    english_fallback: bool = False,
    progress: Progress | None = None,
    runner: ChunkRunner | None = None,
) -> Pipeline:
    """The pipeline for ``spec`` over ``site``.

    The model is ``load(spec)``, by default ``lazy.get(spec)`` (a new
    :class:`~.lazy.LazyTranslator` unless one is given: the plugin keeps its own across
    ``mkdocs serve`` rebuilds), called only when a text misses the cache. ``english_fallback``:
    when it cannot be loaded, the misses come back English (counted, the reason in
    ``service.unavailable``) instead of failing. ``progress``: told of each finished chunk
    (None: nobody; a front end with a user picks :func:`~.progress.progress_for`'s reporter).
    ``runner``: where misses are translated when not in this process (``prefill``).

    Binding a :class:`~.cache.MachineCache` reads (and may record) the model's fingerprint in
    it; nothing else is opened or loaded."""
    lazy = lazy if lazy is not None else LazyTranslator()
    loader: ModelLoader = load if load is not None else lazy.get
    cache = site.cache
    if isinstance(cache, MachineCache):
        if spec is GIVEN_TRANSLATOR:
            raise ValueError("a translator handed over as an object takes a bound cache, not a MachineCache")
        cache = bind_cache(spec, cache)
    context = context_mode(spec)
    if context == OFF:
        announce_ignored(spec.context, spec.backend)
    service = TranslationService(
        lambda: loader(spec),
        cache=cache,
        glossary=site.glossary if site.glossary else None,  # an empty glossary changes no key
        english_fallback=english_fallback,
        progress=progress if progress is not None else NoProgress(),
        guard=site.guard,
        runner=runner,
        context=context != OFF,
    )
    return Pipeline(spec, service, lazy, site)


def variant_target(spec: TranslatorSpec, variant: Variant) -> str:
    """The ``target`` a variant made ``via`` the model asks for: the variant itself where the
    backend's model names variants (a decoder-only prompt: "Traditional Chinese as written in
    Taiwan"), else Traditional, whose regional words the variant's table then writes. A model
    that names variants but not this one is refused in one line (before any model is loaded)."""
    backend = BACKENDS.get(spec.backend)
    offered = backend.targets(spec) if backend is not None and backend.targets is not None else None
    if offered is None:
        return TRADITIONAL
    if variant.code not in offered:
        raise VariantError(
            f"variant {variant.code}: the model in {spec.model} cannot be asked for {variant.code} (its prompt "
            f"names {', '.join(sorted(offered)) or 'none'}); use `via: convert`, or export the model again"
        )
    return variant.code


def build_variant_pipeline(
    base: Pipeline, variant: Variant, *, own_reviews: Reviewer | None = None, terms: Mapping[str, str] | None = None,
    direct_lazies: dict[str, LazyTranslator] | None = None,
) -> Pipeline:
    """The pipeline of an extra Chinese ``variant`` (``variants.py``): ``base`` (the Simplified
    pipeline: its cache, model, glossary and page guard) with every machine text converted and
    stored under the variant's own fingerprint (the base's, plus how it converts: a warm
    rebuild converts nothing again), and reviews: the variant's own (``own_reviews``) over the
    Simplified ones converted. ``terms``: the variant's glossary terms (``variant_terms``).
    ``direct_lazies``: per target asked of the model (``via`` it: Traditional, or the variant
    itself where the model's prompt names it), where that model is loaded and kept (the plugin
    keeps them across ``mkdocs serve`` rebuilds, as it keeps the Simplified one); default new ones."""
    convert = Converter(variant.table, dict(terms or {}))
    service = base.service
    cache = service.cache
    direct = None
    if variant.via != "convert":  # the model asked for Traditional itself, keyed as such (`target`)
        if base.spec is GIVEN_TRANSLATOR:
            raise VariantError(f"variant {variant.code}: a translator handed over as an object has no `target`")
        machine = cache.machine if cache is not None else None
        target = variant_target(base.spec, variant)
        lazy = direct_lazies.setdefault(target, base.lazy.sibling()) if direct_lazies is not None else None
        direct = build_pipeline(
            base.spec.with_options(target=target), SiteInputs(cache=machine, glossary=base.site.glossary),
            lazy=lazy, english_fallback=service.english_fallback, progress=service.progress,
        ).service
    if cache is not None:
        via = "" if variant.via == "convert" else f":via-{variant.via}"
        how = f"|variant={variant.code}{via}:{convert.fingerprint()}"
        damaged = cache.damaged + how if cache.damaged else None
        cache = CacheBinding(cache.machine, cache.fingerprint + how, damaged=damaged)
    converting = ConvertingService(
        model=service.model,
        cache=cache,
        glossary=service.glossary,
        english_fallback=service.english_fallback,
        progress=service.progress,
        guard=service.guard,
        base=service,
        convert=convert,
        direct=direct,
        via=variant.via,
        context=service.context,
    )
    reviews = ConvertedReviewer(own_reviews, base.reviews, convert)
    site = SiteInputs(cache=cache, reviews=reviews, glossary=base.site.glossary, guard=base.site.guard)
    return Pipeline(base.spec, converting, base.lazy, site)
