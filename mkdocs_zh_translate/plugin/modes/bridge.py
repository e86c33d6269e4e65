"""Beside mkdocs-static-i18n: the plugin feeds its ``zh`` language with translated files.

No nested build of our own (coexist.py says why): static-i18n builds every language, and the
plugin's part is the files (``on_files``), the zh build's heading pins and the banners. One
:class:`Bridge` lives through all of static-i18n's language builds of one ``mkdocs build``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from ...plaintext import for_template
from .. import site, speedups
from ..coexist import StaticI18nBridge, find_static_i18n
from ..titles import HOME_ZH
from .base import EnglishText, Kept, Mode, warn_unused_excludes


class Bridge(Mode):
    """The builds of a site that uses mkdocs-static-i18n: Chinese is one more of its languages."""

    def __init__(self, kept: Kept, config: MkDocsConfig, i18n: Any, text: EnglishText) -> None:
        super().__init__(kept)
        self.text = text
        self.bridge = StaticI18nBridge(i18n, kept.options.language, kept.options.overrides.values())
        self.bridge.prepare(config)

    def next_build(self, config: MkDocsConfig, start: Callable[[MkDocsConfig], Mode]) -> Mode:
        if find_static_i18n(config) is None or self.bridge.is_default_build():
            return start(config)
        if self.bridge.is_zh_build():  # the translated headings are pinned: `{ #slug }`
            self.bridge.add_attr_list(config)
        return self  # one of static-i18n's other language builds: same state

    @property
    def generated(self) -> set[str]:
        """The translated pages handed to static-i18n, in its zh build (none in the others)."""
        return self.bridge.generated if self.bridge.is_zh_build() else set()

    def add_files(self, files: Files, config: MkDocsConfig) -> Files:
        warn_unused_excludes(files, self.kept.options)
        added: Files = self.bridge.add_files(files, config, self.kept)
        return added

    def fill_files(self, files: Files, config: MkDocsConfig) -> Files:
        filled: Files = self.bridge.fill_files(files)
        return filled

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        html = self.kept.sources.content(page, html, zh=False)
        if page.file.src_uri not in self.generated:
            return html
        segments, reviewed = self.bridge.counts(page.file.src_uri)
        banner = site.banner_html(
            self.kept.options.banner,
            segments=segments,
            reviewed=reviewed,
            model=self.kept.pipeline.model_label(),
            translated=True,
        )
        if banner:
            self.banners[page.file.src_uri] = banner
            if page.is_homepage and "title" not in page.__dict__ and page.title == "Home":
                page.title = HOME_ZH
        if isinstance(page.title, str):
            # A title taken from the translated H1 is escaped HTML, and themes pass it through
            # `striptags`, which unescapes it: `&lt;/title&gt;` would come back as a live tag.
            page.title = for_template(page.title)
        return html

    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        if speedups.enabled(self.kept.options.speedups, "jinjacache"):
            self.kept.templates.install(env)  # static-i18n's language builds share compiled templates
        return env

    def on_post_build(self, config: MkDocsConfig) -> None:
        self.kept.stop_counting()
        self.bridge.remove_attr_list(config)  # added for the zh build only
