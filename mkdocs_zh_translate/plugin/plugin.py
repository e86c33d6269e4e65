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
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils import meta as meta_util

from ..logs import PLUGIN_NAME, PREFIX
from ..owned import PathError, atomic_write
from ..pipeline.backends import TranslatorSpec
from ..pipeline.lazy import LazyTranslator, TranslationFailed
from ..pipeline.pages import STRINGS_LABEL, PageJob, PageResult, SiteTranslator, Stats, plain_fallbacks, strict_failure
from ..pipeline.report import PageCounts, dumps, run_report
from ..plaintext import for_template
from . import chrome, coexist, editions, site, templates, theme404, uistrings, versions
from .backlinks import BacklinkLayout
from .buildlog import PREFIX as ZH_BUILD
from .buildlog import WarningCount, prefixed_warnings
from .collect import Collector, EnglishBuild
from .config import PluginConfig
from .docs_source import human_pages
from .factory import SitePipeline
from .hookmemo import HookMemo
from .jinjacache import SharedBytecode
from .overrides import apply_overrides, translatable_copyright, translatable_site_name
from .reload import RenderMemo
from .sources import PageSources
from .titles import HOME_ZH, MadeUpTitles, recover_front_matter

log = get_plugin_logger(PLUGIN_NAME)

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
    copyright: str | None = None  # when it is plain text (translatable_copyright)
    copyright_html: templates.Template | None = None  # when it is HTML: its text pieces (chrome.py)
    results: dict[str, PageResult] = field(default_factory=dict)
    strings: dict[str, str] = field(default_factory=dict)
    backlinks: BacklinkLayout = field(default_factory=BacklinkLayout)  # mkdocstrings' backlink trees
    ui: list[uistrings.UiString] = field(default_factory=list)  # interface text written in mkdocs.yml
    counts: dict[str, PageCounts] = field(default_factory=dict)  # per page, for the JSON report
    titles: MadeUpTitles = field(default_factory=MadeUpTitles)  # made from file names (titles.py)
    theme_404: list[str] = field(default_factory=list)  # the theme's own 404 text (theme404.py)


