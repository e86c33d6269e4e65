"""Included Markdown of markdown-include (``{!file.md!}``) translated with the page that includes it.

A site that assembles its pages from shared files (``{!README.md!}``, ``{!../LICENSE.md!}``)
hands the plugin pages whose Markdown is little more than an include line: the included text
arrives only when Python-Markdown runs, after the plugin has seen the page, so it would ship in
English with a report that says ``segments: 0``. As with pymdownx.snippets (snippets.py), the
Markdown each page hands to the translator is the page with its includes expanded, by
markdown-include's own preprocessor with the site's own options (``base_path``, ``encoding``,
``headingOffset``, ``inheritHeadingDepth``, ``lines=`` ranges, nested includes). The Chinese
build then renders the expanded, translated Markdown, in which no include statement is left
for its own pass to act on.

An include that cannot be resolved (a missing file) leaves the page as written and a reason:
the page's build names it (a warning, an error under ``strict``), since markdown-include itself
only prints a line to stdout and drops the statement. Include extensions whose expansion the
plugin does not reproduce (:data:`UNRESOLVED`) are named the same way for each page that uses
their syntax, so that no page goes out silently English.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .snippets import _name

EXTENSION = "markdown_include.include"
_MARKER = "{!"
# Other Markdown extensions that include files with a syntax of their own: the text they include
# is not the page's, and the plugin does not expand it. Extension name -> marker of its syntax.
UNRESOLVED: dict[str, str] = {"mdx_include": "{!"}


class IncludeExpander:
    """Expands ``{!file!}`` includes the way the site's markdown-include would."""

    def __init__(self, extensions: Sequence[Any], configs: Mapping[str, Any]) -> None:
        names = [_name(ext) for ext in extensions]
        self.enabled = EXTENSION in names
        self.options = dict(configs.get(EXTENSION) or {})
        self.unresolved = [name for name in UNRESOLVED if name in names]
        self.read: set[str] = set()  # the files expansions included (absolute paths), for inputs

    def expand(self, markdown: str) -> tuple[str, str | None]:
        """The page with its includes expanded, and None; or the page unchanged and the reason
        the expansion failed (a file that cannot be read)."""
        if not self.enabled or _MARKER not in markdown:
            return markdown, None
        try:
            from markdown_include.include import IncludePreprocessor  # type: ignore[import-untyped]

            options = {**_DEFAULTS, **self.options, "throwException": True}
            lines = IncludePreprocessor(None, options).run(markdown.split("\n"))
        except Exception as exc:  # a missing file, a bad line range, a bad option
            return markdown, _reason(exc)
        self._record(markdown, str(options["base_path"]))
        return "\n".join(lines), None

    def _record(self, markdown: str, base_path: str) -> None:
        """Add the files ``markdown`` includes, and those they include, to ``read`` (resolved as
        markdown-include resolves them; each file read once)."""
        from markdown_include.include import INC_SYNTAX

        pending = [markdown]
        while pending:
            for match in INC_SYNTAX.finditer(pending.pop()):
                name = os.path.expanduser(match.group(1))
                path = os.path.abspath(name if os.path.isabs(name) else os.path.join(base_path, name))
                if path in self.read:
                    continue
                self.read.add(path)
                try:
                    pending.append(Path(path).read_text(encoding=str(self.options.get("encoding", "utf-8"))))
                except (OSError, UnicodeDecodeError, LookupError):
                    continue

    def unknown(self, markdown: str) -> list[str]:
        """The include extensions of :data:`UNRESOLVED` whose syntax ``markdown`` uses."""
        return [name for name in self.unresolved if UNRESOLVED[name] in markdown]


_DEFAULTS: dict[str, Any] = {
    "base_path": ".",
    "encoding": "utf-8",
    "inheritHeadingDepth": False,
    "headingOffset": 0,
}


def _reason(exc: Exception) -> str:
    """One line: an OSError names its file and cause; anything else its message."""
    if isinstance(exc, OSError) and exc.filename:
        return f"cannot read {exc.filename}: {exc.strerror or exc}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
