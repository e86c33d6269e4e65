"""CLI references written by mkdocs-click (``::: mkdocs-click``), translated with their page.

mkdocs-click is a Markdown extension: its preprocessor replaces each ``::: mkdocs-click`` block
with Markdown made from the Click application's help (headings, help text, a ``Usage:`` code
block, the options as a table or a code block). That happens when Python-Markdown runs, after
the plugin has seen the page, so the Chinese page would get the English reference under a
banner saying it was translated. As with snippets (snippets.py), the Markdown the page hands to
the translator is the page with those blocks already replaced, by mkdocs-click's own
preprocessor, with ``attr_list`` as the site has it (mkdocs-click writes heading ids with it).
The usage and option listings are code blocks and stay as they are; the prose is translated,
and the headings keep their English ids like every other heading.

Unlike mkdocstrings' ``::: identifier`` pages (rendered from source in each build, docstrings in
English), this output is plain Markdown known before rendering, so nothing stops it from being
translated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_NAMES = frozenset({"mkdocs-click", "mkdocs_click"})
_DIRECTIVE = "::: mkdocs-click"


def _name(extension: Any) -> str:
    """MkDocs lists extensions as names; a few sites give an Extension instance."""
    return extension if isinstance(extension, str) else type(extension).__module__.split(".")[0]


def expand(markdown: str, extensions: Sequence[Any]) -> tuple[str, str | None]:
    """``markdown`` with its ``::: mkdocs-click`` blocks replaced as the site's mkdocs-click
    replaces them, and None; or ``markdown`` unchanged and why the expansion failed (the
    Click application cannot be imported, a required option is missing)."""
    names = [_name(ext) for ext in extensions]
    if _DIRECTIVE not in markdown or not _NAMES.intersection(names):
        return markdown, None
    import markdown as python_markdown

    attr_list = any(name.rsplit(".", 1)[-1] == "attr_list" for name in names)
    try:
        md = python_markdown.Markdown(extensions=[*(["attr_list"] if attr_list else []), "mkdocs-click"])
        lines = md.preprocessors["mk_click"].run(markdown.split("\n"))
    except Exception as exc:  # mkdocs-click's own errors, and the application's import errors
        return markdown, str(exc) or type(exc).__name__
    return "\n".join(lines), None
