"""The English build that ``review sync``, ``prefill`` and other commands run to collect the
site's pages as the build would translate them (collect.py sets the plugin's ``collector``):
the build stops there, with no translation and no Chinese build.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from .. import site
from ..collect import Collector
from .base import EnglishText, Kept, collect_page, hand_over, warn_unused_excludes
from .bridge import Bridge
from .nested import EnglishSite


class Collect(EnglishSite):
    """The English build of a site with its own Chinese edition, handed to the collector."""

    def __init__(
        self, kept: Kept, config: MkDocsConfig, langs: site.Languages, text: EnglishText, collector: Collector
    ) -> None:
        super().__init__(kept, config, langs, text)
        self.collector = collector

    def pre_page(self, page: Page, config: MkDocsConfig, files: Files) -> None:
        pass  # no page guard runs: nothing is translated

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        # no translation follows to name what is left English: named here
        return collect_page(self.kept, self.text, page, markdown, config, self.human, name_problems=True)

    def finish(self, config: MkDocsConfig, site_strings: list[str], english_warnings: int) -> None:
        hand_over(self.kept, self.text, config, site_strings, self.collector)


class BridgeCollect(Bridge):
    """The default-language build of a site that uses mkdocs-static-i18n, handed to the collector
    (no translated files are added: static-i18n's languages are built as they stand)."""

    def __init__(self, kept: Kept, config: MkDocsConfig, i18n: Any, text: EnglishText, collector: Collector) -> None:
        super().__init__(kept, config, i18n, text)
        self.collector = collector

    def add_files(self, files: Files, config: MkDocsConfig) -> Files:
        warn_unused_excludes(files, self.kept.options)
        return files

    def fill_files(self, files: Files, config: MkDocsConfig) -> Files:
        return files

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if not self.bridge.is_default_build():
            return markdown
        return collect_page(self.kept, self.text, page, markdown, config, set(), name_problems=True)

    def on_post_build(self, config: MkDocsConfig) -> None:
        super().on_post_build(config)
        hand_over(
            self.kept,
            self.text,
            config,
            self.text.site_strings(self.kept.options, self.kept.theme_text.texts),
            self.collector,
        )
