"""The ``zh-translate`` MkDocs plugin: event wiring only.

One ``mkdocs build`` runs two builds. The English one (MkDocs' own) collects every page's final
Markdown; at its very end (``on_post_build``, priority -100) the whole site is translated in one
deduplicated pass and a second, nested build of the same mkdocs.yml writes ``site/<language>/``.
MkDocs keeps plugin instances that define ``on_startup`` alive across builds and hands the same
instance to the nested build, and keeps the translator loaded across ``mkdocs serve`` rebuilds.

What a build does in each hook is its mode (modes/): the site's English build and its nested
Chinese build, the builds beside mkdocs-static-i18n, or the English build a command runs to
collect the pages. ``on_config`` chooses it once; every hook here only hands over to it, with the
event priorities (and the order of the combined events) that the hooks need.
"""

from __future__ import annotations

from typing import Any, Literal

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from ..logs import PLUGIN_NAME
from ..pipeline.lazy import LazyTranslator
from ..pipeline.pages import Stats
from . import modes
from .collect import Collector
from .config import PluginConfig
from .factory import SitePipeline
from .reviewcapture import ReviewCapture
from .serving import watch_review_dir as watch_review_dir  # re-exported: its tests name it here

log = get_plugin_logger(PLUGIN_NAME)


class ZhTranslatePlugin(BasePlugin[PluginConfig]):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    """Build a Simplified-Chinese copy of the site under ``site_dir/<language>/``."""

    def __init__(self) -> None:
        self.lazy = LazyTranslator()
        # cache, reviewed layer, glossary, the site's Markdown: set up per build in on_config
        self.pipeline = SitePipeline(self.lazy)
        self._kept = modes.Kept(self, self.lazy, self.pipeline)
        # memos kept across builds (reload.py, hookmemo.py, jinjacache.py)
        self._renders, self._hooks, self._templates = self._kept.renders, self._kept.hooks, self._kept.templates
        # Set by `mkdocs-zh-translate review sync`: the English build hands its pages to this
        # callable and stops there (no translation, no Chinese build).
        self.collector: Collector | None = None

    def review_mode(self, capture: ReviewCapture) -> modes.Kept:
        """Build for ``review serve``: segments marked on the Chinese pages, and the Chinese
        build's pieces kept in ``capture`` for rebuilding one page (reviewsite.py)."""
        from ..review.marks import mark

        self._kept.review = capture
        self.pipeline.mark = mark
        self.pipeline.partial_reviews = True
        return self._kept

    @property
    def stats(self) -> Stats | None:
        """The statistics of the build's last translation pass."""
        return self._kept.stats

    # -- lifecycle ------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup also makes MkDocs keep this instance (and its loaded model)
        # across `mkdocs serve` rebuilds.
        self._kept.command, self._kept.dirty = command, dirty

    def on_shutdown(self) -> None:
        self.pipeline.close()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        kept = self._kept
        kept.mode = kept.mode.next_build(config, lambda config: modes.start(kept, config, self.collector))
        return config

    def on_build_error(self, *, error: Exception) -> None:
        self._kept.stop_counting()

    @event_priority(-50)  # before static-i18n's on_files (-100) sorts the files by language
    def _add_zh_files(self, files: Files, config: MkDocsConfig) -> Files | None:
        return self._kept.mode.add_files(files, config)

    @event_priority(-110)  # after static-i18n re-created the files from docs_dir
    def _fill_zh_files(self, files: Files, config: MkDocsConfig) -> Files | None:
        return self._kept.mode.fill_files(files, config)

    on_files = CombinedEvent(_add_zh_files, _fill_zh_files)

    def on_serve(self, server: Any, config: MkDocsConfig, builder: Any) -> Any:
        # The PO files live outside docs_dir: watch them so a reviewer's edit shows up live.
        # Builds only read them (review sync writes, and only on change), so no reload loop.
        if self.pipeline.review is not None:
            watch_review_dir(server, self.pipeline.review.review_dir)
            for variant in self.pipeline.variants():  # translations/zh-TW/ beside translations/zh/
                watch_review_dir(server, self.pipeline.review.review_dir.parent / variant.code)
        self._kept.mode.on_serve(server, config)
        return server

    # -- collecting (English build) and applying (Chinese build) ---------------------------

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation | None:
        return self._kept.mode.on_nav(nav, config, files)

    def _pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        self._kept.mode.pre_page(page, config, files)
        return page

    @event_priority(100)  # the notebook's translation in, for mkdocs-jupyter alone (sources.py)
    def _notebook_in(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        self._kept.mode.notebook_in(page)
        return page

    @event_priority(-100)  # and out again, for every other plugin (git dates)
    def _notebook_out(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        self._kept.mode.notebook_out(page)
        return page

    on_pre_page = CombinedEvent(_notebook_in, _pre_page, _notebook_out)

    @event_priority(-100)  # after macros and any other plugin that changes the Markdown
    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        return self._kept.mode.on_page_markdown(markdown, page, config, files)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        return self._kept.mode.on_page_content(html, page, config, files)

    @event_priority(-90)  # after autorefs collected backlinks (-50), before mkdocstrings renders them (-100)
    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        return self._kept.mode.on_env(env, config, files)

    @event_priority(-100)  # after the search plugins (priority 0) read page.content
    def on_page_context(self, context: Any, page: Page, config: MkDocsConfig, nav: Navigation) -> Any:
        self._kept.mode.on_page_context(page)
        return context

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str | None:
        return self._kept.mode.on_post_page(output, page, config)

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str | None:
        return self._kept.mode.on_post_template(output_content, template_name, config)

    @event_priority(-100)  # last: the English site, its search index and sitemap are written
    def on_post_build(self, config: MkDocsConfig) -> None:
        self._kept.mode.on_post_build(config)
