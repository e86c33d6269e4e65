"""The ``zh-translate`` MkDocs plugin: event wiring only.

One ``mkdocs build`` runs two builds. The English one (MkDocs' own) collects every page's final
Markdown; at its very end (``on_post_build``, priority -100) the whole site is translated in one
deduplicated pass and a second, nested build of the same mkdocs.yml writes ``site/<language>/``.
MkDocs keeps plugin instances that define ``on_startup`` alive across builds and hands the same
instance to the nested build, so the instance knows which build it is in (``_zh``) and keeps the
translator loaded across ``mkdocs serve`` rebuilds.
"""

from __future__ import annotations

import fnmatch
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mkdocs.config import load_config
from mkdocs.config.base import ValidationError
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils import meta as meta_util

from . import site
from .pipeline.lazy import LazyTranslator, TranslationFailed
from .pipeline.pages import PageJob, PageResult, SiteTranslator, Stats
from .pipeline.spec import TranslatorSpec
from .config import PluginConfig, resolve_cache_dir, resolve_model, resolve_review_dir
from .memory import MachineCache, TranslationMemory
from .review.collect import Collector, EnglishBuild
from .review.glossary import GLOSSARY_FILE, Glossary, load_glossary
from .review.layer import ReviewedLayer
from .review.store import ReviewError, has_po_files

log = logging.getLogger("mkdocs.plugins.zh_translate")

_FRONT_MATTER_KEYS = ("title", "description")


@dataclass
class _Build:
    """What the English build hands to the Chinese one."""

    spec: TranslatorSpec
    langs: site.Languages
    jobs: dict[str, PageJob] = field(default_factory=dict)
    metas: dict[str, dict[str, str]] = field(default_factory=dict)  # front matter to translate
    nav_titles: list[str] = field(default_factory=list)
    site_name: str = ""
    site_description: str | None = None
    results: dict[str, PageResult] = field(default_factory=dict)
    strings: dict[str, str] = field(default_factory=dict)


