"""Which syntax a message is written in, and which syntax its translation must be written in.

Sphinx's ``Locale`` parses every translated message with the parser of the *document* (by its
suffix). A MyST page's messages are Markdown (``myst``), except those whose source is reST: an
autodoc'ed docstring (its node's source is ``module.py:docstring of ...``), an included ``.rst``
file, an ``{eval-rst}`` block (same source file, so found by its lines): those are protected
as reST and written back as MyST (``rst-in-myst``). The build (per node) and ``sphinx sync``
(per catalog location) ask the same questions here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx.util import get_filetype

from ..pofill.formats import RST_IN_MYST, link_label

_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,}|:{3,})[ \t]*\{eval-rst\}")
_DEFINITION = re.compile(r" {0,3}\[([^\[\]\n]{1,999})\]:[ \t]*\S")  # [label]: url


def document_format(config: Any, registry: Any, source: str) -> str:
    """``myst`` for a document MyST parses (``md`` another Markdown parser), else ``rst``: Sphinx's
    ``Locale`` parses a translated message with the document's own parser (by its suffix), so a
    MyST page's messages are Markdown with roles and need that protection, not the reST one."""
    try:
        filetype = get_filetype(config.source_suffix, source)
    except Exception:  # not a source file Sphinx knows (a docstring's pseudo-path): reST
        return "rst"
    if filetype == "restructuredtext":
        return "rst"
    parser = registry.source_parsers.get(filetype)
    if "myst" in getattr(parser, "__module__", ""):
        return "myst"
    return "md" if filetype == "markdown" else "rst"


def eval_rst_lines(text: str) -> list[tuple[int, int]]:
    """The (first, last) 1-based line numbers of each ``{eval-rst}`` block's content in a MyST
    page; one pass (a block ends at a fence of its character at least as long)."""
    spans: list[tuple[int, int]] = []
    opened: tuple[str, int] | None = None  # (fence, first content line)
    for number, line in enumerate(text.splitlines(), 1):
        if opened is None:
            m = _FENCE.match(line)
            if m:
                opened = (m.group(1), number + 1)
        elif line.strip().startswith(opened[0]) and not line.strip().strip(opened[0][0]):
            spans.append((opened[1], number - 1))
            opened = None
    if opened is not None:
        spans.append((opened[1], len(text.splitlines())))
    return spans


class Sources:
    """The format each message of one project's documents is protected in (files read once)."""

    def __init__(self, config: Any, registry: Any) -> None:
        self.config, self.registry = config, registry
        self._evals: dict[str, list[tuple[int, int]]] = {}
        self._lines: dict[str, list[str]] = {}
        self._refs: dict[str, dict[str, str]] = {}

    def document(self, source: str) -> str:
        return document_format(self.config, self.registry, source)

    def message(self, doc_format: str, source: str, line: int | None) -> str:
        """The format of a message of a ``doc_format`` document whose node came from ``source``
        (a file, or ``path:docstring of name``) at ``line``."""
        if doc_format != "myst":
            return doc_format
        if self.document(source) != "myst":
            return RST_IN_MYST
        if line is not None and any(first <= line <= last for first, last in self._eval_rst(source)):
            return RST_IN_MYST
        return "myst"

    def references(self, source: str, line: int | None) -> dict[str, str]:
        """The link reference definitions of the MyST file ``source`` (label -> its line), for a
        message at ``line``; none for a heading (Sphinx underlines a title's msgstr, which a
        definition after it would break)."""
        lines = self._read(source)
        if line is not None and 0 < line <= len(lines) and lines[line - 1].lstrip().startswith("#"):
            return {}
        if source not in self._refs:  # read once per file
            found: dict[str, str] = {}
            for text in lines:
                m = _DEFINITION.match(text)
                if m:
                    found.setdefault(link_label(m.group(1)), text.strip())
            self._refs[source] = found
        return self._refs[source]

    def _read(self, source: str) -> list[str]:
        if source not in self._lines:
            try:
                self._lines[source] = Path(source).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines[source] = []
        return self._lines[source]

    def _eval_rst(self, source: str) -> list[tuple[int, int]]:
        if source not in self._evals:
            self._evals[source] = eval_rst_lines("\n".join(self._read(source)))
        return self._evals[source]
