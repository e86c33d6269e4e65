"""The site's own Chinese edition: the English build collects, translates, and builds ``site/zh/``.

The English build (MkDocs' own, :class:`EnglishSite`) collects every page's final Markdown; at its
very end (``on_post_build``, priority -100) the whole site is translated in one deduplicated pass
and a second, nested build of the same mkdocs.yml writes ``site/<language>/``. MkDocs hands that
build the same plugin instance: while it runs, the plugin's mode is :class:`ChineseSite`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from ...logs import PREFIX
from ...pipeline.cache import MachineCache
from ...pipeline.lazy import TranslationFailed
from ...pipeline.pages import STRINGS_LABEL, PageJob, PageResult, SiteTranslator, plain_fallbacks, strict_failure
from ...pipeline.report import PageCounts
from ...pipeline.variants import Variant
from ...plaintext import for_template
from .. import chrome, editions, site, speedups, theme404, uistrings, versions
from ..backlinks import BacklinkLayout
from ..buildlog import PREFIX as ZH_BUILD
from ..buildlog import prefixed_warnings
from ..hookmemo import HOOKS_META, HookMemo
from ..overrides import apply_overrides, translatable_site_name
from ..reviewcapture import ReviewCapture
from ..serving import serve_zh_404
from ..titles import HOME_ZH, recover_front_matter
from .base import (
    EnglishText,
    Kept,
    Mode,
    collect_page,
    explicit_title,
    log,
    page_job,
    translatable_meta,
    use_human_pages,
    walk,
    warn_unused_excludes,
)


@dataclass
class Translated:
    """The site's translation, made at the end of the English build, read by the Chinese one."""

    results: dict[str, PageResult] = field(default_factory=dict)
    strings: dict[str, str] = field(default_factory=dict)
    counts: dict[str, PageCounts] = field(default_factory=dict)  # per page, for the JSON report
    label: str = "zh"  # the variant it is in (its code), for the log


class EnglishSite(Mode):
    """The English build of a site whose Chinese edition the plugin builds itself."""

    #: The nested build of an extra variant (zh-TW …), which translates before it builds:
    #: ``modes/variant.py``'s, set by ``modes/__init__.py`` (variant.py builds on this module).
    make_variant: Callable[[EnglishSite, Variant], ChineseSite]

    def __init__(self, kept: Kept, config: MkDocsConfig, langs: site.Languages, text: EnglishText) -> None:
        super().__init__(kept)
        self.langs = langs
        self.text = text
        self.human: set[str] = set()  # English src_uris with a human `page.zh.md`
        self.backlinks = BacklinkLayout()  # mkdocstrings' backlink trees, followed by the zh build
        self.done = Translated()
        editions.set_alternates(config, langs)
        text.theme_404 = theme404.own_404_text(config)

    def configured(self, config: MkDocsConfig) -> None:
        if self.kept.reusing():
            self.kept.hooks["en"].install(config)

    def add_files(self, files: Files, config: MkDocsConfig) -> Files:
        warn_unused_excludes(files, self.kept.options)
        files, self.human = use_human_pages(files, config, self.kept.options.language, zh=False)
        return files

    def on_serve(self, server: Any, config: MkDocsConfig) -> None:
        serve_zh_404(server, Path(config.site_dir), self.kept.options.language)
        for code, _label in self.langs.variants:  # each variant's missing pages: its own 404 page
            serve_zh_404(server, Path(config.site_dir), code)

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        if self.kept.options.translate_nav:
            self.text.nav_titles = [t for item in walk(nav.items) if (t := explicit_title(item))]
        return nav

    def pre_page(self, page: Page, config: MkDocsConfig, files: Files) -> None:
        if speedups.enabled(self.kept.options.speedups, "borrow"):
            self.kept.pipeline.english.attach(page)  # the guard's English renders (borrow.py)

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return collect_page(self.kept, self.text, page, markdown, config, self.human, name_problems=False)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        html = self.kept.sources.content(page, html, zh=False)
        self.text.titles.collect(page)
        return html

    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        return with_site_env(self.kept, env, config, self.backlinks, self.langs, zh=False)

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        hrefs = site.language_hrefs(self.langs, page.url, site.SOURCE_LANG)
        return site.inject_language_links(output, config, hrefs, site.SOURCE_LANG)

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        # The root 404 page, which static hosts serve for every missing path, sends the
        # Chinese site's visitors on to its own 404 page.
        return site.zh_404_redirect(output, template_name, self.langs)

    def on_post_build(self, config: MkDocsConfig) -> None:
        english_warnings = self.kept.stop_counting()
        self.finish(config, self.text.site_strings(self.kept.options, self.kept.theme_text.texts), english_warnings)

    def finish(self, config: MkDocsConfig, site_strings: list[str], english_warnings: int) -> None:
        """Translate the site in one pass and build the Chinese edition."""
        strings = site_strings + [value for metas in self.text.metas.values() for value in metas.values()]
        translate(self.kept, self.done, self.text.jobs, strings)
        variants = [self.make_variant(self, variant) for variant in self.kept.pipeline.variants()]
        for edition in variants:
            edition.translate(strings)
        self.kept.pipeline.english.clear()  # lent to these passes only
        site.add_sitemap_alternates(Path(config.site_dir) / "sitemap.xml", self.langs, site.SOURCE_LANG)
        if english_warnings:  # MkDocs aborts this build next, with its own message
            log.info(f"Chinese site not built: the English build has {english_warnings} warning(s) in strict mode")
            return
        self.kept.converted.renders.clear()
        self.kept.listing.clear()
        ChineseSite(self).build(config)
        for edition in variants:
            edition.build(config)


