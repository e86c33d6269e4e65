"""Finding and editing tags in a theme's (or another plugin's) HTML, whatever its formatting.

Other plugins post-process the HTML before or after ours (minifiers drop attribute quotes and
whitespace, privacy/offline plugins rewrite links, checkers reparse it), so the plugin never
matches tags with regular expressions over a formatting it assumes. Python's ``html.parser``
finds the tags (not inside comments, scripts or styles), a linear scanner finds each attribute
value's span inside the tag, and an edit replaces exactly that span (or inserts text at a tag
boundary), leaving every other byte as it was.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..spans import apply_edits

_SPACE = " \t\n\r\f"


@dataclass(frozen=True)
class Attr:
    """One attribute: its value (entities decoded) and the span of the value as written,
    quotes included (``start == end`` for an attribute written without a value)."""

    value: str
    start: int
    end: int


@dataclass(frozen=True)
class Tag:
    """A start tag (``end_tag`` False) or an end tag found in the document, with its span."""

    name: str
    start: int
    end: int
    attrs: dict[str, Attr] = field(default_factory=dict)
    end_tag: bool = False

    def classes(self) -> list[str]:
        found = self.attrs.get("class")
        return found.value.split() if found else []


def scan_attrs(document: str, start: int, end: int) -> dict[str, Attr]:
    """The attributes of the start tag ``document[start:end]`` (``<name ...>``), first one of
    each name kept, as browsers do. One pass over the tag, no backtracking."""
    attrs: dict[str, Attr] = {}
    i = start + 1
    while i < end and document[i] not in _SPACE + "/>":  # the tag name
        i += 1
    while i < end:
        while i < end and document[i] in _SPACE + "/":
            i += 1
        if i >= end or document[i] == ">":
            break
        name_start = i
        i += 1  # a name may start with "=" (HTML's tokenizer keeps it)
        while i < end and document[i] not in _SPACE + "/>=":
            i += 1
        name = document[name_start:i].lower()
        j = i
        while j < end and document[j] in _SPACE:
            j += 1
        if j < end and document[j] == "=":
            j += 1
            while j < end and document[j] in _SPACE:
                j += 1
            value_start = j
            if j < end and document[j] in "\"'":
                close = document.find(document[j], j + 1, end)
                j = end - 1 if close < 0 else close + 1
                raw = document[value_start + 1 : j - 1]
            else:
                while j < end and document[j] not in _SPACE + ">":
                    j += 1
                raw = document[value_start:j]
            attrs.setdefault(name, Attr(html.unescape(raw), value_start, j))
            i = j
        else:
            attrs.setdefault(name, Attr("", i, i))
    return attrs


class _Tags(HTMLParser):
    """Records tags with their offsets; ``getpos()`` is the tag's start while it is handled."""

    def __init__(self, document: str) -> None:
        super().__init__(convert_charrefs=False)
        self.document = document
        self.line_starts = [0]  # of the lines fed so far (see feed_to)
        self.fed = 0
        self.found: list[Tag] = []

    def feed_to(self, end: int) -> None:
        """Feed the document up to ``end``, counting its lines as far as that only."""
        index = self.document.find("\n", self.fed, end)
        while index >= 0:
            self.line_starts.append(index + 1)
            index = self.document.find("\n", index + 1, end)
        self.feed(self.document[self.fed : end])
        self.fed = end

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        raw = self.get_starttag_text() or ""
        end = start + len(raw)
        self.found.append(Tag(tag, start, end, scan_attrs(self.document, start, end)))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        start = self._offset()
        close = self.document.find(">", start)
        self.found.append(Tag(tag, start, len(self.document) if close < 0 else close + 1, end_tag=True))


def tags(document: str, *, chunk: int = 1 << 16) -> Iterator[Tag]:
    """The tags of ``document`` in order, parsed a chunk at a time so that a caller looking for
    something in ``<head>`` stops long before the end of a large page: the first chunk is small
    (``<html>`` is the first tag) and each next one twice as big, up to ``chunk``."""
    parser = _Tags(document)
    size = min(chunk, 1 << 12)
    while parser.fed < len(document):
        parser.feed_to(min(len(document), parser.fed + size))
        size = min(chunk, size * 2)
        yield from parser.found
        parser.found = []
    parser.close()
    yield from parser.found


def first(document: str, name: str, *, end_tag: bool = False) -> Tag | None:
    """The first ``<name>`` (or ``</name>``) tag of the document."""
    return next((t for t in tags(document) if t.name == name and t.end_tag == end_tag), None)


def quoted(value: str) -> str:
    """An attribute value as written in an edit: double-quoted, escaped."""
    return '"' + html.escape(value, quote=True) + '"'


def set_value(attr: Attr, value: str) -> tuple[int, int, str]:
    """The edit that gives an attribute a new value (quoted, whatever the old quoting)."""
    return (attr.start, attr.end, quoted(value) if attr.end > attr.start else "=" + quoted(value))


def apply(document: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """``document`` with each ``(start, end, text)`` span replaced; spans must not overlap."""
    return apply_edits(document, edits)

