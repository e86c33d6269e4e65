"""Page context for translators that read it: each segment's page title and previous segment.

A decoder-only translator (the ``genai`` backend) can be told what surrounds a sentence: its
family's prompt has a context block (``families.PromptForm.context_block``). The ``context``
option says what goes there: ``off`` (nothing: every key and output as without the option),
``title`` (the page's title: its first heading) or ``title+previous`` (and the nearest prose
segment before it on the page). The engine knows no Markdown, so the pipeline hands it plain
strings: placeholders dropped, inline code kept as its text, whitespace collapsed, each part
cut to a bounded length (a long previous paragraph keeps its end, the part nearest the
sentence).

A translation made with a context is a translation *of the text in that context*: the request
key (what the service dedupes by and returns hits under) and the machine-cache key carry it,
so the same sentence under two titles is two entries, and the same sentence under the same
context on two pages is one. Request keys stay strings, so every runner (worker processes,
Ray actors), subset and rebuild of :class:`~.service.Requests` carries the context unchanged:
:func:`context_key` appends it after :data:`MARK`, :func:`split_context` takes it back. Segment
texts hold no NUL (the segmenter replaces it) and a context never does; a short string (a
nav title) that holds one is keyed with an empty context after the mark, so every key made
here splits back into exactly what made it.

A backend that reads no context (the seq2seq engine, ``pseudo``) is given none and the option
changes nothing for it, not even the cache key: switching backends on the command line keeps
every cached translation (:func:`context_mode`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..logs import log

if TYPE_CHECKING:  # the segmenter is imported when a page is keyed, not with the option table
    from ..segment import Segment, SegmentedPage

OFF = "off"
TITLE = "title"
TITLE_PREVIOUS = "title+previous"
#: The ``context`` option's values, the default first.
CONTEXT_CHOICES = (OFF, TITLE, TITLE_PREVIOUS)

#: What separates a request key's text from its context (never in a segment text or a context).
MARK = "\x00context\x00"
#: Segment kinds that are running prose: what "the previous segment" is taken from (a table
#: cell's or an admonition title's previous segment is the paragraph before the table or box).
PROSE_KINDS = frozenset({"paragraph", "list_item", "heading", "definition", "definition_term", "blockquote",
                         "footnote"})
#: The most characters of the title and of the previous segment a context holds: enough to
#: say what the page is about and how the sentence before ended, bounded so a long paragraph
#: does not multiply the prompt (and the batch's tokens) of every sentence after it.
MAX_TITLE_CHARS = 120
MAX_PREVIOUS_CHARS = 300

_SPACES_RE = re.compile(r"\s+")


def context_key(text: str, context: str) -> str:
    """The request key of ``text`` translated with ``context`` ("" : none): ``text`` itself
    unless there is a context or the text holds a NUL (then it could look like a key with one)."""
    if not context and "\x00" not in text:
        return text
    return text + MARK + context


def split_context(key: str) -> tuple[str, str]:
    """``(text, context)`` of a key :func:`context_key` made (the last mark: a context holds none)."""
    text, mark, context = key.rpartition(MARK)
    return (text, context) if mark else (key, "")


def plain(segment: Segment) -> str:
    """A segment's words as plain text: pairs' tags dropped (their text kept), inline code as
    its text without backticks, other atoms (URLs, footnote marks, HTML) dropped, whitespace
    collapsed."""
    from ..segment import tokenize

    parts: list[str] = []
    for kind, value in tokenize(segment.text):
        if kind == "text":
            parts.append(str(value))
        elif kind == "atom":
            source, role = segment.restore.atoms.get(int(value), ("", ""))
            if role == "code":
                parts.append(source.strip("`").strip())
    return _SPACES_RE.sub(" ", "".join(parts).replace("\x00", "\ufffd")).strip()


def _tail(text: str, limit: int) -> str:
    """The end of ``text`` in at most ``limit`` characters, starting at a word where it can."""
    if len(text) <= limit:
        return text
    cut = text[-limit:]
    space = cut.find(" ")
    return cut[space + 1:] if 0 <= space < limit // 2 else cut


def page_contexts(page: SegmentedPage, mode: str) -> list[str]:
    """The context of each segment of ``page`` under ``mode`` ("" : none). The title is the
    page's first heading; a segment that is the title gets none of it, and a previous segment
    that is the title is not said twice."""
    if mode == OFF:
        return [""] * len(page.segments)
    texts = [plain(s) for s in page.segments]
    first = next((i for i, s in enumerate(page.segments) if s.kind == "heading"), None)
    title = texts[first][:MAX_TITLE_CHARS].strip() if first is not None else ""
    contexts: list[str] = []
    previous = ""
    for index, segment in enumerate(page.segments):
        parts = [title] if title and index != first else []
        if mode == TITLE_PREVIOUS and previous and previous != title:
            parts.append(_tail(previous, MAX_PREVIOUS_CHARS))
        contexts.append("\n".join(parts))
        if segment.kind in PROSE_KINDS and texts[index]:
            previous = texts[index]
    return contexts


class RequestKeys:
    """The request keys of a pass under one ``mode``: each segment's (its text, with its
    context when the mode gives one) and each short string's (no context). With ``off``
    they are the texts themselves, as before the option."""

    def __init__(self, mode: str = OFF) -> None:
        self.mode = mode
        self._pages: dict[int, tuple[SegmentedPage, list[str]]] = {}

    def page(self, page: SegmentedPage) -> list[str]:
        """The key of each segment of ``page``, in order."""
        if self.mode == OFF:
            return [s.text for s in page.segments]
        known = self._pages.get(id(page))
        if known is None or known[0] is not page:
            keys = [context_key(s.text, c) for s, c in zip(page.segments, page_contexts(page, self.mode))]
            known = self._pages[id(page)] = (page, keys)
        return known[1]

    def string(self, text: str) -> str:
        """The key of a short string (a nav title, the site name): no context."""
        return text if self.mode == OFF else context_key(text, "")

    def strings(self, texts: Sequence[str]) -> list[str]:
        return [self.string(t) for t in texts]


_ANNOUNCED: set[str] = set()


def announce_ignored(mode: str, backend: str) -> None:
    """One info line per process and backend: the option is set and this backend reads no context."""
    if mode != OFF and backend not in _ANNOUNCED:
        _ANNOUNCED.add(backend)
        log.info(f"context: {mode} changes nothing with the {backend} backend (it translates each sentence "
                 "alone); the genai backend's models read it")
