"""What the plugin keeps across builds, what an English build collects, and the mode every hook
delegates to.

MkDocs keeps the plugin instance alive across ``mkdocs serve`` rebuilds (it defines
``on_startup``) and hands the same instance to every build of the process: the nested Chinese
build, mkdocs-static-i18n's language builds, the English build ``review sync`` runs. What the
instance keeps for all of them (the loaded model, the pipeline, memos of renders and templates)
is :class:`Kept`; what one build does in each hook is its :class:`Mode`, chosen once in
``on_config`` (``modes/__init__.py``), so no hook asks which build it is in.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils import meta as meta_util

from ...logs import PLUGIN_NAME, PREFIX
from ...owned import PathError, atomic_write
from ...pipeline.lazy import LazyTranslator
from ...pipeline.pages import PageJob, SiteTranslator, Stats
from ...pipeline.report import PageCounts, dumps, run_report
from .. import speedups, uistrings
from ..buildlog import WarningCount
from ..collect import Collector, EnglishBuild
from ..config import PluginConfig
from ..convertrender import ConvertedRenders
from ..docs_source import human_pages
from ..factory import SitePipeline
from ..hookmemo import HookMemo
from ..jinjacache import SharedBytecode
from ..overrides import translatable_site_name
from ..reload import RenderMemo
from ..reviewcapture import ReviewCapture
from ..sources import PageSources
from ..templates import Template, ThemeText
from ..themelisting import ThemeListing
from ..titles import MadeUpTitles, recover_front_matter

log = get_plugin_logger(PLUGIN_NAME)

_FRONT_MATTER_KEYS = ("title", "description")


class Options(Protocol):
    """The plugin instance as the modes see it: its options, which MkDocs replaces whenever it
    loads a config (the nested build's ``load_config`` too, which the nested build undoes)."""

    config: PluginConfig


@dataclass
class Kept:
    """What the plugin instance keeps across builds (and ``mkdocs serve`` reloads)."""

    instance: Options
    lazy: LazyTranslator
    pipeline: SitePipeline  # cache, reviewed layer, glossary, the site's Markdown: set up per build
    mode: Mode = field(init=False)  # the build running now (or the last one)
    stats: Stats | None = None
    command: str = "build"
    dirty: bool = False
    templates: SharedBytecode = field(default_factory=SharedBytecode)  # compiled theme templates
    renders: RenderMemo = field(default_factory=RenderMemo)  # the zh pages' Markdown renders
    converted: ConvertedRenders = field(default_factory=ConvertedRenders)  # lent to the variants' builds
    listing: ThemeListing = field(default_factory=ThemeListing)  # the theme's files, listed once per run
    hooks: dict[str, HookMemo] = field(default_factory=lambda: {lang: HookMemo() for lang in ("en", "zh")})
    warned_templates: set[Path] = field(default_factory=set)
    sources: PageSources = field(default_factory=PageSources)  # notebooks, includes, other plugins' pages
    theme_text: ThemeText = field(default_factory=ThemeText)  # the override templates' English
    english_warnings: WarningCount | None = None  # a strict English build's own warnings
    review: ReviewCapture | None = None  # ``review serve``'s build only (reviewcapture.py)

    def __post_init__(self) -> None:
        self.mode = Mode(self)

    @property
    def options(self) -> PluginConfig:
        return self.instance.config

    def reusing(self) -> bool:
        """Whether this build may reuse the previous build's work (reload.py, hookmemo.py)."""
        return self.command == "serve" and not self.dirty and speedups.enabled(self.options.speedups, "reload")

    def stop_counting(self) -> int:
        """The English build's warnings so far (0 when not counting); counting stops."""
        counter, self.english_warnings = self.english_warnings, None
        return counter.stop() if counter is not None else 0

    def site_translator(self) -> SiteTranslator:
        """The pipeline as this build configures it (cache, model, review, glossary)."""
        return self.pipeline.site_translator()

    def write_report(self, pages: dict[str, PageCounts], stats: Stats) -> None:
        """The build's JSON report (``pipeline.report``) at the `report` option's path. The
        default place, the cache directory, may be read-only (a restored CI cache): then no
        report, no failure. A path the user chose must be writable."""
        report = self.pipeline.report
        if report is None or self.review is not None:  # review serve's build is no build to report on
            return
        try:
            atomic_write(report, dumps(run_report("build", pages, stats.run_json())).encode("utf-8"), durable=False)
        except PathError as exc:
            if self.options.report is True:
                log.debug(f"no build report: {exc}")
                return
            raise PluginError(f"{PREFIX}option 'report': {exc}") from None


@dataclass
class EnglishText:
    """What an English build collects for translation: the pages, and the site's own text."""

    jobs: dict[str, PageJob] = field(default_factory=dict)
    metas: dict[str, dict[str, str]] = field(default_factory=dict)  # front matter to translate
    nav_titles: list[str] = field(default_factory=list)
    site_name: str = ""
    site_description: str | None = None
    copyright: str | None = None  # when it is plain text (translatable_copyright)
    copyright_html: Template | None = None  # when it is HTML: its text pieces (chrome.py)
    ui: list[uistrings.UiString] = field(default_factory=list)  # interface text written in mkdocs.yml
    titles: MadeUpTitles = field(default_factory=MadeUpTitles)  # made from file names (titles.py)
    theme_404: list[str] = field(default_factory=list)  # the theme's own 404 text (theme404.py)

    def site_strings(self, options: PluginConfig, theme_texts: list[str]) -> list[str]:
        """The site's strings to translate besides the pages, in the order the PO files list them."""
        strings = list(self.nav_titles)
        if options.translate_nav and translatable_site_name(self.site_name):
            strings.append(self.site_name)
        if self.site_description:
            strings.append(self.site_description)
        if self.copyright:
            strings.append(self.copyright)
        if self.copyright_html:
            strings.extend(piece.text for piece in self.copyright_html.pieces)
        strings.extend(item.text for item in self.ui)  # reviewed in site.po like the rest
        strings.extend(self.titles.strings())
        strings.extend(self.theme_404)
        strings.extend(theme_texts)  # and the override templates' text
        return strings


class Mode:
    """What a build does in each hook. This base passes everything through: the plugin before
    its first ``on_config``. Each hook takes MkDocs' arguments and returns what MkDocs expects."""

    def __init__(self, kept: Kept) -> None:
        self.kept = kept
        self.banners: dict[str, str] = {}  # src_uri -> banner, from on_page_content to on_page_context

    def next_build(self, config: MkDocsConfig, start: Callable[[MkDocsConfig], Mode]) -> Mode:
        """The mode of the build whose ``on_config`` runs now: a new one (``start``), unless
        this build runs inside the current one (the nested build, static-i18n's languages)."""
        return start(config)

    def configured(self, config: MkDocsConfig) -> None:
        """The mode's part of ``on_config`` after the site's own text is read."""

    def add_files(self, files: Files, config: MkDocsConfig) -> Files:
        return files

    def fill_files(self, files: Files, config: MkDocsConfig) -> Files:
        return files

    def on_serve(self, server: Any, config: MkDocsConfig) -> None:
        pass

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        return nav

    def notebook_in(self, page: Page) -> None:
        pass

    def pre_page(self, page: Page, config: MkDocsConfig, files: Files) -> None:
        pass

    def notebook_out(self, page: Page) -> None:
        pass

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return markdown

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return html

    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        return env

    def on_page_context(self, page: Page) -> None:
        # The banner is added here, after the search plugins indexed page.content: otherwise
        # every page would match the banner's words (机器翻译) in the zh search.
        banner = self.banners.pop(page.file.src_uri, "")
        if banner and page.content is not None:
            page.content = banner + page.content

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        return output

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        return output

    def on_post_build(self, config: MkDocsConfig) -> None:
        pass


# -- the English side, shared by the modes that collect ------------------------------------------


def warn_unused_excludes(files: Files, options: PluginConfig) -> None:
    pages = [f.src_uri for f in files.documentation_pages()]
    for pattern in options.exclude:
        if not any(fnmatch.fnmatchcase(uri, pattern) for uri in pages):
            log.warning(f"option 'exclude': {pattern!r} matches no page in docs_dir (typo?)")


def use_human_pages(files: Files, config: MkDocsConfig, language: str, *, zh: bool) -> tuple[Files, set[str]]:
    """Pages translated by hand, ``page.zh.md`` beside ``page.md`` as the i18n plugins name
    them, are not English pages: the English site leaves them out, and the Chinese site
    builds them as ``page.md`` (no machine translation, no banner). Returns the files and the
    English src_uris that have such a page."""
    human = human_pages(files, language)
    for file in human.values():
        files.remove(file)
    if not zh:
        return files, set(human)
    for uri, file in human.items():
        english = files.get_file_from_path(uri)
        if english is None:  # a Chinese-only page
            files.append(File.generated(config, uri, content=file.content_string))
        elif file.abs_src_path:  # read from page.zh.md (--dirty and error messages name it)
            english.abs_src_path = file.abs_src_path
        else:
            english.content_string = file.content_string
    return files, set(human)


def page_job(kept: Kept, page: Page, markdown: str, config: MkDocsConfig, *, name_problems: bool) -> PageJob | None:
    """The page's translation job, its included files expanded (sources.py); None for a page
    whose text no translation reaches (kept English, named in the build's warnings, or here
    with ``name_problems`` when no translation follows to name them)."""
    job = kept.sources.job(page, markdown, config, kept.pipeline.expand, _label(page), _front_matter_lines(page))
    if name_problems:
        for problem in kept.sources.problems.get(page.file.src_uri, []):
            log.warning(problem)
    return job


def collect_page(
    kept: Kept,
    text: EnglishText,
    page: Page,
    markdown: str,
    config: MkDocsConfig,
    human: set[str],
    *,
    name_problems: bool,
) -> str:
    """Record an English page's final Markdown (after macros and every other plugin) for translation."""
    markdown = recover_front_matter(markdown, page)
    key = page.file.src_uri
    if not kept.pipeline.excluded(key) and key not in human:
        job = page_job(kept, page, markdown, config, name_problems=name_problems)
        if job is not None:
            text.jobs[key] = job
        text.metas[key] = translatable_meta(page)
    return markdown


def hand_over(kept: Kept, text: EnglishText, config: MkDocsConfig, strings: list[str], collector: Collector) -> None:
    """Give the collected English build to ``collector`` (``review sync``, ``prefill``)."""
    assert kept.pipeline.review is not None
    base = kept.site_translator()
    variants = []
    for variant in kept.pipeline.variants():
        service = kept.pipeline.variant_translator(variant, base).service
        variants.append((variant.code, variant.table, getattr(service, "convert", str)))
    collector(
        EnglishBuild(
            Path(config.docs_dir),
            kept.pipeline.review.review_dir,
            text.jobs,
            strings,
            text.metas,
            base,
            site_name=config.site_name or "",
            po_width=kept.options.po_width,
            translation_memory=kept.options.translation_memory,
            variants=variants,
        )
    )


def walk(items: list[Any]) -> Iterator[Any]:
    for item in items:
        yield item
        if isinstance(item, Section):
            yield from walk(item.children)


def explicit_title(item: Any) -> str | None:
    """The title written in mkdocs.yml's nav (pages without one take it from their Markdown)."""
    if isinstance(item, Page):
        title = item.__dict__.get("title")
    else:
        title = getattr(item, "title", None)
    return title if isinstance(title, str) and title.strip() else None


def translatable_meta(page: Page) -> dict[str, str]:
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
