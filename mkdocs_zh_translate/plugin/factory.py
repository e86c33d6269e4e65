"""The build's translation pipeline, made from a site's MkDocs config and the plugin's options.

The plugin's ``on_config`` sets it up for every build; the ``docs`` command (``docs_source``)
sets up the very same one from a loaded config without a plugin instance, so cache directory,
reviewed PO files, glossary, excludes, snippets and the page guard are exactly the build's.
This module imports neither ``plugin.py`` nor its helpers that read pages: they import it.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError

from ..logs import PREFIX
from ..notice import model_label
from ..owned import PathError
from ..pipeline.backends import TranslatorSpec
from ..pipeline.build import Pipeline, SiteInputs, build_pipeline, build_variant_pipeline, variant_target
from ..pipeline.cache import MachineCache
from ..pipeline.glossary import GLOSSARY_FILE, Glossary, load_glossary
from ..pipeline.guard import PageGuard
from ..pipeline.lazy import LazyTranslator
from ..pipeline.pages import SiteTranslator
from ..pipeline.progress import progress_for
from ..pipeline.service import GuardOutcome
from ..pipeline.variants import Variant, VariantError, parse_variants, variant_terms
from ..review.layer import ReviewedLayer
from ..review.store import ReviewError
from ..segment import SegmentedPage, SiteSyntax
from . import clickdocs, jiebaconf
from .borrow import EnglishRenders
from .config import DirOptionError, PluginConfig, language_collision, own_dirs, report_path
from .includes import IncludeExpander
from .mdconfig import heading_slugify, page_syntax
from .pins import PINS
from .snippets import SnippetExpander

if TYPE_CHECKING:
    from mkdocs.config.base import ConfigErrors
    from mkdocs.config.defaults import MkDocsConfig

PLUGIN_KEY = "zh-translate"  # the plugin's name in `plugins:` (pyproject's entry point)


def find_static_i18n(config: Any) -> Any | None:
    """The mkdocs-static-i18n plugin instance of ``config``, if the site uses it."""
    for plugin in config.plugins.values():
        if type(plugin).__module__.startswith("mkdocs_static_i18n"):
            return plugin
    return None


def listed_options(config: MkDocsConfig) -> PluginConfig | None:
    """The options of the site's own ``zh-translate`` entry in ``plugins:`` (None when not listed)."""
    options = getattr(config.plugins.get(PLUGIN_KEY), "config", None)
    return options if isinstance(options, PluginConfig) else None


def load_options(values: Mapping[str, Any], config_file_path: str | None) -> tuple[PluginConfig, ConfigErrors]:
    """The plugin's options from ``values`` as MkDocs loads them for a listed plugin, and their errors."""
    options = PluginConfig(config_file_path=config_file_path)
    options.load_dict(dict(values))
    errors, _warnings = options.validate()
    return options, errors


