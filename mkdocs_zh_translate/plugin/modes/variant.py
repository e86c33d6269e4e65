"""An extra Chinese variant's site (``site/zh-TW/`` …), built after the Simplified one.

The English build translates the site once into Simplified; each variant then takes its own
pass through its pipeline (``pipeline/variants.py``: its reviews, then its cached conversions,
then the Simplified text converted), and a nested build of the same mkdocs.yml, like the
Simplified one, with the theme's own interface language for the variant (Material's ``zh-TW``
or ``zh-Hant``), its own search index, and the plugin's own Chinese (banner, Material's
hard-coded footer) converted too. Every site's language switcher lists every language.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.localization import parse_locale
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from ...pipeline.cache import MachineCache
from ...pipeline.pages import PageJob
from ...pipeline.variants import Converter, Variant
from .. import site, speedups
from ..apilabels import VariantLabels
from .base import log
from .nested import ChineseSite, Translated, translate

TRADITIONAL_LOCALE = "zh_TW"  # the one Traditional locale MkDocs' built-in themes ship

if TYPE_CHECKING:
    from .nested import EnglishSite


class VariantSite(ChineseSite):
    """The nested build of one extra variant: the Chinese site's, with the variant's own
    translation, language code and interface language."""

    def __init__(self, english: EnglishSite, variant: Variant) -> None:
        super().__init__(english)
        self.variant = variant
        self.code = variant.code
        self.done = Translated(label=variant.code)
        self.convert = Converter(variant.table)  # the plugin's own words: no glossary terms
        self.page_convert: Callable[[str], str] = self.convert  # the pages': with the terms (translate)
        self.labels = VariantLabels()  # mkdocstrings' labels in the variant's script (apilabels.py)

    def translate(self, strings: list[str]) -> None:
        """The variant's pass over the pages the English build collected."""
        self.translate_more(self.text.jobs, strings)

    def translate_more(self, jobs: dict[str, PageJob], strings: list[str]) -> None:
        base = self.kept.site_translator()
        translator = self.kept.pipeline.variant_translator(self.variant, base)
        self.page_convert = getattr(translator.service, "convert", self.convert)
        translate(self.kept, self.done, jobs, strings, translator)

    def pre_page(self, page: Page, config: MkDocsConfig, files: Files) -> None:
        # the Simplified render converted where that is the page's render (convertrender.py);
        # never the Simplified site's memo of serve reloads, which holds that site's pages
        if self.keep_renders and not self.kept.sources.handled(page.file.src_uri):
            convert = self.page_convert
            self.kept.converted.convert(page, convert.prose if isinstance(convert, Converter) else convert)

    def build(self, config: MkDocsConfig) -> None:
        converted = self.kept.converted
        before = converted.converted, converted.rendered
        try:
            super().build(config)
        finally:
            self.labels.remove()
        log.debug(f"{self.code}: {converted.converted - before[0]} pages from the Simplified renders, "
                  f"{converted.rendered - before[1]} rendered")

    def stored_hooks(self) -> MachineCache | None:
        # a third site in every build: its page hooks' results (Material's search index, the
        # HTML parse and jieba of every page) are kept between processes (hookmemo.py)
        kept = self.kept
        if kept.reusing() or kept.dirty or not speedups.enabled(kept.options.speedups, "hookstore"):
            return None  # serve reloads keep them in memory; --dirty: see hookmemo.py
        return kept.pipeline.machine

    def shape(self, config: MkDocsConfig) -> None:
        config.theme["language"] = self.variant.region.theme_language
        if self.langs.site_url:
            config.site_url = self.langs.zh_site_url(self.code)
        # the built-in themes' Traditional strings (MkDocs ships zh_TW; <html lang> is set below)
        if any((Path(d) / "locales" / TRADITIONAL_LOCALE).is_dir() for d in config.theme.dirs):
            config.theme["locale"] = parse_locale(TRADITIONAL_LOCALE)
        self.labels.install(config, self.convert.prose)

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        return site.set_html_lang(super().on_post_page(output, page, config), self.code)

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        return site.set_html_lang(super().on_post_template(output, template_name, config), self.code)

    def own_text(self, html: str) -> str:
        return self.convert.prose(html)

