"""The ``docs`` command's inputs, read the way the plugin reads them (this module imports MkDocs).

``mkdocs.yml`` or ``properdocs.yml`` is loaded with MkDocs' own ``load_config``, and the pipeline
is the plugin's own: :class:`~.factory.SitePipeline`, set up with the options of the
``zh-translate`` entry of ``plugins:`` (or, when the site does not list it, the command line's),
so cache directory, reviewed PO files, glossary, excludes and the page guard are exactly the
build's. Pages are read as MkDocs reads them (``exclude_docs`` respected, front matter split off
by MkDocs' ``get_data``), so the PO keys match the build's for every page no other plugin rewrites.
"""

from __future__ import annotations

import copy
import logging
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..docs import DocsError, DocsPage, DocsSource, rebased_extensions
from ..pipeline.variants import Converter, parse_variants
from . import uistrings
from .config import PluginConfig, override
from .factory import SitePipeline, listed_options, load_options
from .overrides import translatable_copyright, translatable_site_name

_I18N_SUFFIX_KEYS = ("locale", "name", "default", "build", "link", "fixed_link", "site_name", "site_description")


def _nav_titles(nav: Any) -> Iterator[str]:
    """Titles written in the config's ``nav`` (the strings the plugin translates in on_nav)."""
    if isinstance(nav, list):
        for item in nav:
            yield from _nav_titles(item)
    elif isinstance(nav, dict):
        for title, value in nav.items():
            if isinstance(title, str) and title.strip():
                yield title
            yield from _nav_titles(value)


def _i18n_languages(config: Any) -> tuple[list[dict[str, Any]], str | None, set[str]]:
    """mkdocs-static-i18n's languages (as plain dicts), its default locale, its other locales."""
    plugin = config.plugins.get("i18n")
    languages = getattr(getattr(plugin, "config", None), "languages", None)
    if not languages:
        return [], None, set()
    found: list[dict[str, Any]] = []
    default = None
    for lang in languages:
        entry = {k: lang[k] for k in _I18N_SUFFIX_KEYS if k in lang and lang[k] not in (None, False)}
        entry.pop("link", None)  # static-i18n fills it in; the snippet keeps what users write
        if lang.get("nav_translations"):
            entry["nav_translations"] = dict(lang["nav_translations"])
        found.append(entry)
        if lang.get("default"):
            default = lang["locale"]
    default = default or found[0].get("locale")
    return found, default, {str(e["locale"]) for e in found if e.get("locale") != default}


def _one_line(config_file: Path, message: str) -> str:
    """MkDocs' config errors (YAML's span several lines) as ``file:line: message``."""
    found = re.search(r"line (\d+)", message)
    where = f"{config_file}:{found.group(1)}" if found else str(config_file)
    return f"{where}: {' '.join(message.split())}"


def _suffix_locale(src_uri: str, locales: set[str]) -> bool:
    parts = src_uri.rsplit(".", 2)
    return len(parts) == 3 and parts[1] in locales


def human_pages(files: Any, language: str) -> dict[str, Any]:
    """The human translations in docs_dir, as the i18n plugins name them: ``page.<language>.md``
    beside ``page.md``, keyed by the English page's ``src_uri`` (whether or not it exists)."""
    found: dict[str, Any] = {}
    for file in files:
        if not file.is_documentation_page():
            continue
        stem, dot, ext = file.src_uri.rpartition(".")
        base, locale_dot, locale = stem.rpartition(".")
        if dot and locale_dot and base and locale == language:
            found[f"{base}.{ext}"] = file
    return found