class SitePipeline:
    """The pieces of the build's pipeline: machine cache, reviewed layer, glossary, translator
    spec, the site's Markdown extensions (snippets, heading slugs, page guard), and the memos
    the :class:`~..pipeline.pages.SiteTranslator` keeps. One instance lives as long as the plugin
    instance (``mkdocs serve`` reuses it across rebuilds); :meth:`configure` runs per build."""

    def __init__(self, lazy: LazyTranslator | None = None) -> None:
        self.lazy = lazy if lazy is not None else LazyTranslator()
        self.variant_lazies: dict[str, LazyTranslator] = {}  # per target a variant asks ``via`` the model
        self._options: PluginConfig | None = None
        self.spec: TranslatorSpec | None = None
        self.machine: MachineCache | None = None
        self.review: ReviewedLayer | None = None
        self.glossary: Glossary | None = None
        self.report: Path | None = None  # where each build writes its JSON report (option `report`)
        self.markdown: tuple[list[Any], dict[str, Any]] = ([], {})  # the page guard's renderer
        self.snippets = SnippetExpander([], {})
        self.includes = IncludeExpander([], {})
        self.slugify: Any = None
        self.syntax: SiteSyntax | None = None
        self.segmented: dict[str, SegmentedPage] = {}  # SiteTranslator's memo, kept across serve reloads
        self.spliced: dict[str, tuple[str, GuardOutcome]] = {}  # the same for spliced pages
        self.variant_spliced: dict[str, dict[str, tuple[str, GuardOutcome]]] = {}  # per variant
        self.english = EnglishRenders()  # the English build's renders, lent to the page guard
        self.mark: Callable[[int, str], str] | None = None  # segment marks of ``review serve``'s build
        self.partial_reviews = False  # ``review serve``: later passes translate one page (layer.py)

    def configure(self, options: PluginConfig, config: MkDocsConfig) -> TranslatorSpec:
        """Set the pipeline up for ``config`` with ``options``, as the build does, and return its
        translator spec. A bad option or directory is a ``PluginError`` (one line). The machine
        cache and the reviewed layer are kept while their directories stay the same."""
        self._options = options
        i18n = find_static_i18n(config)
        # Beside static-i18n, site/zh/ is static-i18n's zh language: a docs_dir zh/ folder is
        # that language's own pages (folder structure), which win over machine translation.
        collision = None if i18n else language_collision(options.language, config.docs_dir, list(config.theme.dirs))
        if collision:
            raise PluginError(
                f"{PREFIX}option 'language': {options.language!r} would put the Chinese site in "
                f"site/{options.language}/, where the English site has its own files ({collision}); "
                "choose another language prefix, e.g. 'zh-hans'"
            )
        try:
            dirs = own_dirs(options, config.config_file_path, config.docs_dir, config.site_dir)
            self.report = report_path(
                options.report, config.config_file_path, config.docs_dir, dirs.cache_dir, dirs.review_dir
            )
        except (DirOptionError, PathError) as exc:
            raise PluginError(f"{PREFIX}{exc}") from None
        cache_dir, review_dir = dirs.cache_dir, dirs.review_dir
        jiebaconf.quiet_jieba(cache_dir)
        if self.machine is None or self.machine.directory != cache_dir:
            if self.machine is not None:
                self.machine.close()
            self.machine = MachineCache(cache_dir)
        if self.review is None or self.review.review_dir != review_dir:
            self.review = ReviewedLayer(review_dir)
        self.review.partial_passes = self.partial_reviews
        try:
            self.glossary = load_glossary(review_dir / GLOSSARY_FILE, review_dir)
        except ReviewError as exc:
            raise PluginError(f"{PREFIX}{exc}") from None
        self.spec = TranslatorSpec.of(options.spec_values(config.config_file_path))
        for variant in self.variants():  # a model asked for a variant it cannot name: now, not mid-build
            try:
                if variant.via != "convert":
                    variant_target(self.spec, variant)
            except VariantError as exc:
                raise PluginError(f"{PREFIX}option 'variants': {exc}") from None
        # The same list objects: plugins that add extensions after us (mkdocstrings) count too.
        self.markdown = (config.markdown_extensions, config.mdx_configs)
        self.snippets = SnippetExpander(config.markdown_extensions, config.mdx_configs)
        self.includes = IncludeExpander(config.markdown_extensions, config.mdx_configs)
        self.slugify = heading_slugify(config.mdx_configs)
        self.syntax = page_syntax(config.markdown_extensions, config.mdx_configs)
        return self.spec

    @property
    def options(self) -> PluginConfig:
        """The plugin's options this pipeline was configured with."""
        assert self._options is not None, "configure() first"
        return self._options

    def site_translator(self) -> SiteTranslator:
        """The pipeline as this build configures it (cache, model, review, glossary, guard)."""
        spec, machine = self.spec, self.machine
        assert spec is not None and machine is not None, "configure() first"
        site = SiteInputs(cache=machine, reviews=self.review, glossary=self.glossary, guard=self.page_guard())
        # english_fallback: the translator counts what no model can translate, then refuses it
        # unless allow_untranslated
        pipeline = build_pipeline(spec, site, lazy=self.lazy, english_fallback=True, progress=progress_for(None))
        return self._site_translator(pipeline, self.spliced, mark=self.mark)

    def variants(self) -> list[Variant]:
        """The extra Chinese variants the options ask for (Simplified, always built, left out)."""
        return parse_variants(self.options.variants)  # checked when the options were validated

    def variant_translator(self, variant: Variant, base: SiteTranslator) -> SiteTranslator:
        """The pipeline of ``variant`` (pipeline/variants.py): ``base``'s cache, model and page
        guard, the variant's own reviews and glossary terms from ``translations/<code>/``
        (beside the Simplified review directory), its own memo of spliced pages."""
        assert self.review is not None, "configure() first"
        own_dir = self.review.review_dir.parent / variant.code
        if own_dir == self.review.review_dir:
            raise PluginError(f"{PREFIX}option 'variants': {variant.code} would share the review directory {own_dir}")
        try:
            own_glossary = load_glossary(own_dir / GLOSSARY_FILE, own_dir)
        except ReviewError as exc:
            raise PluginError(f"{PREFIX}{exc}") from None
        terms = variant_terms(self.glossary, own_glossary)
        pipeline = build_variant_pipeline(base.pipeline, variant, own_reviews=ReviewedLayer(own_dir), terms=terms,
                                          direct_lazies=self.variant_lazies)
        return self._site_translator(pipeline, self.variant_spliced.setdefault(variant.code, {}))

    def _site_translator(self, pipeline: Pipeline, spliced: dict[str, tuple[str, GuardOutcome]],
                         mark: Callable[[int, str], str] | None = None) -> SiteTranslator:
        """A site translator over ``pipeline`` with this build's options, slugs, Markdown syntax and
        segmentation memo; ``spliced``: its own memo of spliced pages (each site has one)."""
        return SiteTranslator(pipeline, allow_untranslated=self.options.allow_untranslated, slugify=self.slugify,
                              syntax=self.syntax, segmented=self.segmented, spliced=spliced, mark=mark)

    def page_guard(self) -> PageGuard | None:
        """A page guard rendering with the site's own Markdown extensions (or None when off)."""
        if not self.options.guard:
            return None
        from ..pipeline.guard import autodoc_stub, extensions_fingerprint, python_markdown_renderer

        extensions, configs = self.markdown
        # mkdocstrings' own extension is slow and has side effects: a stub matching the same
        # `::: identifier` blocks stands in for it (see autodoc_stub).
        used = [autodoc_stub() if type(e).__name__ == "MkdocstringsExtension" else e for e in extensions]
        # The zh build reads the heading pins (site.prepare_zh_config): so does the guard.
        extra = [] if "attr_list" in extensions or PINS in extensions else [PINS]
        render = python_markdown_renderer([*used, *extra], configs)
        # Verdicts live in the machine cache: a cached rebuild or a serve reload renders only
        # the pages (or translations) that changed.
        verdicts = self.machine
        fingerprint = extensions_fingerprint([*used, *extra], configs)
        # The English build's renders stand for the guard's when it renders as the site does
        # (borrow.py): no stub, and no heading-pins reader unless attr_list runs before it.
        lend = used == list(extensions) and (not extra or any(_is_attr_list(e) for e in extensions))
        english = self.english.lent(extensions_fingerprint(list(extensions), configs)) if lend else None
        return PageGuard(render, verdicts=verdicts, fingerprint=fingerprint, english=english)

    def expand(self, markdown: str) -> tuple[str, list[str]]:
        """The page as the translator should see it: the text of other files it includes put in
        (mkdocs-click's ``::: mkdocs-click`` references, markdown-include's ``{!file!}``, then
        pymdownx.snippets' ``--8<--``, in Python-Markdown's order), and why any included text stays
        English (one reason each, without the page's name)."""
        problems: list[str] = []
        markdown, error = clickdocs.expand(markdown, self.markdown[0])  # its preprocessor runs first
        if error:
            problems.append(f"::: mkdocs-click not included, kept in English: {error}")
        expanded, error = self.includes.expand(markdown)
        if error:
            problems.append(f"included files not included, kept in English: {error}")
        for name in self.includes.unknown(expanded):
            problems.append(f"text included by {name} is not translated (kept in English)")
        expanded, error = self.snippets.expand(expanded)
        if error:
            problems.append(f"snippets not included, kept in English: {error}")
        return expanded, problems

    def included_files(self) -> list[Path]:
        """The files outside the pages that :meth:`expand` included since :meth:`configure`
        (snippets and markdown-include files, absolute): their text reaches the Chinese site."""
        return sorted(Path(p) for p in self.snippets.read | self.includes.read)

    def excluded(self, src_uri: str) -> bool:
        """Whether the option ``exclude`` keeps this page English."""
        return any(fnmatch.fnmatchcase(src_uri, pattern) for pattern in self.options.exclude)

    def model_label(self) -> str:
        """The translator as the pages' banner names it."""
        return model_label(self.options["backend"], self.options["model"])

    def close(self) -> None:
        """Close the machine cache (the plugin's ``on_shutdown``)."""
        if self.machine is not None:
            self.machine.close()
            self.machine = None


def _is_attr_list(extension: Any) -> bool:
    """Whether a ``markdown_extensions`` entry is Python-Markdown's attr_list, however spelt."""
    name = extension if isinstance(extension, str) else type(extension).__module__
    return name == "attr_list" or name.split(":")[0] == "markdown.extensions.attr_list"