class ZhTranslatePlugin(BasePlugin[PluginConfig]):
    """Build a Simplified-Chinese copy of the site under ``site_dir/<language>/``."""

    def __init__(self) -> None:
        self.lazy = LazyTranslator()
        self.stats: Stats | None = None
        self._command: str = "build"
        self._dirty = False
        self._zh = False
        self._build: _Build | None = None
        self._memory: TranslationMemory | None = None
        self._review: ReviewedLayer | None = None
        self._glossary: Glossary | None = None
        # Set by `mkdocs-zh-translate review sync`: the English build hands its pages to this
        # callable and stops there (no translation, no Chinese build).
        self.collector: Collector | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup also makes MkDocs keep this instance (and its loaded model)
        # across `mkdocs serve` rebuilds.
        self._command, self._dirty = command, dirty

    def on_shutdown(self) -> None:
        if self._memory is not None:
            self._memory.machine.close()
            self._memory = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if self._zh:
            return config
        site.quiet_jieba()
        try:
            cache_dir = resolve_cache_dir(self.config.cache_dir, config.config_file_path, config.docs_dir)
        except ValidationError as exc:
            raise PluginError(f"zh-translate: option 'cache_dir': {exc}") from None
        if self._memory is None or self._memory.machine.directory != cache_dir:
            if self._memory is not None:
                self._memory.machine.close()
            self._memory = TranslationMemory(MachineCache(cache_dir))
        try:
            review_dir = resolve_review_dir(
                self.config.review_dir, self.config.language, config.config_file_path, config.docs_dir
            )
        except ValidationError as exc:
            raise PluginError(f"zh-translate: option 'review_dir': {exc}") from None
        if self._review is None or self._review.review_dir != review_dir:
            self._review = ReviewedLayer(review_dir)
        try:
            self._glossary = load_glossary(review_dir / GLOSSARY_FILE)
        except ReviewError as exc:
            raise PluginError(f"zh-translate: {exc}") from None
        spec = TranslatorSpec(
            backend=self.config.backend,
            model=resolve_model(self.config.model, config.config_file_path),
            beams=self.config.beams,
            threads=self.config.threads,
            max_batch_tokens=self.config.max_batch_tokens,
            providers=tuple(self.config.providers) if self.config.providers else None,
        )
        self._build = _Build(
            spec,
            site.Languages(self.config.language, config.site_url),
            site_name=config.site_name,
            site_description=config.site_description,
        )
        site.set_alternates(config)
        return config

    def on_serve(self, server: Any, config: MkDocsConfig, builder: Any) -> Any:
        # The PO files live outside docs_dir: watch them so a reviewer's edit shows up live.
        # Builds only read them (review sync writes, and only on change), so no reload loop.
        if self._review is not None and self._review.review_dir.is_dir():
            server.watch(str(self._review.review_dir))
        return server

    # -- collecting (English build) and applying (Chinese build) ---------------------------

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation | None:
        if not self.config.translate_nav or self._build is None:
            return nav
        items = list(_walk(nav.items))
        if not self._zh:
            self._build.nav_titles = [t for item in items if (t := _explicit_title(item))]
            return nav
        for item in items:
            title = _explicit_title(item)
            if title:
                item.title = self._build.strings.get(title, title)
        return nav

    @event_priority(-100)  # after macros and any other plugin that changes the Markdown
    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        build = self._build
        if build is None:
            return markdown
        key = page.file.src_uri
        if not self._zh:
            if not self._excluded(key):
                build.jobs[key] = PageJob(key, _label(page), markdown, _front_matter_lines(page))
                build.metas[key] = _translatable_meta(page)
            return markdown
        if self._excluded(key):
            return markdown
        result = build.results.get(key)
        if result is None:  # not seen by the English build (--dirty): translate it now
            job = PageJob(key, _label(page), markdown, _front_matter_lines(page))
            self._translate({key: job}, list(_translatable_meta(page).values()))
            result = build.results[key]
        for name, value in _translatable_meta(page).items():
            page.meta[name] = build.strings.get(value, value)
        return result.markdown

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        if not self._zh or self._build is None:
            return html
        result = self._build.results.get(page.file.src_uri)
        banner = site.banner_html(
            self.config.banner,
            segments=result.segments if result else 0,
            reviewed=result.reviewed if result else 0,
            model=self._model_label(),
            translated=bool(result and result.translated),
        )
        return banner + html

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str | None:
        if self._build is None:
            return output
        current = "zh" if self._zh else site.SOURCE_LANG
        hrefs = site.language_hrefs(self._build.langs, page.url, current)
        output = site.inject_language_links(output, config, hrefs, current)
        return site.fix_html_lang(output) if self._zh else output

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str | None:
        # 404.html and friends are not pages: send their language links to each site's root.
        if self._build is None or not site.is_material(config):
            return output_content
        root = (self._build.langs.site_url or "/").rstrip("/") + "/"
        hrefs = {site.SOURCE_LANG: root, "zh": f"{root}{self._build.langs.prefix}/"}
        return site.fix_alternates(output_content, hrefs)

    @event_priority(-100)  # last: the English site, its search index and sitemap are written
    def on_post_build(self, config: MkDocsConfig) -> None:
        build = self._build
        if build is None:
            return
        site_dir = Path(config.site_dir)
        if self._zh:
            site.segment_search_index(site_dir)
            site.add_sitemap_alternates(site_dir / "sitemap.xml", build.langs, "zh")
            return
        site_strings = list(build.nav_titles)
        if self.config.translate_nav:
            site_strings.append(build.site_name)
        if build.site_description:
            site_strings.append(build.site_description)
        if self.collector is not None:
            assert self._review is not None
            self.collector(
                EnglishBuild(
                    Path(config.docs_dir),
                    self._review.review_dir,
                    build.jobs,
                    site_strings,
                    build.metas,
                    self._site_translator(),
                )
            )
            return
        strings = site_strings + [value for metas in build.metas.values() for value in metas.values()]
        self._translate(build.jobs, strings)
        site.add_sitemap_alternates(site_dir / "sitemap.xml", build.langs, site.SOURCE_LANG)
        self._build_zh(config, build)

    # -- helpers --------------------------------------------------------------------------

    def _translate(self, jobs: dict[str, PageJob], strings: list[str]) -> None:
        """Translate pages and strings in one pass; report problems; record the statistics."""
        build = self._build
        assert build is not None
        try:
            translator = self._site_translator()
            results, translated, stats = translator.translate_pages(list(jobs.values()), strings)
        except TranslationFailed as exc:
            raise PluginError(f"zh-translate: {exc}") from None
        build.results.update(results)
        build.strings.update(translated)
        self.stats = stats
        log.info(stats.summary())
        errors = []
        for result in results.values():
            for message in result.warnings:
                (errors.append if self.config.strict else log.warning)(message)
            for message in result.fallbacks:
                (errors.append if self.config.strict else log.debug)(message)
        if errors:
            for message in errors:
                log.error(message)
            raise PluginError(f"zh-translate: {len(errors)} translation problem(s) and `strict: true`")

    def _site_translator(self) -> SiteTranslator:
        """The pipeline as this build configures it (cache, model, review, glossary)."""
        build, memory, review = self._build, self._memory, self._review
        assert build is not None and memory is not None
        return SiteTranslator(
            memory,
            self.lazy,
            build.spec,
            reviewer=review,
            glossary=self._glossary,
            english_fallback=review is not None and has_po_files(review.review_dir),
        )

    def _build_zh(self, config: MkDocsConfig, build: _Build) -> None:
        from mkdocs.commands.build import build as mkdocs_build

        zh_dir = Path(config.site_dir) / build.langs.prefix
        options = self.config
        self._zh = True
        try:
            zh_config = load_config(
                config_file=config.config_file_path,
                site_dir=str(zh_dir),
                docs_dir=config.docs_dir,
                strict=config.strict,
                use_directory_urls=config.use_directory_urls,
            )
            # load_config handed us our own instance again (MkDocs caches instances that define
            # on_startup) with options re-read from mkdocs.yml: keep the ones this build runs with.
            self.config = options
            site.prepare_zh_config(zh_config, build.langs, build.strings.get(build.site_name, build.site_name))
            if build.site_description:
                zh_config.site_description = build.strings.get(build.site_description, build.site_description)
            site.set_alternates(zh_config)
            serve_url = build.langs.zh_site_url() if self._command == "serve" else None
            log.info(f"zh-translate: building the Chinese site in {zh_dir}")
            mkdocs_build(zh_config, serve_url=serve_url, dirty=self._dirty)
        finally:
            self._zh = False

    def _excluded(self, src_uri: str) -> bool:
        return any(fnmatch.fnmatchcase(src_uri, pattern) for pattern in self.config.exclude)

    def _model_label(self) -> str:
        if self.config.backend == "pseudo":
            return "pseudo 后端"
        return os.path.basename((self.config.model or "").rstrip("/")) or "model"


def _walk(items: list[Any]) -> Any:
    for item in items:
        yield item
        if isinstance(item, Section):
            yield from _walk(item.children)


def _explicit_title(item: Any) -> str | None:
    """The title written in mkdocs.yml's nav (pages without one take it from their Markdown)."""
    if isinstance(item, Page):
        title = item.__dict__.get("title")
    else:
        title = getattr(item, "title", None)
    return title if isinstance(title, str) and title.strip() else None


def _translatable_meta(page: Page) -> dict[str, str]:
    """Front-matter values shown to readers (MkDocs strips front matter before our event)."""
    return {k: v for k in _FRONT_MATTER_KEYS if isinstance(v := page.meta.get(k), str)}


def _label(page: Page) -> str:
    path = page.file.abs_src_path or page.file.src_uri
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def _front_matter_lines(page: Page) -> int:
    """How many lines of YAML front matter MkDocs cut off before on_page_markdown."""
    if not page.meta or not page.file.abs_src_path:
        return 0
    try:
        source = page.file.content_string
    except OSError:
        return 0
    body, _ = meta_util.get_data(source)
    return source.count("\n") - body.count("\n")
