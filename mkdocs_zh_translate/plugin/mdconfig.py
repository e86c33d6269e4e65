"""The site a single Markdown file belongs to, as ``mkdocs-zh-translate md`` needs it.

``md`` translates one file outside any build, but its page guard and segmenter must see the
page as the site renders it: without the site's ``admonition``, ``pymdownx.tabbed`` or
``superfences``, bodies of those blocks render as code or plain text in English and the
guard keeps them English. The nearest ``mkdocs.yml`` / ``properdocs.yml`` upward from the
file (or the one ``-f`` names) gives its ``markdown_extensions`` and the zh-translate
plugin's glossary; without one, the extensions most Material sites use stand in.

The file (and the chain of files it ``INHERIT`` s, deep-merged) is read by MkDocs' own
``yaml_load``, the reader ``load_config`` uses, but not validated by ``load_config``: plugins
and themes are neither imported nor checked, so a page translates where the site's plugins
are not installed. Tags that would run code resolve only for names inside the Markdown
extension packages (``pymdownx.slugs.slugify``, Material's emoji functions); any other tag
(``!ENV``, ``!!python/name:`` of a project's own module) leaves that option out, with a
warning, so the extension keeps its default. Which file is found: ``configfile.py``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import ZhTranslateError
from ..pipeline.cache import DEFAULT_CACHE_DIRNAME
from ..pipeline.glossary import GLOSSARY_FILE, Glossary, load_glossary
from ..segment import SiteSyntax
from .configfile import nearest_config

# MkDocs puts these before the site's own list.
BUILTIN_EXTENSIONS = ("toc", "tables", "fenced_code")
# Without a config: the set Material's own setup guide recommends, kept where installed.
COMMON_EXTENSIONS = (
    "toc",
    "tables",
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "footnotes",
    "md_in_html",
    "pymdownx.details",
    "pymdownx.superfences",
    "pymdownx.tabbed",
    "pymdownx.highlight",
    "pymdownx.inlinehilite",
    "pymdownx.snippets",
)
# Packages whose callables a ``!!python/name:`` / ``!!python/object/apply:`` tag may name.
_TRUSTED = ("markdown.", "pymdownx.", "material.extensions.", "zensical.extensions.")


class MdConfigError(ZhTranslateError):
    """A config file ``md`` was pointed at cannot be read."""


@dataclass
class MarkdownSetup:
    """What ``md`` renders and segments with."""

    config_file: Path | None
    extensions: list[str] = field(default_factory=list)
    configs: dict[str, Any] = field(default_factory=dict)
    slugify: Callable[[str, str], str] | None = None
    syntax: SiteSyntax | None = None
    glossary: Glossary | None = None
    warnings: list[str] = field(default_factory=list)
    review_dir: Path | None = None  # the site's PO files and glossary: `-o` never writes there
    cache_dir: Path | None = None  # the site's machine cache (its database: not an output either)


class _Untrusted:
    """Stands for a tagged value that was not resolved; the option holding it is dropped."""

    def __init__(self, tag: str) -> None:
        self.tag = tag


class _Loader(yaml.SafeLoader):
    """SafeLoader plus the Python tags mkdocs.yml files use for Markdown extensions."""


def _trusted(name: str) -> Any:
    module, _, attr = name.rpartition(".")
    if not name.startswith(_TRUSTED) or not module:
        raise LookupError(name)
    return getattr(importlib.import_module(module), attr)


def _python_name(loader: _Loader, suffix: str, node: yaml.Node) -> Any:
    try:
        return _trusted(suffix)
    except (ImportError, LookupError, AttributeError):
        return _Untrusted(f"!!python/name:{suffix}")


def _python_apply(loader: _Loader, suffix: str, node: yaml.Node) -> Any:
    try:
        function = _trusted(suffix)
    except (ImportError, LookupError, AttributeError):
        return _Untrusted(f"!!python/object/apply:{suffix}")
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    if isinstance(node, yaml.SequenceNode):
        args = loader.construct_sequence(node, deep=True)
    elif isinstance(node, yaml.MappingNode):
        spec = loader.construct_mapping(node, deep=True)
        args, kwargs = list(spec.get("args") or []), dict(spec.get("kwds") or {})
    try:
        return function(*args, **kwargs)
    except Exception:  # a bad call in someone's config: that option falls back to its default
        return _Untrusted(f"!!python/object/apply:{suffix}")


def _unknown(loader: _Loader, suffix: str, node: yaml.Node) -> Any:
    return _Untrusted(f"!{suffix}" if not suffix.startswith("tag:") else suffix)


_Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", _python_name)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/object/apply:", _python_apply)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _unknown)
_Loader.add_multi_constructor("!", _unknown)


def _read_yaml(path: Path) -> dict[str, Any]:
    """The settings of ``path`` with its ``INHERIT`` chain merged as MkDocs merges it (MkDocs'
    ``yaml_load``, given the vetted loader); every failure is one line naming the file."""
    from mkdocs.exceptions import ConfigurationError
    from mkdocs.utils.yaml import yaml_load

    try:
        with path.open("rb") as fh:
            data = yaml_load(fh, _Loader)  # type: ignore[arg-type]  # a SafeLoader (vetted tags): loaders share no stub base
    except (OSError, UnicodeDecodeError) as exc:
        where = getattr(exc, "filename", None) or path
        raise MdConfigError(f"{where}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    except ConfigurationError as exc:
        cause = exc.__context__
        mark = getattr(cause, "problem_mark", None)
        if isinstance(cause, yaml.YAMLError) and mark is not None:
            raise MdConfigError(f"{mark.name}:{mark.line + 1}: malformed YAML: "
                                f"{getattr(cause, 'problem', cause)}") from None
        raise MdConfigError(f"{path}: {str(exc).splitlines()[0]}") from None
    except RecursionError:
        raise MdConfigError(f"{path}: its INHERIT chain does not end (a file inherits itself)") from None
    except TypeError:  # a bare number or null at the top: MkDocs' INHERIT lookup cannot look in it
        data = None
    if not isinstance(data, dict):
        raise MdConfigError(f"{path}:1: expected a mapping of settings")
    return data


def _strip_untrusted(value: Any, where: str, warnings: list[str]) -> Any:
    """``value`` without the options whose value was an unresolved tag (each one warned)."""
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            if isinstance(item, _Untrusted):
                warnings.append(f"{where}: option {key!r} ({item.tag}) not read; its default is used")
                continue
            kept[key] = _strip_untrusted(item, where, warnings)
        return kept
    if isinstance(value, list):
        return [_strip_untrusted(item, where, warnings) for item in value if not isinstance(item, _Untrusted)]
    return value


def _listed_extensions(raw: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
    """``markdown_extensions`` as (name, options) pairs, in MkDocs' accepted shapes."""
    items = list(raw.items()) if isinstance(raw, dict) else raw
    if items is None:
        return []
    if not isinstance(items, list):
        raise MdConfigError(f"{where}: markdown_extensions must be a list")
    pairs: list[tuple[str, dict[str, Any]]] = []
    for item in items:
        if isinstance(item, tuple):
            name, options = item
        elif isinstance(item, str):
            name, options = item, {}
        elif isinstance(item, dict) and len(item) == 1:
            ((name, options),) = item.items()
        else:
            raise MdConfigError(f"{where}: markdown_extensions: {item!r} is not an extension name")
        if not isinstance(name, str) or not (options is None or isinstance(options, dict)):
            raise MdConfigError(f"{where}: markdown_extensions: invalid entry for {name!r}")
        pairs.append((name, dict(options or {})))
    return pairs