class ChineseSite(Mode):
    """The nested build of the Chinese edition (``site/<language>/``)."""

    def __init__(self, english: EnglishSite) -> None:
        super().__init__(english.kept)
        self.english = english
        self.langs = english.langs
        self.text = english.text
        self.done = english.done
        self.human: set[str] = set()
        self.code = "zh"  # the site's language code in links (a variant's is its own: variant.py)
        # the Simplified renders kept for the variants to convert (convertrender.py)
        self.keep_renders = bool(english.langs.variants) and speedups.enabled(
            self.kept.options.speedups, "convertrender"
        )
        self.lists_theme = bool(english.langs.variants) and speedups.enabled(
            self.kept.options.speedups, "themelisting"
        )  # themelisting.py

    @property
    def review(self) -> ReviewCapture | None:
        """``review serve``'s capture, for the Simplified site only (it reviews translations/zh/)."""
        return self.kept.review if self.code == "zh" else None

    def shape(self, config: MkDocsConfig) -> None:
        """What the variant builds (variant.py) change in the Chinese site's config."""

    def next_build(self, config: MkDocsConfig, start: Any) -> Mode:
        return self  # the nested build's own on_config: the English build set it up

    def build(self, config: MkDocsConfig) -> None:
        """Run the nested build of the Chinese site into ``site_dir/<language>/``."""
        from mkdocs.commands.build import build as mkdocs_build

        kept, text, strings = self.kept, self.text, self.done.strings
        zh_dir = Path(config.site_dir) / self.langs.dir(self.code)
        options = kept.options
        kept.mode = self
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
            kept.instance.config = options
            # Templates print these unescaped: untrusted text (PO, glossary, model) leaves as text.
            name = text.site_name
            site_name = for_template(strings.get(name, name) if translatable_site_name(name) else name)
            site.prepare_zh_config(zh_config, self.langs, site_name)
            self.shape(zh_config)
            if self.lists_theme:  # the Simplified build lists the theme's files, the variants take that
                kept.listing.install(zh_config, reuse=self.code != "zh")
            site.unstemmed_material_search(zh_config)
            if text.site_description:
                zh_config.site_description = for_template(strings.get(text.site_description, text.site_description))
            if text.copyright:
                zh_config.copyright = for_template(strings.get(text.copyright, text.copyright))
            if text.copyright_html:
                zh_config.copyright = chrome.zh_copyright(text.copyright_html, strings) or zh_config.copyright
            uistrings.apply(zh_config, text.ui, strings)
            for name in uistrings.localize_dates(zh_config):
                log.debug(f"plugin {name!r}: locale {uistrings.ZH_LOCALE!r} in the Chinese site")
            apply_overrides(zh_config, options.overrides.values())
            kept.sources.prepare_zh(zh_config, self.langs.dir(self.code), None if self.code == "zh" else self.code)
            for message in kept.theme_text.english_left(kept.warned_templates):  # once per file
                log.warning(message)
            kept.theme_text.apply(zh_config.theme, strings)
            editions.set_alternates(zh_config, self.langs)
            serve_url = self.langs.zh_site_url(self.code) if kept.command == "serve" else None
            log.info(f"building the Chinese site in {zh_dir}")
            kept.renders.new_build()
            if self.review is not None:
                self.review.started(zh_config, self)
            hooks = kept.hooks.setdefault(self.code, HookMemo())
            stored = self.stored_hooks()
            if kept.reusing() or stored:
                hooks.install(zh_config)
            if stored:
                hooks.restore(stored.get_meta(f"{HOOKS_META}{self.code}"))
            try:
                with prefixed_warnings():
                    mkdocs_build(zh_config, serve_url=serve_url, dirty=kept.dirty)
            except Abort as exc:  # --strict: say that the Chinese build is the one that failed
                raise Abort(f"{ZH_BUILD}{exc.message}") from None
            if stored and (results := hooks.dump()) is not None:
                stored.set_meta(f"{HOOKS_META}{self.code}", results)
            if kept.renders.reused:
                log.debug(f"{kept.renders.reused} unchanged pages' renders reused, {kept.renders.rendered} rendered")
            if hooks.reused:
                log.debug(f"{hooks.reused} page hooks of other plugins reused, {hooks.ran} run")
        finally:
            kept.mode = self.english
            kept.sources.finish()
            kept.theme_text.finish()

    def stored_hooks(self) -> MachineCache | None:
        """Where this site's build keeps other plugins' page-hook results between processes
        (hookmemo.py), or None: only a variant's site does (variant.py)."""
        return None

    def add_files(self, files: Files, config: MkDocsConfig) -> Files:
        files, self.human = use_human_pages(files, config, self.kept.options.language, zh=True)
        return files

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        if self.kept.options.translate_nav:
            for item in walk(nav.items):
                title = explicit_title(item)
                if title:
                    item.title = for_template(self.done.strings.get(title, title))
        if self.review is not None:
            self.review.navigation(nav, files)
        return nav

    def notebook_in(self, page: Page) -> None:
        # A translated notebook is read by mkdocs-jupyter (its cache key, its render) and by no
        # one else: other plugins (git dates) see the notebook's own file (sources.py).
        self.kept.sources.swap_in(page)

    def pre_page(self, page: Page, config: MkDocsConfig, files: Files) -> None:
        if self.kept.reusing():  # see reload.py
            self.kept.renders.attach(page, config, files)
        if self.keep_renders and not self.kept.sources.handled(page.file.src_uri):
            self.kept.converted.keep(page)  # for the variants' builds (convertrender.py)

    def notebook_out(self, page: Page) -> None:
        self.kept.sources.swap_out(page)

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        kept, done = self.kept, self.done
        markdown = recover_front_matter(markdown, page)
        key = page.file.src_uri
        if kept.pipeline.excluded(key) or key in self.human or kept.sources.handled(key):
            return markdown
        result = done.results.get(key)
        if result is None:  # not seen by the English build (--dirty): translate it now
            job = page_job(kept, page, markdown, config, name_problems=False)
            if job is None:
                return markdown
            self.translate_more({key: job}, list(translatable_meta(page).values()))
            result = done.results[key]
        for name, value in translatable_meta(page).items():
            page.meta[name] = for_template(done.strings.get(value, value))
        return result.markdown

    def translate(self, strings: list[str]) -> None:
        """The variants' own pass (variant.py); the Simplified text is the English build's."""

    def translate_more(self, jobs: dict[str, PageJob], strings: list[str]) -> None:
        """Translate pages the English build did not see (``--dirty``) into this site's text."""
        translate(self.kept, self.done, jobs, strings)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        html = self.kept.sources.content(page, html, zh=True)  # a notebook's heading ids
        if self.review is not None:
            html = self.review.content(html)
        banner = self._banner(page)
        if banner:
            self.banners[page.file.src_uri] = banner
            # MkDocs' implicit title of a homepage without nav title, meta title or H1 (after
            # render, before any template shows it in a nav).
            if page.is_homepage and "title" not in page.__dict__ and page.title == "Home":
                page.title = self.own_text(HOME_ZH)
        self.text.titles.apply(page, self.done.strings)
        if isinstance(page.title, str):
            # A title taken from the translated H1 is escaped HTML, and themes pass it through
            # `striptags`, which unescapes it: `&lt;/title&gt;` would come back as a live tag.
            page.title = for_template(page.title)
        return html

    def _banner(self, page: Page) -> str:
        """The machine-translation notice for a zh page ("" for a page translated by hand)."""
        if page.file.src_uri in self.human:
            return ""
        result = self.done.results.get(page.file.src_uri)
        return self.own_text(site.banner_html(
            self.kept.options.banner,
            segments=result.segments if result else 0,
            reviewed=result.reviewed if result else 0,
            model=self.kept.pipeline.model_label(),
            translated=bool(result and result.translated and result.segments),  # no text: nothing was translated
            machine=bool(result and result.machine),  # reviews and English only: no model to name
        ))

    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        env = with_site_env(self.kept, env, config, self.english.backlinks, self.langs, zh=True, current=self.code)
        if self.review is not None:
            self.review.environment(env)
        return env

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        hrefs = site.language_hrefs(self.langs, page.url, self.code)
        output = site.inject_language_links(output, config, hrefs, self.code)
        output = versions.mike_selector(site.fix_html_lang(output), config, self.langs.dir(self.code))
        return site.translate_material_text(output, convert=self.own_text) if site.is_material(config) else output

    def own_text(self, html: str) -> str:
        """The plugin's own Chinese words (banner, Material's footer; Simplified here, a variant
        converts them): never a page, whose code must stay as written."""
        return html

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        # 404.html and friends are not pages: their language links lead to each site's root
        # (site.LanguageLink).
        output = site.fix_404_links(site.fix_html_lang(output), template_name, self.langs)
        output = theme404.translate_404(output, template_name, self.text.theme_404, self.done.strings)
        if site.is_material(config):
            output = site.translate_material_text(output, template_name, convert=self.own_text)
        return output

    def on_post_build(self, config: MkDocsConfig) -> None:
        site_dir = Path(config.site_dir)
        for message in chrome.translate_scripts(config, site_dir):
            log.warning(message)
        site.segment_search_index(site_dir)
        site.add_sitemap_alternates(site_dir / "sitemap.xml", self.langs, self.code)