def read_pages(
    config: Any, pipeline: SitePipeline, language: str, other_locales: set[str], *, excluded: bool = False
) -> tuple[list[str], list[DocsPage]]:
    """The files of docs_dir to copy and the English pages to translate, read as MkDocs reads
    them: ``exclude_docs`` respected, front matter split off by MkDocs' ``get_data``, snippets
    (``--8<--``) included as the plugin's build includes them (``pipeline`` is configured). Pages in
    another locale (``page.fr.md``), excluded by the plugin, or with a human translation beside
    them (``page.zh.md``) are not translated; with ``excluded``, the pages the plugin excludes
    come back too, as written (``translate=False``), for ``docs`` to mark "not translated"."""
    from mkdocs.structure.files import get_files
    from mkdocs.utils import meta as meta_util

    files = get_files(config)
    copy: list[str] = []
    pages: list[DocsPage] = []
    human = human_pages(files, language)
    for file in files:
        if file.inclusion.is_excluded():  # type: ignore[no-untyped-call]  # untyped in MkDocs 1.6
            continue
        copy.append(file.src_uri)
        if not file.is_documentation_page():
            continue
        if _suffix_locale(file.src_uri, other_locales) or file.src_uri in human:
            continue  # another language's page, or a human translation the i18n plugins use
        skip = pipeline.excluded(file.src_uri)
        if skip and not excluded:
            continue
        label = os.path.relpath(file.abs_src_path or file.src_uri)
        try:
            source = file.content_string
        except UnicodeDecodeError as exc:
            raise DocsError(f"{label}: not valid UTF-8 (byte {exc.start})") from None
        except OSError as exc:
            raise DocsError(f"{label}: cannot read: {exc.strerror or exc}") from None
        body, meta = meta_util.get_data(source)
        normal = source if source.endswith(body) else source.replace("\r\n", "\n").replace("\r", "\n")
        front = normal[: len(normal) - len(body)] if normal.endswith(body) else ""
        page_meta = {k: v for k in ("title", "description") if isinstance(v := meta.get(k), str)}
        if skip:
            pages.append(DocsPage(file.src_uri, label, front, body, translate=False))
            continue
        # Included Markdown (`{!…!}`, `--8<--`) is translated with the page, as in the plugin's build.
        expanded, problems = pipeline.expand(body)
        page = DocsPage(file.src_uri, label, front, expanded, page_meta)
        page.warnings.extend(f"{label}: {problem}" for problem in problems)
        pages.append(page)
    return sorted(copy), pages


def read_strings(config: Any, options: PluginConfig) -> tuple[list[str], list[str]]:
    """(nav titles, all site strings) in the order the plugin's build translates them, the
    interface text of mkdocs.yml (:mod:`.uistrings`) last, as the build lists it in site.po."""
    nav_titles = list(dict.fromkeys(_nav_titles(config.nav))) if options.translate_nav else []
    strings = list(nav_titles)
    if options.translate_nav and translatable_site_name(config.site_name):
        strings.append(config.site_name)
    if config.site_description:
        strings.append(config.site_description)
    if translatable_copyright(config.copyright):
        strings.append(config.copyright)
    strings.extend(item.text for item in uistrings.collect(config))
    return nav_titles, strings


def zh_theme(config: Any) -> Callable[[dict[str, str]], dict[str, Any]]:
    """The zh language's ``theme`` settings for the i18n block: the palette with its toggle
    names translated exactly as the build's :func:`.uistrings.apply` sets them in its config
    (the other interface text lives in Markdown options, which the i18n plugins do not set per
    language)."""
    items = [item for item in uistrings.collect(config) if item.path[0] == "theme"]
    palette = copy.deepcopy(config.theme.get("palette"))

    def theme(strings: dict[str, str]) -> dict[str, Any]:
        if not items or palette is None:
            return {}
        zh = {"theme": {"palette": copy.deepcopy(palette)}}
        uistrings.apply(zh, items, strings)
        translated = zh["theme"]["palette"]
        return {"palette": translated} if translated != palette else {}

    return theme


def _raw_plugins(config_file: Path, key: str = "plugins") -> Any:
    """The config's ``plugins`` (or ``key``) as written (MkDocs' YAML loader: ``!ENV`` and
    ``INHERIT`` as the build reads them), for ``--config-out``; None when the config does not set it."""
    from mkdocs.exceptions import ConfigurationError
    from mkdocs.utils.yaml import yaml_load

    try:
        with open(config_file, "rb") as fd:
            data = yaml_load(fd)
    except (OSError, ConfigurationError, ValueError):
        return None  # load_config read it a moment ago; the build will say what is wrong
    return data.get(key) if isinstance(data, dict) else None


