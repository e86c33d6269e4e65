"""Interface text a site writes in mkdocs.yml, for the Chinese build: found, translated, set.

Material translates its own interface from its language files once ``theme.language`` is
``zh`` (``prepare_zh_config``), and the built-in themes from their ``zh_CN`` locale; what the
site itself wrote in mkdocs.yml stays English unless the plugin translates it: the ``toc``
title and permalink tooltip (Python-Markdown's default "Permanent link" included), the
footnote back-link tooltip, Material's feedback widget, palette toggle names and the blog
plugin's archive / categories titles. Each is one :class:`UiString` at a path into the
config; the English build collects them with the site strings (so they are cached and listed
in ``site.po`` for review), the Chinese build sets the translations at the same paths, before
the user's ``overrides`` (which win).

Date plugins that pin ``locale: en`` (mkdocs-git-revision-date-localized) get ``zh``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..plaintext import for_template
from .overrides import EXTENSION_ALIASES, translatable_copyright

# Python-Markdown's defaults, shown on every page when the feature is on and the text unset.
PERMALINK_TITLE = "Permanent link"
BACKLINK_TITLE = "Jump back to footnote %d in the text"
# Option keys of Markdown extensions that are interface text (per-language overrides allowed).
TEXT_OPTIONS: dict[str, tuple[str, ...]] = {
    "toc": ("title", "permalink_title"),
    "footnotes": ("BACKLINK_TITLE",),
}
ZH_LOCALE = "zh"
_LOCALE_PLUGINS = ("mkdocs_git_revision_date_localized_plugin", "material.plugins.blog")
_INERT = {ord("<"): "＜", ord(">"): "＞", ord("&"): "＆", ord('"'): "＂"}
_WORD = re.compile(r"[A-Za-z]{2}")


@dataclass(frozen=True)
class UiString:
    """English ``text`` found at ``path`` (root name, then keys / list indexes) in the config.

    ``markdown``: the value goes to Python-Markdown (an attribute it escapes) *and* to
    templates (Material prints the toc title unescaped), so it is made inert for both."""

    path: tuple[str | int, ...]
    text: str
    markdown: bool = False


def _mdx_key(config: Any, name: str) -> str | None:
    """The key under which mdx_configs holds extension ``name`` (as written), if it is used."""
    for key in (name, EXTENSION_ALIASES.get(name, name)):
        if key in config.markdown_extensions:
            return key
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and _WORD.search(value) else None


def collect(config: Any) -> list[UiString]:
    """The interface strings of the English ``config`` that the zh build should translate."""
    return [item for strings_of in _COLLECTORS for item in strings_of(config)]


def _toc_strings(config: Any) -> list[UiString]:
    """The ``toc`` title, and the permalink tooltip (its default included) when permalinks are on."""
    toc = _mdx_key(config, "toc")
    if toc is None:
        return []
    found: list[UiString] = []
    options = config.mdx_configs.get(toc) or {}
    if _text(options.get("title")):
        found.append(UiString(("mdx_configs", toc, "title"), options["title"], markdown=True))
    if options.get("permalink"):
        title = options.get("permalink_title", PERMALINK_TITLE)
        if _text(title):
            found.append(UiString(("mdx_configs", toc, "permalink_title"), title, markdown=True))
    return found


def _footnote_strings(config: Any) -> list[UiString]:
    """The footnote back-link tooltip (its default included) when the extension is on."""
    footnotes = _mdx_key(config, "footnotes")
    if footnotes is None:
        return []
    title = (config.mdx_configs.get(footnotes) or {}).get("BACKLINK_TITLE", BACKLINK_TITLE)
    return [UiString(("mdx_configs", footnotes, "BACKLINK_TITLE"), title, markdown=True)] if _text(title) else []


def _feedback_strings(config: Any) -> list[UiString]:
    """Material's feedback widget: its title and each rating's name and note."""
    feedback = ((config.extra.get("analytics") or {}) if isinstance(config.extra.get("analytics"), dict) else {}).get(
        "feedback"
    )
    if not isinstance(feedback, dict):
        return []
    found: list[UiString] = []
    base = ("extra", "analytics", "feedback")
    if _text(feedback.get("title")):
        found.append(UiString((*base, "title"), feedback["title"]))
    for i, rating in enumerate(feedback.get("ratings") or []):
        if not isinstance(rating, dict):
            continue
        for key in ("name", "note"):
            value = _text(rating.get(key))
            if value and translatable_copyright(value):  # a note with a link stays as written
                found.append(UiString((*base, "ratings", i, key), value))
    return found


def _palette_strings(config: Any) -> list[UiString]:
    """The palette toggles' names, of one scheme (a mapping) or of several (a list)."""
    found: list[UiString] = []
    palette = config.theme.get("palette")
    schemes = palette if isinstance(palette, list) else [palette] if isinstance(palette, dict) else []
    for i, scheme in enumerate(schemes):
        toggle = scheme.get("toggle") if isinstance(scheme, dict) else None
        if isinstance(toggle, dict) and _text(toggle.get("name")):
            path: tuple[str | int, ...] = ("theme", "palette", i) if isinstance(palette, list) else ("theme", "palette")
            found.append(UiString((*path, "toggle", "name"), toggle["name"]))
    return found