def _loadable(name: str, options: dict[str, Any]) -> str | None:
    """Why Python-Markdown cannot load ``name`` with ``options`` here, or None."""
    import markdown

    try:
        markdown.Markdown(extensions=[name], extension_configs={name: options})
    except Exception as exc:  # ImportError, bad options, anything an extension raises
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
    return None


def _plugin_options(data: dict[str, Any]) -> dict[str, Any] | None:
    plugins = data.get("plugins")
    entries = list(plugins.items()) if isinstance(plugins, dict) else plugins if isinstance(plugins, list) else []
    for entry in entries:
        if entry == "zh-translate":
            return {}
        if isinstance(entry, tuple) and entry[0] == "zh-translate":
            return dict(entry[1] or {}) if isinstance(entry[1], dict) else {}
        if isinstance(entry, dict) and "zh-translate" in entry:
            options = entry["zh-translate"]
            return dict(options) if isinstance(options, dict) else {}
    return None


def _own_dirs(config_file: Path, data: dict[str, Any]) -> tuple[Path, Path] | None:
    """(review_dir, cache_dir) of the plugin when mkdocs.yml lists zh-translate (None otherwise),
    placed as ``config.resolve_review_dir`` / ``resolve_cache_dir`` place them (that module
    imports MkDocs, which `md` does not load); reading a glossary needs none of their checks."""
    options = _plugin_options(data)
    if options is None:
        return None
    review, language = options.get("review_dir"), options.get("language") or "zh"
    cache = options.get("cache_dir")
    base = config_file.resolve().parent
    review_dir = base / os.path.expanduser(review if isinstance(review, str) else f"translations/{language}")
    return review_dir, base / os.path.expanduser(cache if isinstance(cache, str) else DEFAULT_CACHE_DIRNAME)


