"""The translated site's own settings (the plugin's ``overrides:``) and which English ones the
pipeline may translate.

mkdocs-static-i18n users set ``site_name``, ``copyright``, theme options (a CJK font) and
``extra`` per language; the plugin takes the same keys and applies them to the Chinese build
after the machine translation, so a human choice always wins.
"""

from __future__ import annotations

import re
from typing import Any

_MARKUP = re.compile(r"[<>&]|\]\(")


#: The short names of the Markdown extensions whose options hold interface text (their full
#: module names are accepted too); here so that uistrings and overrides share one table.
EXTENSION_ALIASES = {"toc": "markdown.extensions.toc", "footnotes": "markdown.extensions.footnotes"}

def translatable_copyright(text: str | None) -> bool:
    """Plain-text copyright lines are translated; HTML or Markdown ones (links, entities) stay
    as written, since a string goes through the pipeline as plain text."""
    return bool(text and text.strip() and not _MARKUP.search(text))


def translatable_site_name(name: str | None) -> bool:
    """``site_name`` is usually a brand: a one-word name (``Pydantic``, ``FastAPI``) stays as
    written, in every ``<title>``; a descriptive name of several words (``Demo Docs``) is
    translated, and the glossary's ``keep`` list keeps a multi-word brand. ``overrides:
    site_name`` sets it either way."""
    return bool(name) and len(str(name).split()) > 1


def apply_overrides(config: Any, overrides: dict[str, Any]) -> None:
    """Apply the plugin's ``overrides`` to the loaded zh config: plain values replace, ``theme``
    and ``extra`` are merged (one level, as mkdocs-static-i18n merges them), and the text
    options of ``markdown_extensions`` the site uses are set (an extension it lacks is not added)."""
    for key in ("site_name", "site_description", "copyright"):
        if isinstance(overrides.get(key), str):
            config[key] = overrides[key]
    for key, value in (overrides.get("theme") or {}).items():
        config.theme[key] = value
    if overrides.get("extra"):
        config.extra.update(overrides["extra"])
    for name, options in (overrides.get("markdown_extensions") or {}).items():
        # validated (config.text_options): interface text of an extension, under its short name
        used = [k for k in (name, EXTENSION_ALIASES.get(name, name)) if k in config.markdown_extensions]
        if used:
            config.mdx_configs.setdefault(used[0], {}).update(options)
