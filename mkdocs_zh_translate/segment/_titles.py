"""A container's title as the tokens the segmenter reads: title text, or a heading.

pymdownx's details (``??? note "### Title"``) and the blocks admonition and details
(``/// note | ### Title``) make a title that is a Markdown heading an ``<hN>`` (their
``RE_NORMAL_HEADING``), which ``toc`` then gives an id. Offered as plain title text, the whole
``### Title`` went to the model and came back a paragraph-like title: the heading and its id
were gone. Here such a title is a heading: the hashes stay outside the segment, and the
segmenter pins the English id on the translation as on any heading. Python-Markdown's own
admonition (``!!!``) and tabs show the hashes as text: their titles stay titles.
"""

from __future__ import annotations

import re

from markdown_it.rules_block import StateBlock

from ._pymd import no_python_markdown_heading

_LEVEL_RE = re.compile(r"#{1,6}")


def strip_closing_hashes(body: str) -> str:
    """Python-Markdown drops the ``#`` run ending the line, except one escaped by a backslash."""
    run = len(body) - len(body.rstrip("#"))
    if not run:
        return body
    start = len(body) - run
    backslashes = len(body[:start]) - len(body[:start].rstrip("\\"))
    return body[: start + (1 if backslashes % 2 else 0)]


def title_heading(title: str) -> tuple[int, int, int] | None:
    """``(level, start, end)`` of the words of a heading title (``### Words ###``), or None
    when it is no heading we can tell: pymdownx.saneheaders wants a space after the hashes,
    plain pymdownx does not, so ``###Words`` is left alone; so is a line that ends in an odd
    run of backslashes (no heading to the extension, but one if a translation ended it)."""
    m = _LEVEL_RE.match(title)
    if m is None or title[m.end() : m.end() + 1] != " " or no_python_markdown_heading(title):
        return None
    body = strip_closing_hashes(title[m.end() :])
    words = body.strip()
    if not words:
        return None
    start = m.end() + len(body) - len(body.lstrip())
    return len(m.group(0)), start, start + len(words)


def push_title(state: StateBlock, title: str, offset: int, line: int, kind: str, *, heading: bool = False) -> None:
    """Tokens for a container's title ``title`` found at page offset ``offset`` on ``line``:
    a heading when ``heading`` (the extension makes one of a ``#`` title), else title text of
    ``kind``. A ``#`` title that is no heading we can tell gets no tokens: it stays English."""
    if heading and title.startswith("#"):
        found = title_heading(title)
        if found is None:
            return
        level, start, end = found
        opening = state.push("heading_open", f"h{level}", 1)
        opening.markup = "#" * level
        opening.map = [line, line + 1]
        _push_inline(state, title[start:end], offset + start, line, "heading")
        state.push("heading_close", f"h{level}", -1).markup = "#" * level
        return
    state.push("zh_container_title_open", "p", 1).map = [line, line + 1]
    _push_inline(state, title, offset, line, kind)
    state.push("zh_container_title_close", "p", -1)


def _push_inline(state: StateBlock, content: str, offset: int, line: int, kind: str) -> None:
    inline = state.push("inline", "", 0)
    inline.content = content
    inline.map = [line, line + 1]
    inline.children = []
    inline.meta = {"zh_offset": offset, "zh_kind": kind}