def _blog_strings(config: Any) -> list[UiString]:
    """The blog plugins' archive, categories and authors titles, unless Material translates them."""
    found: list[UiString] = []
    for name, plugin in config.plugins.items():
        if not type(plugin).__module__.startswith("material.plugins.blog"):
            continue
        for key in ("archive_name", "categories_name", "authors_profiles_name"):
            value = _text(plugin.config.get(key))
            if value and not value.startswith("blog."):  # "blog.archive": a key Material translates
                found.append(UiString(("plugins", name, key), value))
    return found


# In the order the strings are listed (site.po): Markdown extensions, then Material's features.
_COLLECTORS = (_toc_strings, _footnote_strings, _feedback_strings, _palette_strings, _blog_strings)


def _step(node: Any, key: str | int) -> Any:
    if isinstance(key, int):
        return node[key] if isinstance(node, list) and key < len(node) else None
    try:
        return node[key]
    except (KeyError, TypeError):
        return None


def _inert(text: str) -> str:
    """Plain text safe both as an attribute value Python-Markdown escapes and in a template
    that does not: no character that means something to either (full-width forms instead)."""
    import html

    return html.unescape(text).translate(_INERT)


def _usable(item: UiString, translated: str) -> str | None:
    """The translation as it may be set, or None to keep the English text."""
    if not translated.strip() or translated == item.text:
        return None
    # Python-Markdown formats the footnote tooltip: exactly one %d and no other format syntax.
    if item.path[-1] == "BACKLINK_TITLE" and (
        translated.count("%d") != 1 or translated.count("%") != 1 or "{" in translated or "}" in translated
    ):
        return None
    return _inert(translated) if item.markdown else for_template(translated)


def apply(config: Any, items: list[UiString], strings: dict[str, str]) -> None:
    """Set each translated string at its path in the zh ``config`` (missing paths skipped)."""
    for item in items:
        value = _usable(item, strings.get(item.text, item.text))
        if value is None:
            continue
        root, first, *keys = item.path
        node: Any
        if root == "plugins":
            plugin = config.plugins.get(first)
            node = plugin.config if plugin is not None else None
        elif root == "mdx_configs":  # the default permalink_title has no entry yet
            node = config.mdx_configs.setdefault(first, {})
        else:
            node = _step(config[root], first)
        *parents, last = keys
        for key in parents:
            node = _step(node, key)
        if node is not None:
            node[last] = value


def localize_dates(config: Any) -> list[str]:
    """Point date plugins that pin an English ``locale`` at Chinese; their names, for the log."""
    changed: list[str] = []
    for name, plugin in config.plugins.items():
        if not type(plugin).__module__.startswith(_LOCALE_PLUGINS):
            continue
        locale = plugin.config.get("locale")
        if isinstance(locale, str) and locale and not locale.lower().startswith(ZH_LOCALE):
            plugin.config["locale"] = ZH_LOCALE
            changed.append(name)
    return changed