@contextmanager
def docs_source(
    config_file: Path, options: Mapping[str, Any] | None = None, variant: str | None = None
) -> Iterator[DocsSource]:
    """Load ``config_file`` and yield the docs tree's inputs; the pipeline is closed after.

    ``options`` override the plugin's options (``backend``, ``model``) from the command line;
    ``variant``: the Chinese variant to write (``zh-TW``: the pages as ``page.zh-TW.md``,
    converted from the Simplified translation as the plugin's zh-TW site shows them)."""
    from mkdocs.config import load_config
    from mkdocs.config.base import ValidationError
    from mkdocs.exceptions import MkDocsException, PluginError

    quiet = logging.getLogger("mkdocs")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # load_config's "unrecognised option" chatter is the build's job
    try:
        config = load_config(config_file=str(config_file))
    except MkDocsException as exc:
        raise DocsError(_one_line(config_file, str(exc))) from None
    except OSError as exc:
        raise DocsError(f"{config_file}: cannot read: {exc.strerror or exc}") from None
    finally:
        quiet.setLevel(level)
    plugin_config = listed_options(config)
    if plugin_config is None:
        plugin_config, errors = load_options(options or {}, config.config_file_path)
        if errors:
            name, error = errors[0]
            raise DocsError(f"{config_file}: zh-translate option '{name}': {error}")
    else:
        try:
            override(plugin_config, options or {})
        except ValidationError as exc:
            raise DocsError(f"{config_file}: {exc}") from None
    if options and options.get("model"):
        plugin_config["model"] = str(Path(str(options["model"])).expanduser().resolve())  # from the cwd
    pipeline = SitePipeline()
    try:
        try:
            pipeline.configure(plugin_config, config)
        except PluginError as exc:
            raise DocsError(f"{config_file}: {exc}") from None
        languages, i18n_default, other_locales = _i18n_languages(config)
        language = plugin_config.language
        translator = pipeline.site_translator()
        convert: Callable[[str], str] = str
        for chosen in parse_variants([variant] if variant else []):  # `docs --variant zh-TW`
            other_locales.add(language)  # the Simplified pages.zh.md are no source either
            try:
                translator = pipeline.variant_translator(chosen, translator)
            except PluginError as exc:  # the variant's glossary
                raise DocsError(f"{config_file}: {exc}") from None
            convert, language = Converter(chosen.table).prose, chosen.code
        other_locales.add(language)
        docs_dir = Path(config.docs_dir)
        copy, pages = read_pages(config, pipeline, language, other_locales, excluded=True)
        nav_titles, site_strings = read_strings(config, plugin_config)
        translate_name = plugin_config.translate_nav and translatable_site_name(config.site_name)
        yield DocsSource(
            docs_dir=docs_dir,
            language=language,
            default_locale=i18n_default or "en",
            files=copy,
            pages=pages,
            translator=translator,
            site_strings=site_strings,
            nav_titles=nav_titles,
            site_name=config.site_name if translate_name else "",
            site_description=config.site_description,
            languages=languages,
            overrides=plugin_config.overrides.values(),
            state_dir=pipeline.machine.directory if pipeline.machine is not None else None,
            review_dir=pipeline.review.review_dir if pipeline.review is not None else None,
            config_file=config_file,
            copyright=config.copyright if translatable_copyright(config.copyright) else None,
            banner=plugin_config.banner,
            model_label=pipeline.model_label(),
            convert=convert,
            plugins=_raw_plugins(config_file),
            zh_theme=zh_theme(config),
            # relative to where this runs, as the snippets expanded above were read
            markdown_extensions=rebased_extensions(_raw_plugins(config_file, "markdown_extensions"), Path.cwd()),
        )
    finally:
        pipeline.close()
