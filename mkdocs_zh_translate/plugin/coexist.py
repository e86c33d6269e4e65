"""Beside mkdocs-static-i18n: Chinese becomes one more of its languages, fed with translated files.

A site that already builds en + fr with mkdocs-static-i18n must not get a second, nested build
of its own (that build would contain ``/zh/fr/``, lose French from every switcher and run twice,
once per static-i18n language build). Instead the plugin hands static-i18n what ``docs``
writes to disk, in memory:

- ``on_config`` of the default-language build adds a ``zh`` language to static-i18n's
  ``languages`` (with the plugin's per-language overrides) and a ``zh`` entry to a user's own
  ``extra.alternate``;
- ``on_files`` of every language build adds a virtual ``page.zh.md`` before static-i18n sorts
  the files, and sets its text on static-i18n's copy after (nothing is written into docs_dir) beside each English page
  (``zh/page.md`` in the folder structure), translated once per build through the plugin's
  pipeline; static-i18n then builds ``/zh/`` once, computes every page's alternates across all
  languages (so each switcher offers en, fr and zh for the same page), sets ``lang`` and the
  theme language, and applies the language's ``site_name``, ``nav_translations`` and
  ``admonition_translations``, which are filled in as soon as the strings are translated.

Only the plugin imports this module (it imports MkDocs and static-i18n's config class).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mkdocs.plugins import get_plugin_logger

from ..docs import Translation, translate_tree
from ..logs import PLUGIN_NAME, PREFIX
from ..pipeline.lazy import TranslationFailed
from ..pipeline.pages import strict_failure
from ..plaintext import for_template
from .docs_source import read_pages, read_strings
from .factory import find_static_i18n as find_static_i18n  # re-exported: the modes ask here
from .overrides import translatable_copyright, translatable_site_name
from .pins import PINS

log = get_plugin_logger(PLUGIN_NAME)

ZH_NAME = "中文"


@dataclass
class StaticI18nBridge:
    """The plugin's state beside one mkdocs-static-i18n instance (kept across language builds)."""

    i18n: Any
    language: str
    overrides: dict[str, Any] = field(default_factory=dict)
    translation: Translation | None = None
    generated: set[str] = field(default_factory=set)  # src_uris of the zh files we added
    added_attr_list: bool = False  # the zh build's attr_list is ours (see add_attr_list)

    # -- which build is this -----------------------------------------------------------------

    def is_default_build(self) -> bool:
        current = self.i18n.current_language
        return current is None or current == self.i18n.default_language

    def is_zh_build(self) -> bool:
        return bool(self.i18n.current_language == self.language)

    # -- on_config ------------------------------------------------------------------------------

    def prepare(self, config: Any) -> None:
        """Register the zh language with static-i18n (once) and in a user's ``extra.alternate``."""
        from mkdocs_static_i18n.config import I18nPluginLanguage  # type: ignore[import-untyped]

        languages = self.i18n.config.languages
        if not any(lang.locale == self.language for lang in languages):
            entry = I18nPluginLanguage()
            entry.load_dict({"locale": self.language, "name": ZH_NAME, "build": True, **self.overrides})
            errors, _warnings = entry.validate()
            if errors:
                from mkdocs.exceptions import PluginError

                name, error = errors[0]
                raise PluginError(f"{PREFIX}language setting '{name}': {error}")
            languages.append(entry)
        alternates = config.extra.get("alternate")
        if isinstance(alternates, list) and alternates and not any(
            isinstance(a, dict) and a.get("lang") == self.language for a in alternates
        ):
            alternates.append({"name": ZH_NAME, "link": f"/{self.language}/", "lang": self.language})

    def add_attr_list(self, config: Any) -> None:
        """The zh build renders the pinned heading ids (``# 译文 { #slug }``) as the plugin's own
        nested build does: with a reader of those pins (pins.py) where the site has no attr_list,
        added for that build only (static-i18n shares one config between its language builds;
        :meth:`remove_attr_list` takes it out after)."""
        if "attr_list" not in config.markdown_extensions and PINS not in config.markdown_extensions:
            config.markdown_extensions.append(PINS)
            self.added_attr_list = True

    def remove_attr_list(self, config: Any) -> None:
        if self.added_attr_list and PINS in config.markdown_extensions:
            config.markdown_extensions.remove(PINS)
        self.added_attr_list = False

    # -- on_files -------------------------------------------------------------------------------

    def add_files(self, files: Any, config: Any, kept: Any) -> Any:
        """Add the translated ``page.zh.md`` files; translate them in the default build
        (``kept``: what the plugin keeps across builds, modes/base.py)."""
        from mkdocs.structure.files import File

        if self.translation is None or self.is_default_build():
            self._translate(config, kept)
        assert self.translation is not None
        self.generated = set()
        for uri in self.translation.contents:
            present = files.get_file_from_path(uri)
            if present is not None and not present.inclusion.is_excluded():
                continue  # the site's own (human) zh page wins
            if present is not None:  # excluded by exclude_docs: the machine page stands in
                files.remove(present)
            # static-i18n re-creates every File from docs_dir + src_path (it cannot take generated
            # ones), so the zh file is virtual: it names docs_dir/page.zh.md, never written, and
            # gets its text once static-i18n is done with the files (`fill_files`).
            files.append(File(uri, config.docs_dir, config.site_dir, config.use_directory_urls))
            self.generated.add(uri)
        return files

    def counts(self, src_uri: str) -> tuple[int, int]:
        """(segments, reviewed segments) of a zh page we added, for its banner."""
        return self.translation.counts.get(src_uri, (0, 0)) if self.translation else (0, 0)

    def fill_files(self, files: Any) -> Any:
        """Give the zh files, as static-i18n re-created them, their translated text (MkDocs
        1.6's ``File.content_string``: the page is then never read from disk)."""
        if self.translation is not None:
            for file in files:
                if file.src_uri in self.generated:
                    file.content_string = self.translation.contents[file.src_uri]
        return files

    def _translate(self, config: Any, kept: Any) -> None:
        folder = self.i18n.config.docs_structure == "folder"
        default = self.i18n.default_language or "en"
        others = {lang.locale for lang in self.i18n.config.languages if lang.locale != default}
        copy, pages = read_pages(config, kept.pipeline, self.language, others)
        if folder:
            pages = _default_language_pages(pages, default, others | {default}, set(copy), self.language)
        nav_titles, strings = read_strings(config, kept.options)
        if translatable_copyright(config.copyright):
            strings.append(config.copyright)
        try:
            done = translate_tree(
                kept.site_translator(),
                pages,
                strings,
                language=self.language,
                layout="folder" if folder else "suffix",
                default_locale=default,
            )
        except TranslationFailed as exc:
            from mkdocs.exceptions import PluginError

            raise PluginError(f"{PREFIX}{exc}") from None
        self.translation = done
        log.info(done.stats.summary())
        kept.write_report(done.stats.pages, done.stats)
        left = done.warnings + done.english if kept.options.strict else []
        for message in left or done.warnings:
            (log.error if left else log.warning)(message)
        if left:
            from mkdocs.exceptions import PluginError

            raise PluginError(f"{PREFIX}{strict_failure(len(left))}")
        entry = self.i18n.get_language_config(self.language)
        brand = not translatable_site_name(config.site_name)
        if "site_name" not in self.overrides and kept.options.translate_nav and not brand:
            entry.site_name = for_template(done.strings.get(config.site_name, config.site_name))
        if config.site_description and "site_description" not in self.overrides:
            entry.site_description = for_template(done.strings.get(config.site_description, config.site_description))
        if translatable_copyright(config.copyright) and "copyright" not in self.overrides:
            entry.copyright = for_template(done.strings.get(config.copyright, config.copyright))
        nav = {t: for_template(done.strings[t]) for t in nav_titles if done.strings.get(t, t) != t}
        entry.nav_translations = {**nav, **(entry.nav_translations or {})}
        entry.admonition_translations = {**done.admonitions, **(entry.admonition_translations or {})}


def _default_language_pages(
    pages: list[Any], default: str, locales: set[str], included: set[str], language: str
) -> list[Any]:
    """In static-i18n's folder structure, the default language's pages to translate, named as
    in its folder: ``en/x.md`` and, where the site keeps English at the top of docs_dir, ``x.md``
    outside every language folder. A page the site ships in ``<language>/`` is its own
    (human) zh page, which wins: not translated."""
    chosen = []
    for page in pages:
        top, _, rest = page.src_uri.partition("/")
        if top == default and rest:
            page.src_uri = rest
        elif rest and top in locales:
            continue  # another language's page
        if f"{language}/{page.src_uri}" not in included:
            chosen.append(page)
    return chosen