def heading_slugify(mdx_configs: dict[str, Any]) -> Callable[[str, str], str] | None:
    """The site's heading-id function as ``slugify(text, separator)``, or None for the default.

    The segmenter pins each translated heading to the id the English page gets; a site that
    sets the ``toc`` extension's ``slugify`` (``pymdownx.slugs.slugify``, keeping ``--``) or
    ``separator`` gets other ids than Python-Markdown's default, so the pins must use them too.
    """
    toc = mdx_configs.get("toc") or mdx_configs.get("markdown.extensions.toc") or {}
    configured: Callable[[str, str], str] | None = toc.get("slugify")
    separator: str | None = toc.get("separator")
    if configured is None and separator is None:
        return None
    if configured is None:
        from ..segment import slugify as python_markdown_slugify  # toc's default, same rules

        configured = python_markdown_slugify
    if separator is None:
        return configured
    function, fixed = configured, separator
    return lambda value, _separator: function(value, fixed)


def page_syntax(extensions: list[Any], mdx_configs: dict[str, Any]) -> SiteSyntax:
    """What the site's Markdown extensions change about segments (see ``SiteSyntax``).

    Tab ids come from tab titles where pymdownx.tabbed (or pymdownx.blocks.tab) has a
    ``slugify`` option; without it they are ``__tabbed_N_M``, whatever the title says.
    """
    tabs = [mdx_configs.get(name) for name in ("pymdownx.tabbed", "pymdownx.blocks.tab")]
    names = [e for e in extensions if isinstance(e, str)]
    return SiteSyntax(
        tab_ids_from_titles=any(isinstance(options, dict) and bool(options.get("slugify")) for options in tabs),
        fancy_lists="pymdownx.fancylists" in names,
        emoji=emoji_shortcodes(mdx_configs.get("pymdownx.emoji")) if "pymdownx.emoji" in names else frozenset(),
    )


def emoji_shortcodes(options: dict[str, Any] | None) -> frozenset[str] | None:
    """The shortcodes the site's pymdownx.emoji replaces (its index's names and aliases).

    A heading's id comes from its text: a shortcode the index lacks (``:material-discord:``
    where the theme has no such icon) stays text there, and its words are in the English id.
    The index is the one the extension builds from the site's options (Material's adds the
    theme's and custom icons). None when it cannot be built here: every shortcode counts then.
    """
    import markdown

    try:
        md = markdown.Markdown(extensions=["pymdownx.emoji"], extension_configs={"pymdownx.emoji": options or {}})
        index = md.inlinePatterns["emoji"].emoji_index  # type: ignore[attr-defined]
        return frozenset(index["emoji"]) | frozenset(index["aliases"])
    except Exception:  # a third-party index function: any failure means "not known"
        return None


def markdown_setup(page: Path, config_file: Path | None = None) -> MarkdownSetup:
    """The extensions, heading ids, syntax and glossary ``md`` uses for ``page``.

    ``config_file`` is the one named with ``-f``; otherwise the nearest one upward is used,
    and without any, :data:`COMMON_EXTENSIONS` (those installed). An extension that cannot be
    loaded here is left out with a warning: the guard renders without it, as before."""
    if config_file is not None and not config_file.is_file():
        raise MdConfigError(f"{config_file}: no such config file")
    found = config_file or nearest_config(page)
    setup = MarkdownSetup(found)
    pairs: list[tuple[str, dict[str, Any]]]
    if found is None:
        pairs = [(name, {}) for name in COMMON_EXTENSIONS]
        data: dict[str, Any] = {}
        where = "default extensions"
    else:
        data = _read_yaml(found)
        where = f"{found}: markdown_extensions"
        pairs = [(name, {}) for name in BUILTIN_EXTENSIONS]
        listed = _listed_extensions(data.get("markdown_extensions"), str(found))
        pairs += [(name, _strip_untrusted(options, f"{where}: {name}", setup.warnings)) for name, options in listed]
    seen: dict[str, dict[str, Any]] = {}
    for name, options in pairs:
        seen.setdefault(name, {}).update(options)  # listed twice: MkDocs merges the options too
    if found is None:
        snippets = seen.get("pymdownx.snippets")
        if snippets is not None:  # included files are looked up beside the page, not the cwd
            snippets["base_path"] = [str(page.resolve().parent)]
    for name, options in seen.items():
        problem = _loadable(name, options)
        if problem is not None:
            if found is not None:
                setup.warnings.append(f"{where}: {name} cannot be loaded here ({problem}); rendered without it")
            continue
        setup.extensions.append(name)
        if options:
            setup.configs[name] = options
    if "attr_list" not in setup.extensions:  # the heading pins (`{ #slug }`), read as the zh build reads them
        from .pins import PINS

        setup.extensions.append(PINS)
    setup.slugify = heading_slugify(setup.configs)
    setup.syntax = page_syntax(list(setup.extensions), setup.configs)
    dirs = _own_dirs(found, data) if found is not None else None
    if dirs is not None:
        setup.review_dir, setup.cache_dir = dirs
        setup.glossary = load_glossary(setup.review_dir / GLOSSARY_FILE)
    return setup
