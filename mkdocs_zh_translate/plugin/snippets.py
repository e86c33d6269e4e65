"""Included Markdown (pymdownx.snippets ``--8<--``) translated with the page that includes it.

A home page that is ``--8<-- "README.md"`` has no text of its own: the README arrives only when
Python-Markdown runs, long after the plugin has seen the page, so it would stay English under a
banner saying the page was translated. Instead, the Markdown each page hands to the translator
is the page with its snippets already expanded, by pymdownx's own preprocessor with the site's
own options (``base_path``, ``check_paths``, line ranges ``file.md:3:10``, sections
``file.md:name``, block form, nested snippets). The Chinese build then renders that expanded,
translated Markdown; nothing is written anywhere, least of all into ``docs_dir``.

Two details keep the Chinese build's own snippets pass from changing anything a second time:
``auto_append`` files are left to it (expanding them here would include them twice), and every
line of the expanded text that it would read as snippet syntax (an escaped ``;--8<--`` the
expansion turned into a literal one, a section marker shown in an included code file) gets
the escape ``;`` that its pass removes again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

_EXTENSION = "pymdownx.snippets"


class SnippetExpander:
    """Expands ``--8<--`` includes the way the site's pymdownx.snippets would."""

    def __init__(self, extensions: Sequence[Any], configs: Mapping[str, Any]) -> None:
        self.enabled = any(_name(ext) == _EXTENSION for ext in extensions)
        options = dict(configs.get(_EXTENSION) or {})
        options["auto_append"] = []  # the Chinese build appends these itself
        self.options = options
        self.read: set[str] = set()  # the files expansions included (absolute paths), for inputs

    def expand(self, markdown: str) -> tuple[str, str | None]:
        """The page with its snippets expanded, and None; or the page unchanged and the reason
        the expansion failed (a missing file under ``check_paths``, say)."""
        if not self.enabled or "8<" not in markdown:
            return markdown, None
        import markdown as python_markdown

        try:
            md = python_markdown.Markdown(extensions=[_EXTENSION], extension_configs={_EXTENSION: self.options})
            preprocessor = md.preprocessors["snippet"]
            _record_reads(preprocessor, self.read)
            lines = [_escaped(preprocessor, line) for line in preprocessor.run(markdown.split("\n"))]
        except Exception as exc:  # pymdownx's own errors: missing snippet, bad option, IO
            return markdown, str(exc) or type(exc).__name__
        return "\n".join(lines), None


def _record_reads(preprocessor: Any, read: set[str]) -> None:
    """Make this preprocessor instance add every snippet file it finds to ``read``."""
    find = preprocessor.get_snippet_path

    def get_snippet_path(path: str) -> Any:
        found = find(path)
        if isinstance(found, str) and "://" not in found:
            read.add(os.path.abspath(found))
        return found

    preprocessor.get_snippet_path = get_snippet_path


def _escaped(preprocessor: Any, line: str) -> str:
    """``line`` with one more ``;`` before its snippet marker, if a snippets pass would act on it."""
    if "8<" not in line:
        return line
    m = preprocessor.RE_ALL_SNIPPETS.match(line)
    if m is None:  # pymdownx 10.x has no match_section(), only the pattern
        match_section = getattr(preprocessor, "match_section", None) or preprocessor.RE_SNIPPET_SECTION.match
        m = match_section(line)
    if m is None:
        return line
    at = m.start("escape")
    return line[:at] + ";" + line[at:]


def _name(extension: Any) -> str:
    """MkDocs lists extensions as names; a few sites give an Extension instance."""
    if isinstance(extension, str):
        return extension
    return f"{type(extension).__module__}" if extension is not None else ""