def with_site_env(
    kept: Kept, env: Any, config: MkDocsConfig, backlinks: BacklinkLayout, langs: site.Languages, *, zh: bool,
    current: str = "zh",
) -> Any:
    """The Jinja environment of one of the two builds: shared compiled templates, mkdocstrings'
    backlinks laid out as in the English build (backlinks.py), Material's language-aware ``url``."""
    if speedups.enabled(kept.options.speedups, "jinjacache"):
        kept.templates.install(env)  # both builds, and every serve reload, share compiled templates
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is not None:
        backlinks.install(mkdocstrings, zh=zh)
    if site.is_material(config):
        env.filters["url"] = site.language_url_filter(env.filters["url"], langs, current if zh else site.SOURCE_LANG)
    return env


def translate(
    kept: Kept, done: Translated, jobs: dict[str, PageJob], strings: list[str], translator: SiteTranslator | None = None
) -> None:
    """Translate pages and strings in one pass; report problems; record the statistics.
    ``translator``: a variant's (modes/variant.py), whose pass neither writes the build's report
    nor replaces its statistics; default the build's own."""
    options = kept.options
    variant = translator is not None
    try:
        translator = translator or kept.site_translator()
        results, translated, stats = translator.translate_pages(list(jobs.values()), strings)
    except TranslationFailed as exc:
        raise PluginError(f"{PREFIX}{exc}") from None
    if not variant:  # notebooks and other plugins' pages: the Simplified build's (sources.py)
        kept.sources.merge(results, jobs)
    else:  # the variant's own notebooks
        kept.sources.merge_variant(done.label, results, jobs)
    done.results.update(results)
    done.strings.update(translated)
    done.counts.update(kept.sources.kept_counts())
    for key, counts in stats.pages.items():  # a later pass (--dirty) adds its strings
        if key == STRINGS_LABEL and key in done.counts:
            done.counts[key].add(counts)
        else:
            done.counts[key] = counts
    if variant:
        log.info(f"{done.label}: {stats.summary()}")
        _report_problems(results, strict=options.strict)
        return
    kept.stats = stats
    log.info(stats.summary())
    if stats.fallback_steps and not options.strict:
        log.info(f"{plain_fallbacks(stats.fallback_steps)} (`-v` lists where)")
    if stats.guard_renders or stats.guard_reused:
        log.info(
            f"page guard: {len(results)} pages, {stats.guard_renders} renders, "
            f"{stats.guard_reused} verdicts reused, "
            f"{1000 * stats.guard_seconds / max(len(results), 1):.1f} ms per page"
        )
    kept.write_report(done.counts, stats)  # before a strict failure: CI reads why
    _report_problems(results, strict=options.strict)


def _report_problems(results: dict[str, PageResult], *, strict: bool) -> None:
    """Warnings and notes per page; under `strict`, errors and one failure line."""
    errors: list[str] = []
    for result in results.values():
        for message in result.warnings:
            (errors.append if strict else log.warning)(message)
        for message in result.english:
            (errors.append if strict else log.debug)(message)
        for message in result.fallbacks:
            log.debug(message)
    if errors:
        for message in errors:
            log.error(message)
        raise PluginError(f"{PREFIX}{strict_failure(len(errors))}")