class ZhTranslatePlugin(BasePlugin[PluginConfig]):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    """Build a Simplified-Chinese copy of the site under ``site_dir/<language>/``."""

    def __init__(self) -> None:
        self.lazy = LazyTranslator()
        # cache, reviewed layer, glossary, the site's Markdown: set up per build in on_config
        self.pipeline = SitePipeline(self.lazy)
        self.stats: Stats | None = None
        self._command: str = "build"
        self._dirty = False
        self._zh = False
        self._build: _Build | None = None
        self._i18n: coexist.StaticI18nBridge | None = None  # beside mkdocs-static-i18n
        self._human: set[str] = set()  # English src_uris with a human `page.zh.md` (own zh site)
        self._banners: dict[str, str] = {}  # src_uri -> banner, from on_page_content to on_page_context
        self._templates = SharedBytecode()  # compiled theme templates, kept across builds
        self._renders = RenderMemo()  # the zh pages' Markdown renders, kept across serve reloads
        self._hooks = {lang: HookMemo() for lang in ("en", "zh")}  # other plugins' page hooks, ditto
        self._warned_templates: set[Path] = set()
        self._sources = PageSources()  # notebooks, includes, pages other plugins render
        self._theme_text = templates.ThemeText()  # the English of the site's override templates
        self._english_warnings: WarningCount | None = None  # a strict English build's own warnings
        # Set by `mkdocs-zh-translate review sync`: the English build hands its pages to this
        # callable and stops there (no translation, no Chinese build).
        self.collector: Collector | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup also makes MkDocs keep this instance (and its loaded model)
        # across `mkdocs serve` rebuilds.
        self._command, self._dirty = command, dirty

    def on_shutdown(self) -> None:
        self.pipeline.close()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if self._zh:
            return config
        i18n = coexist.find_static_i18n(config)
        if i18n is not None and self._i18n is not None and not self._i18n.is_default_build():
            if self._i18n.is_zh_build():  # the translated headings are pinned: `{ #slug }`
                self._i18n.add_attr_list(config)
            return config  # one of static-i18n's other language builds: same state
        spec = self.pipeline.configure(self.config, config)
        self.pipeline.english.clear()
        self._build = _Build(
            spec,
            site.Languages(self.config.language, config.site_url),
            site_name=config.site_name,
            site_description=config.site_description,
            copyright=config.copyright if translatable_copyright(config.copyright) else None,
            copyright_html=chrome.html_copyright(config.copyright),
        )
        self._sources.reset()
        if i18n is not None:
            self._i18n = coexist.StaticI18nBridge(i18n, self.config.language, self.config.overrides.values())
            self._i18n.prepare(config)
        else:
            self._i18n = None
            editions.set_alternates(config, self._build.langs)
            self._build.theme_404 = theme404.own_404_text(config)
        self._build.ui = uistrings.collect(config)
        self._theme_text.collect(config.theme.custom_dir)
        if self._i18n is None and self._reusing():
            self._hooks["en"].install(config)
        self._stop_counting()
        if config.strict:
            self._english_warnings = WarningCount().start()
        return config

    def _reusing(self) -> bool:
        """Whether this build may reuse the previous build's work (reload.py, hookmemo.py)."""
        return self._command == "serve" and not self._dirty

    def _stop_counting(self) -> int:
        """The English build's warnings so far (0 when not counting); counting stops."""
        counter, self._english_warnings = self._english_warnings, None
        return counter.stop() if counter is not None else 0

    def on_build_error(self, *, error: Exception) -> None:
        self._stop_counting()

    @event_priority(-50)  # before static-i18n's on_files (-100) sorts the files by language
    def _add_zh_files(self, files: Files, config: MkDocsConfig) -> Files | None:
        if not self._zh:
            self._warn_unused_excludes(files)
        if self._i18n is None:
            return self._use_human_pages(files, config)
        if self.collector is not None:
            return files
        added: Files = self._i18n.add_files(files, config, self)
        return added

    @event_priority(-110)  # after static-i18n re-created the files from docs_dir
    def _fill_zh_files(self, files: Files, config: MkDocsConfig) -> Files | None:
        if self._i18n is None or self.collector is not None:
            return files
        filled: Files = self._i18n.fill_files(files)
        return filled

    on_files = CombinedEvent(_add_zh_files, _fill_zh_files)

    def _use_human_pages(self, files: Files, config: MkDocsConfig) -> Files:
        """Pages translated by hand, ``page.zh.md`` beside ``page.md`` as the i18n plugins name
        them, are not English pages: the English site leaves them out, and the Chinese site
        builds them as ``page.md`` (no machine translation, no banner)."""
        human = human_pages(files, self.config.language)
        self._human = set(human)
        for file in human.values():
            files.remove(file)
        if not self._zh:
            return files
        for uri, file in human.items():
            english = files.get_file_from_path(uri)
            if english is None:  # a Chinese-only page
                files.append(File.generated(config, uri, content=file.content_string))
            elif file.abs_src_path:  # read from page.zh.md (--dirty and error messages name it)
                english.abs_src_path = file.abs_src_path
            else:
                english.content_string = file.content_string
        return files

    def _warn_unused_excludes(self, files: Files) -> None:
        pages = [f.src_uri for f in files.documentation_pages()]
        for pattern in self.config.exclude:
            if not any(fnmatch.fnmatchcase(uri, pattern) for uri in pages):
                log.warning(f"option 'exclude': {pattern!r} matches no page in docs_dir (typo?)")

    def on_serve(self, server: Any, config: MkDocsConfig, builder: Any) -> Any:
        # The PO files live outside docs_dir: watch them so a reviewer's edit shows up live.
        # Builds only read them (review sync writes, and only on change), so no reload loop.
        if self.pipeline.review is not None:
            watch_review_dir(server, self.pipeline.review.review_dir)
        if self._i18n is None:
            serve_zh_404(server, Path(config.site_dir), self.config.language)
        return server

    # -- collecting (English build) and applying (Chinese build) ---------------------------

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation | None:
        if not self.config.translate_nav or self._build is None or self._i18n is not None:
            return nav
        items = list(_walk(nav.items))
        if not self._zh:
            self._build.nav_titles = [t for item in items if (t := _explicit_title(item))]
            return nav
        for item in items:
            title = _explicit_title(item)
            if title:
                item.title = for_template(self._build.strings.get(title, title))
        return nav

    def _pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        if self._zh and self._reusing():  # see reload.py
            self._renders.attach(page, config, files)
        elif not self._zh and self._build is not None and self._i18n is None and self.collector is None:
            self.pipeline.english.attach(page)  # the guard's English renders (borrow.py)
        return page

    # A translated notebook is read by mkdocs-jupyter (its cache key, its render) and by no one
    # else: other plugins (git dates) see the notebook's own file (sources.py).
    @event_priority(100)
    def _notebook_in(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        if self._zh:
            self._sources.swap_in(page)
        return page

    @event_priority(-100)
    def _notebook_out(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        if self._zh:
            self._sources.swap_out(page)
        return page

    on_pre_page = CombinedEvent(_notebook_in, _pre_page, _notebook_out)

    @event_priority(-100)  # after macros and any other plugin that changes the Markdown
    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        build = self._build
        if build is None or (self._i18n is not None and (self.collector is None or not self._i18n.is_default_build())):
            return markdown  # beside static-i18n the zh pages arrive translated (on_files)
        markdown = recover_front_matter(markdown, page)
        key = page.file.src_uri
        if not self._zh:
            if not self._excluded(key) and key not in self._human:
                job = self._job(page, markdown, config)
                if job is not None:
                    build.jobs[key] = job
                build.metas[key] = _translatable_meta(page)
            return markdown
        if self._excluded(key) or key in self._human or self._sources.handled(key):
            return markdown
        result = build.results.get(key)
        if result is None:  # not seen by the English build (--dirty): translate it now
            job = self._job(page, markdown, config)
            if job is None:
                return markdown
            self._translate({key: job}, list(_translatable_meta(page).values()))
            result = build.results[key]
        for name, value in _translatable_meta(page).items():
            page.meta[name] = for_template(build.strings.get(value, value))
        return result.markdown

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        html = self._sources.content(page, html, zh=self._zh)  # a notebook's heading ids
        # The banner is added in on_page_context, after the search plugins indexed page.content:
        # otherwise every page would match the banner's words (机器翻译) in the zh search.
        banner = self._banner(page)
        if banner:
            self._banners[page.file.src_uri] = banner
            # MkDocs' implicit title of a homepage without nav title, meta title or H1 (after
            # render, before any template shows it in a nav).
            if page.is_homepage and "title" not in page.__dict__ and page.title == "Home":
                page.title = HOME_ZH
        if self._build is not None and self._i18n is None:
            if self._zh:
                self._build.titles.apply(page, self._build.strings)
            else:
                self._build.titles.collect(page)
        if isinstance(page.title, str) and (self._zh or self._generated_zh(page)):
            # A title taken from the translated H1 is escaped HTML, and themes pass it through
            # `striptags`, which unescapes it: `&lt;/title&gt;` would come back as a live tag.
            page.title = for_template(page.title)
        return html

    @event_priority(-90)  # after autorefs collected backlinks (-50), before mkdocstrings renders them (-100)
    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        # mkdocstrings lays out backlinks in an order that changes from process to process: the
        # zh build follows the English build's layout (see backlinks.py).
        if self._build is not None:  # both builds, and every serve reload, share compiled templates
            self._templates.install(env)
        mkdocstrings = config.plugins.get("mkdocstrings")
        if self._build is not None and self._i18n is None and mkdocstrings is not None:
            self._build.backlinks.install(mkdocstrings, zh=self._zh)
        if self._build is not None and self._i18n is None and site.is_material(config):
            current = "zh" if self._zh else site.SOURCE_LANG
            env.filters["url"] = site.language_url_filter(env.filters["url"], self._build.langs, current)
        return env

    @event_priority(-100)  # after the search plugins (priority 0) read page.content
    def on_page_context(self, context: Any, page: Page, config: MkDocsConfig, nav: Navigation) -> Any:
        banner = self._banners.pop(page.file.src_uri, "")
        if banner and page.content is not None:
            page.content = banner + page.content
        return context

    def _generated_zh(self, page: Page) -> bool:
        """Whether ``page`` is one of the translated pages handed to mkdocs-static-i18n."""
        return self._i18n is not None and self._i18n.is_zh_build() and page.file.src_uri in self._i18n.generated

    def _banner(self, page: Page) -> str:
        """The machine-translation notice for a zh page ("" for English pages)."""
        if self._generated_zh(page):
            assert self._i18n is not None
            segments, reviewed = self._i18n.counts(page.file.src_uri)
            return site.banner_html(
                self.config.banner, segments=segments, reviewed=reviewed, model=self._model_label(), translated=True
            )
        if not self._zh or self._build is None or page.file.src_uri in self._human:
            return ""
        result = self._build.results.get(page.file.src_uri)
        return site.banner_html(
            self.config.banner,
            segments=result.segments if result else 0,
            reviewed=result.reviewed if result else 0,
            model=self._model_label(),
            translated=bool(result and result.translated and result.segments),  # no text: nothing was translated
            machine=bool(result and result.machine),  # reviews and English only: no model to name
        )

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str | None:
        if self._build is None or self._i18n is not None:
            return output
        current = "zh" if self._zh else site.SOURCE_LANG
        hrefs = site.language_hrefs(self._build.langs, page.url, current)
        output = site.inject_language_links(output, config, hrefs, current)
        if not self._zh:
            return output
        output = versions.mike_selector(site.fix_html_lang(output), config, self._build.langs.prefix)
        return site.translate_material_text(output) if site.is_material(config) else output

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str | None:
        # 404.html and friends are not pages: their language links lead to each site's root
        # (site.LanguageLink). The root 404 page, which static hosts serve for every missing
        # path, sends the Chinese site's visitors on to its own 404 page.
        if self._build is None or self._i18n is not None:
            return output_content
        if self._zh:
            output_content = site.fix_404_links(site.fix_html_lang(output_content), template_name, self._build.langs)
            output_content = theme404.translate_404(
                output_content, template_name, self._build.theme_404, self._build.strings
            )
            if site.is_material(config):
                output_content = site.translate_material_text(output_content, template_name)
            return output_content
        return site.zh_404_redirect(output_content, template_name, self._build.langs)

    @event_priority(-100)  # last: the English site, its search index and sitemap are written
    def on_post_build(self, config: MkDocsConfig) -> None:
        build = self._build
        english_warnings = 0 if self._zh else self._stop_counting()
        if self._i18n is not None:
            self._i18n.remove_attr_list(config)  # added for the zh build only
        if build is None or (self._i18n is not None and self.collector is None):
            return  # static-i18n builds the zh site from the files added in on_files
        site_dir = Path(config.site_dir)
        if self._zh:
            for message in chrome.translate_scripts(config, site_dir):
                log.warning(message)
            site.segment_search_index(site_dir)
            site.add_sitemap_alternates(site_dir / "sitemap.xml", build.langs, "zh")
            return
        site_strings = list(build.nav_titles)
        if self.config.translate_nav and translatable_site_name(build.site_name):
            site_strings.append(build.site_name)
        if build.site_description:
            site_strings.append(build.site_description)
        if build.copyright:
            site_strings.append(build.copyright)
        if build.copyright_html:
            site_strings.extend(piece.text for piece in build.copyright_html.pieces)
        site_strings.extend(item.text for item in build.ui)  # reviewed in site.po like the rest
        site_strings.extend(build.titles.strings())
        site_strings.extend(build.theme_404)
        site_strings.extend(self._theme_text.texts)  # and the override templates' text
        if self.collector is not None:
            assert self.pipeline.review is not None
            self.collector(
                EnglishBuild(
                    Path(config.docs_dir),
                    self.pipeline.review.review_dir,
                    build.jobs,
                    site_strings,
                    build.metas,
                    self._site_translator(),
                    site_name=config.site_name or "",
                    po_width=self.config.po_width,
                    translation_memory=self.config.translation_memory,
                )
            )
            return
        strings = site_strings + [value for metas in build.metas.values() for value in metas.values()]
        self._translate(build.jobs, strings)
        self.pipeline.english.clear()  # lent to this pass only
        site.add_sitemap_alternates(site_dir / "sitemap.xml", build.langs, site.SOURCE_LANG)
        if english_warnings:  # MkDocs aborts this build next, with its own message
            log.info(f"Chinese site not built: the English build has {english_warnings} warning(s) in strict mode")
            return
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
            raise PluginError(f"{PREFIX}{exc}") from None
        self._sources.merge(results, jobs)
        build.results.update(results)
        build.strings.update(translated)
        build.counts.update(self._sources.kept_counts())
        for key, counts in stats.pages.items():  # a later pass (--dirty) adds its strings
            if key == STRINGS_LABEL and key in build.counts:
                build.counts[key].add(counts)
            else:
                build.counts[key] = counts
        self.stats = stats
        log.info(stats.summary())
        if stats.fallback_steps and not self.config.strict:
            log.info(f"{plain_fallbacks(stats.fallback_steps)} (`-v` lists where)")
        if stats.guard_renders or stats.guard_reused:
            log.info(
                f"page guard: {len(results)} pages, {stats.guard_renders} renders, "
                f"{stats.guard_reused} verdicts reused, "
                f"{1000 * stats.guard_seconds / max(len(results), 1):.1f} ms per page"
            )
        self._write_report(build.counts, stats)  # before a strict failure: CI reads why
        self._report_problems(results)

    def _write_report(self, pages: dict[str, PageCounts], stats: Stats) -> None:
        """The build's JSON report (``pipeline.report``) at the `report` option's path. The
        default place, the cache directory, may be read-only (a restored CI cache): then no
        report, no failure. A path the user chose must be writable."""
        report = self.pipeline.report
        if report is None:
            return
        try:
            atomic_write(report, dumps(run_report("build", pages, stats.run_json())).encode("utf-8"), durable=False)
        except PathError as exc:
            if self.config.report is True:
                log.debug(f"no build report: {exc}")
                return
            raise PluginError(f"{PREFIX}option 'report': {exc}") from None

    def _report_problems(self, results: dict[str, PageResult]) -> None:
        """Warnings and notes per page; under `strict`, errors and one failure line."""
        errors: list[str] = []
        for result in results.values():
            for message in result.warnings:
                (errors.append if self.config.strict else log.warning)(message)
            for message in result.english:
                (errors.append if self.config.strict else log.debug)(message)
            for message in result.fallbacks:
                log.debug(message)
        if errors:
            for message in errors:
                log.error(message)
            raise PluginError(f"{PREFIX}{strict_failure(len(errors))}")

    def _site_translator(self) -> SiteTranslator:
        """The pipeline as this build configures it (cache, model, review, glossary)."""
        return self.pipeline.site_translator()

    def _build_zh(self, config: MkDocsConfig, build: _Build) -> None:
        from mkdocs.commands.build import build as mkdocs_build

        zh_dir = Path(config.site_dir) / build.langs.prefix
        options = self.config
        self._zh = True
        try:
            overrides: dict[str, Any] = {
                "site_dir": str(zh_dir),
                "docs_dir": config.docs_dir,
                "strict": config.strict,
                "use_directory_urls": config.use_directory_urls,
            }
            zh_config = load_config(config_file=config.config_file_path, **overrides)
            if zh_config.theme.name != config.theme.name:  # `mkdocs build -t NAME`: the same theme
                zh_config = load_config(config_file=config.config_file_path, theme=config.theme.name, **overrides)
            # load_config handed us our own instance again (MkDocs caches instances that define
            # on_startup) with options re-read from mkdocs.yml: keep the ones this build runs with.
            self.config = options
            # Templates print these unescaped: untrusted text (PO, glossary, model) leaves as text.
            name = build.site_name
            site_name = for_template(build.strings.get(name, name) if translatable_site_name(name) else name)
            site.prepare_zh_config(zh_config, build.langs, site_name)
            site.unstemmed_material_search(zh_config)
            if build.site_description:
                zh_config.site_description = for_template(
                    build.strings.get(build.site_description, build.site_description)
                )
            if build.copyright:
                zh_config.copyright = for_template(build.strings.get(build.copyright, build.copyright))
            if build.copyright_html:
                zh_config.copyright = chrome.zh_copyright(build.copyright_html, build.strings) or zh_config.copyright
            uistrings.apply(zh_config, build.ui, build.strings)
            for name in uistrings.localize_dates(zh_config):
                log.debug(f"plugin {name!r}: locale {uistrings.ZH_LOCALE!r} in the Chinese site")
            apply_overrides(zh_config, self.config.overrides.values())
            self._sources.prepare_zh(zh_config, build.langs.prefix)
            for message in self._theme_text.english_left(self._warned_templates):  # once per file
                log.warning(message)
            self._theme_text.apply(zh_config.theme, build.strings)
            editions.set_alternates(zh_config, build.langs)
            serve_url = build.langs.zh_site_url() if self._command == "serve" else None
            log.info(f"building the Chinese site in {zh_dir}")
            self._renders.new_build()
            if self._reusing():
                self._hooks["zh"].install(zh_config)
            try:
                with prefixed_warnings():
                    mkdocs_build(zh_config, serve_url=serve_url, dirty=self._dirty)
            except Abort as exc:  # --strict: say that the Chinese build is the one that failed
                raise Abort(f"{ZH_BUILD}{exc.message}") from None
            if self._renders.reused:
                log.debug(f"{self._renders.reused} unchanged pages' renders reused, {self._renders.rendered} rendered")
            hooks = self._hooks["zh"]
            if hooks.reused:
                log.debug(f"{hooks.reused} page hooks of other plugins reused, {hooks.ran} run")
        finally:
            self._zh = False
            self._sources.finish()
            self._theme_text.finish()

    def _job(self, page: Page, markdown: str, config: MkDocsConfig) -> PageJob | None:
        """The page's translation job, its included files expanded (sources.py); None for a page
        whose text no translation reaches (kept English, named in the build's warnings)."""
        job = self._sources.job(page, markdown, config, self.pipeline.expand, _label(page), _front_matter_lines(page))
        if self.collector is not None:  # `review sync` stops before the translation names them
            for problem in self._sources.problems.get(page.file.src_uri, []):
                log.warning(problem)
        return job

    def _excluded(self, src_uri: str) -> bool:
        return self.pipeline.excluded(src_uri)

    def _model_label(self) -> str:
        return self.pipeline.model_label()


def watch_review_dir(server: Any, review_dir: Path) -> None:
    """Watch ``review_dir`` now, or as soon as it is created (the first `review sync` during
    `mkdocs serve`): until then only its nearest existing ancestor is watched, one level deep,
    so the cache directory beside mkdocs.yml never triggers a rebuild."""
    if review_dir.is_dir():
        server.watch(str(review_dir))
        return
    import watchdog.events

    watching: set[Path] = set()

    def appeared(event: Any) -> None:
        if review_dir.is_dir():
            if str(review_dir) not in getattr(server, "_watched_paths", {}):
                server.watch(str(review_dir))
                _request_rebuild(server)
            return
        follow()

    def follow() -> None:
        ancestor = review_dir.parent
        while not ancestor.is_dir() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if ancestor in watching:
            return
        watching.add(ancestor)
        handler = watchdog.events.FileSystemEventHandler()
        handler.on_created = appeared  # type: ignore[method-assign]
        handler.on_moved = appeared  # type: ignore[method-assign]
        server.observer.schedule(handler, str(ancestor), recursive=False)
        if review_dir.is_dir():  # created while the watch was being set up
            appeared(None)

    follow()


def serve_zh_404(server: Any, site_dir: Path, prefix: str) -> None:
    """Make `mkdocs serve` answer a missing page under ``/<prefix>/`` with the Chinese 404 page
    (its own error handler only knows ``site_dir/404.html``, the English one). The WSGI app is
    wrapped to remember each request's path for the error handler, which MkDocs calls with the
    status code only."""
    request = threading.local()
    app = server.get_app()

    def remember_path(environ: dict[str, Any], start_response: Any) -> Any:
        request.path = environ.get("PATH_INFO", "")
        return app(environ, start_response)

    english = server.error_handler
    zh_root = getattr(server, "mount_path", "/").rstrip("/") + f"/{prefix}/"

    def error_page(code: int) -> bytes | None:
        if code == 404 and str(getattr(request, "path", "")).startswith(zh_root):
            page = site_dir / prefix / "404.html"
            if page.is_file():
                return page.read_bytes()
        result: bytes | None = english(code)
        return result

    server.set_app(remember_path)
    server.error_handler = error_page


def _request_rebuild(server: Any) -> None:
    """Ask `mkdocs serve` for a rebuild, as its own file watcher does (PO files written with
    the new directory may have landed before the watch on it started)."""
    condition = getattr(server, "_rebuild_cond", None)
    if condition is None:
        return
    with condition:
        server._want_rebuild = True
        condition.notify_all()


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
    return _relative(page.file.abs_src_path or page.file.src_uri)


def _relative(path: str | Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


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
