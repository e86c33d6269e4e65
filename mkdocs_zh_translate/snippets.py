"""Included Markdown (pymdownx.snippets ``--8<--``) translated with the page that includes it.

A home page that is ``--8<-- "README.md"`` has no text of its own: the README arrives only when
Python-Markdown runs, long after the plugin has seen the page, so it would stay English under a
banner saying the page was translated. Instead, the Markdown each page hands to the translator
is the page with its snippets already expanded, by pymdownx's own preprocessor with the site's
own options (``base_path``, ``check_paths``, line ranges ``file.md:3:10``, sections
``file.md:name``, block form, nested snippets). The Chinese build then renders that expanded,
translated Markdown; nothing is written anywhere, least of all into ``docs_dir``.

Two details keep the Chinese build's own snippets pass from changing anything a second time:
``auto_append`` files are left to it (expanding them here would include them twice), and an
escaped marker (``;--8<--``) gets one more ``;`` here, because the expansion here and the one in
the Chinese build each remove one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_EXTENSION = "pymdownx.snippets"
_ESCAPED_MARKER_RE = re.compile(r"^([ \t]*)(;+-{1,}8<-)", re.MULTILINE)


class SnippetExpander:
    """Expands ``--8<--`` includes the way the site's pymdownx.snippets would."""

    def __init__(self, extensions: Sequence[Any], configs: Mapping[str, Any]) -> None:
        self.enabled = any(_name(ext) == _EXTENSION for ext in extensions)
        options = dict(configs.get(_EXTENSION) or {})
        options["auto_append"] = []  # the Chinese build appends these itself
        self.options = options

    def expand(self, markdown: str) -> tuple[str, str | None]:
        """The page with its snippets expanded, and None; or the page unchanged and the reason
        the expansion failed (a missing file under ``check_paths``, say)."""
        if not self.enabled or "8<" not in markdown:
            return markdown, None
        import markdown as python_markdown

        try:
            md = python_markdown.Markdown(extensions=[_EXTENSION], extension_configs={_EXTENSION: self.options})
            preprocessor = md.preprocessors["snippet"]
            source = _ESCAPED_MARKER_RE.sub(r"\1;\2", markdown)
            lines = preprocessor.run(source.split("\n"))
        except Exception as exc:  # pymdownx's own errors: missing snippet, bad option, IO
            return markdown, str(exc) or type(exc).__name__
        return "\n".join(lines), None


def _name(extension: Any) -> str:
    """MkDocs lists extensions as names; a few sites give an Extension instance."""
    if isinstance(extension, str):
        return extension
    return f"{type(extension).__module__}" if extension is not None else ""
